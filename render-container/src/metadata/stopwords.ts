/**
 * Function words and stream filler per language, removed before picking keywords from a transcript.
 * Compact lists: enough to leave the content words of a few sentences of speech.
 */
const EN = `a about above after again against all am an and any are aren't as at be because been before being below
between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from
further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how
how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of off
on once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't so some
such than that that's the their theirs them themselves then there there's these they they'd they'll they're they've
this those through to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when when's
where where's which while who who's whom why why's will with won't would wouldn't you you'd you'll you're you've your
yours yourself yourselves yeah yes yep nope okay ok oh uh um uhm hmm like just really gonna wanna gotta got get gets
going go goes went come came know think thing things stuff lot lots right well now also actually literally basically
maybe one two three see say said look let lets make made want need us ya hey hi guys chat im dont thats whats its ive
youre theyre cant wont didnt doesnt isnt wasnt god gosh omg wow dude bro lol lmao damn holy shit fuck fucking
huh whoa`;

const ES = `a al algo algunas algunos ante antes como con contra cual cuando de del desde donde durante e el ella ellas
ellos en entre era eran es esa esas ese eso esos esta estaba estado estamos estan estar este esto estos estoy fue fueron
ha habia han hasta hay la las le les lo los mas me mi mis mucho muy nada ni no nos nosotros o os otra otro para pero poco
por porque que quien se sea ser si sin sobre somos son soy su sus tambien te tengo ti tiene tienen todo todos tu tus un
una uno unos vamos y ya yo eh bueno pues vale oye mira tio tia asi aqui alli ahora creo digo dice hace hacer voy va van
chat chicos gente`;

const DE = `aber alle allem allen aller alles als also am an ander andere anderen auch auf aus bei bin bis bist da damit
dann das dass dein deine dem den der des dich die dies diese diesem diesen dieser dir doch dort du durch ein eine einem
einen einer eines er es etwas euch euer für gegen hab habe haben hat hatte ich ihr ihre ihm ihn im in ist ja jetzt kann
kein keine können mal man mein meine mich mir mit muss nach nicht nichts noch nur ob oder ohne sehr sein seine sich sie
sind so über um und uns unser unter vom von vor war waren warum was weil wenn wer wie wieder wir wird wo zu zum zur ja
nein okay ok äh ähm halt eben genau gerade einfach echt schon leute chat gut geht gehen mache machen`;

const FR = `a ai au aux avec avoir c ça ce ceci cela celle celui ces cet cette chaque comme dans de des du elle elles en
est et été être eu il ils j je l la le les leur leurs lui m ma mais me même mes moi mon n ne ni nos notre nous on ont ou
où par pas pour qu que quel quelle qui s sa sans se ses si son sont sur t ta te tes toi ton tout tous très tu un une
vos votre vous y euh bah ben bon alors voilà quoi genre juste vraiment trop fait faire va vais allez ok okay oui non
chat gars`;

const PT = `a ao aos as até com como da das de dela dele do dos e é ela elas ele eles em entre era essa esse esta está
estão este eu foi foram há isso isto já la lhe mais mas me meu minha muito na nas não nem no nos nós o os ou para pela
pelo por porque quando que quem se sem ser seu sua são também te tem ter tu tua um uma vai vamos você vocês né tipo
então aí cara mano galera chat ok okay sim agora aqui ali tá tô`;

function toSet(list: string): Set<string> {
  return new Set(list.split(/\s+/).filter(Boolean));
}

export const STOP_WORDS: Record<string, Set<string>> = {
  en: toSet(EN),
  es: toSet(ES),
  de: toSet(DE),
  fr: toSet(FR),
  pt: toSet(PT),
};

/** Stop words of a language; English filler is always removed too, since streams mix English in. */
export function stopWordsFor(language: string): (word: string) => boolean {
  const own = STOP_WORDS[language];
  const en = STOP_WORDS.en!;
  return (w) => en.has(w) || (own?.has(w) ?? false);
}

/**
 * Words that may stand in a quote but say nothing as a tag or a topic on their own: the other half of "no way",
 * "a little bit", "so much". A quote keeps them ("no way" is quoted whole); keywords (tags, "talked about") leave
 * them out, so a reel is not tagged "way". English, the language streams mix in.
 */
const VAGUE_EN = toSet("way bit little much even still");

export function isVagueWord(word: string): boolean {
  return VAGUE_EN.has(word.toLowerCase());
}
