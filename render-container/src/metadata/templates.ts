import type { RunProfile } from "../../../common/contract/enums";
import type { PronounForms } from "./pronouns";

/** What templates know about the streamer. */
export interface Who {
  name: string;
  /** English pronoun forms, or null to repeat the name. */
  pronouns: PronounForms | null;
  gender: "m" | "f" | "n";
}

/** Sentence pieces for one language. Every function returns finished text in that language. */
export interface LanguagePack {
  code: string;
  quote(word: string): string;
  list(items: string[]): string;
  // Story openings (what the audience did); each a list of wordings, taken in turn within a job (stories.ts).
  // Stories and descriptions are posted by the streamer for viewers: they say what happened in words, never the
  // figures the moment was picked by (chat's pace against its baseline, decibels), which no viewer cares about.
  /** `typed`: what chat typed, already listed (an emote, a quoted phrase), or null. */
  chatExploded: readonly ((typed: string | null) => string)[];
  chatPickedUp: readonly ((typed: string | null) => string)[];
  gotLoud: readonly (() => string)[];
  handPicked(label: string | null): string;
  standout: readonly (() => string)[];
  /** Joins opening and ending into the one-line story. */
  story(opening: string, ending: string): string;
  // Story endings (what the streamer did).
  talkedAbout: readonly ((who: Who, words: string[]) => string)[];
  yelled: readonly ((who: Who) => string)[];
  /** A whole story (no full stop) when the streamer getting loud is all there is: not "It got loud as X got loud". */
  shouted: readonly ((who: Who, game: string | null) => string)[];
  during: readonly ((who: Who, game: string | null) => string)[];
  /** Story ending: a phrase the streamer said (already quoted). */
  said: readonly ((who: Who, quote: string) => string)[];
  /** Story ending: what chat typed (already quoted). */
  chatSaid: readonly ((quote: string) => string)[];
  /** A short's description: where the clip is from, when its story does not say it already. */
  clippedFrom(who: Who, game: string | null): string;
  // Reels.
  reelTitle(who: Who, profile: RunProfile, game: string | null): string;
  reelIntro(who: Who, profile: RunProfile, game: string | null, vodTitle: string | null, count: number): string;
  follow(who: Who): string;
  tags: { highlights: string; clips: string; shorts: string; stream: string };
}

const curly = (w: string) => `\u201C${w}\u201D`;
const guillemets = (w: string) => `\u00AB\u00A0${w}\u00A0\u00BB`;
const german = (w: string) => `\u201E${w}\u201C`;

function joinList(items: string[], and: string): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${and} ${items.at(-1)}`;
}

/**
 * Opening and ending as one sentence. An opening that ends on an aside ("Chat lost it, spamming KEKW") closes it
 * with a comma before the ending, as it is read aloud ("…, spamming KEKW, as Nova said …").
 */
const commaStory = (opening: string, ending: string) => (opening.includes(", ") && !opening.endsWith(",") ? `${opening}, ${ending}.` : `${opening} ${ending}.`);

/**
 * A manual highlight's label opens its story as the streamer wrote it ("The secret ending, as Nova said …"): it is
 * their name for the moment, not "Hand-picked: …". Trailing punctuation gives way to the comma.
 */
const labelOpening = (label: string) => `${label.trim().replace(/[\s.,;:]+$/u, "")},`;

const possessive = (who: Who) => (who.pronouns ? who.pronouns.possessive : `${who.name}'s`);
const object = (who: Who) => (who.pronouns ? who.pronouns.object : who.name);
const inGame = (game: string | null, word = "in") => (game ? ` ${word} ${game}` : "");

const en: LanguagePack = {
  code: "en",
  story: (o, e) => commaStory(o, e),
  quote: curly,
  list: (i) => joinList(i, "and"),
  chatExploded: [
    (t) => `Chat lost it${t ? `, spamming ${t}` : ""}`,
    (t) => `Chat went wild${t ? ` with ${t} everywhere` : ""}`,
    (t) => `Chat blew up${t ? `, flooded with ${t}` : ""}`,
  ],
  chatPickedUp: [
    (t) => `Chat woke up${t ? `, typing ${t}` : ""}`,
    (t) => `Chat got going${t ? ` with ${t}` : ""}`,
    (t) => `Chat started reacting${t ? ` with ${t}` : ""}`,
  ],
  gotLoud: [() => "It got loud", () => "Things got loud on stream", () => "The stream got loud"],
  handPicked: (l) => (l ? labelOpening(l) : "A hand-picked moment"),
  standout: [() => "A standout moment", () => "A moment worth a clip", () => "One of the stream's standout moments"],
  talkedAbout: [
    (w, words) => `as ${w.name} talked about ${en.list(words.map(curly))}`,
    (w, words) => `while ${w.name} was talking about ${en.list(words.map(curly))}`,
    (w, words) => `just as ${w.name} brought up ${en.list(words.map(curly))}`,
  ],
  yelled: [
    (w) => `as ${w.name} let loose on stream`,
    (w) => `as ${w.name} got loud`,
    (w) => `as ${w.name} reacted out loud`,
  ],
  shouted: [
    (w, g) => `${w.name} let loose${g ? ` playing ${g}` : " on stream"}`,
    (w, g) => `${w.name} got loud${g ? ` in ${g}` : " on stream"}`,
    (w, g) => `${w.name} reacted out loud${g ? ` in ${g}` : ""}`,
  ],
  during: [
    (w, g) => `during ${w.name}'s ${g ? `${g} ` : ""}stream`,
    (w, g) => `in the middle of ${w.name}'s ${g ? `${g} ` : ""}stream`,
    (w, g) => (g ? `while ${w.name} played ${g}` : `live on ${w.name}'s stream`),
  ],
  said: [(w, q) => `as ${w.name} said ${q}`, (w, q) => `when ${w.name} said ${q}`, (w, q) => `just as ${w.name} said ${q}`],
  chatSaid: [(q) => `with chat typing ${q}`, (q) => `as chat kept typing ${q}`, (q) => `while chat filled up with ${q}`],
  clippedFrom: (w, g) => `Clipped from ${w.name}'s ${g ? `${g} ` : ""}stream.`,
  reelTitle: (w, p, g) =>
    p === "audience"
      ? `Chat's favourite ${w.name} moments${inGame(g)}`
      : p === "streamer"
        ? `${w.name}'s biggest reactions${inGame(g)}`
        : `${w.name}: best moments${inGame(g)}`,
  reelIntro: (w, p, g, v, n) =>
    `${n} highlight${n === 1 ? "" : "s"} from ${w.name}'s ${g ? `${g} ` : ""}stream${v ? ` ${curly(v)}` : ""}, picked by ${
      p === "audience" ? `how ${possessive(w)} chat reacted` : p === "streamer" ? `${possessive(w)} own biggest reactions` : `the reactions of ${w.name} and ${possessive(w)} chat`
    }.`,
  follow: (w) => `Follow ${object(w)}:`,
  tags: { highlights: "highlights", clips: "twitch clips", shorts: "shorts", stream: "livestream" },
};

const es: LanguagePack = {
  code: "es",
  story: (o, e) => commaStory(o, e),
  quote: curly,
  list: (i) => joinList(i, "y"),
  chatExploded: [
    (t) => `El chat se volvió loco${t ? `, spameando ${t}` : ""}`,
    (t) => `El chat explotó${t ? ` con ${t} por todas partes` : ""}`,
    (t) => `El chat reventó${t ? `, lleno de ${t}` : ""}`,
  ],
  chatPickedUp: [
    (t) => `El chat se animó${t ? `, escribiendo ${t}` : ""}`,
    (t) => `El chat despertó${t ? ` con ${t}` : ""}`,
    (t) => `El chat empezó a reaccionar${t ? ` con ${t}` : ""}`,
  ],
  gotLoud: [() => "El directo se puso ruidoso", () => "Se armó jaleo en el directo", () => "Subió el volumen en el directo"],
  handPicked: (l) => (l ? labelOpening(l) : "Un momento elegido a mano"),
  standout: [() => "Un momento destacado", () => "Un momento digno de clip", () => "Uno de los momentos destacados del directo"],
  talkedAbout: [
    (w, words) => `mientras ${w.name} hablaba de ${es.list(words.map(curly))}`,
    (w, words) => `cuando ${w.name} hablaba de ${es.list(words.map(curly))}`,
    (w, words) => `justo cuando ${w.name} hablaba de ${es.list(words.map(curly))}`,
  ],
  yelled: [
    (w) => `mientras ${w.name} se venía arriba`,
    (w) => `cuando ${w.name} subió la voz`,
    (w) => `mientras ${w.name} reaccionaba a gritos`,
  ],
  shouted: [(w) => `${w.name} se vino arriba en directo`, (w, g) => `${w.name} subió la voz${g ? ` jugando a ${g}` : ""}`, (w) => `${w.name} reaccionó a gritos`],
  during: [
    (w, g) => `durante el directo de ${w.name}${g ? ` de ${g}` : ""}`,
    (w, g) => `en pleno directo de ${w.name}${g ? ` de ${g}` : ""}`,
    (w, g) => (g ? `mientras ${w.name} jugaba a ${g}` : `en el directo de ${w.name}`),
  ],
  said: [(w, q) => `mientras ${w.name} decía ${q}`, (w, q) => `cuando ${w.name} dijo ${q}`, (w, q) => `justo cuando ${w.name} dijo ${q}`],
  chatSaid: [(q) => `con el chat escribiendo ${q}`, (q) => `mientras el chat repetía ${q}`, (q) => `con el chat lleno de ${q}`],
  clippedFrom: (w, g) => `Clip del directo de ${w.name}${g ? ` de ${g}` : ""}.`,
  reelTitle: (w, p, g) =>
    p === "audience"
      ? `Los momentos favoritos del chat de ${w.name}${inGame(g, "en")}`
      : p === "streamer"
        ? `Las mejores reacciones de ${w.name}${inGame(g, "en")}`
        : `${w.name}: mejores momentos${inGame(g, "en")}`,
  reelIntro: (w, p, g, v, n) =>
    `${n} ${n === 1 ? "momento destacado" : "momentos destacados"} del directo de ${w.name}${g ? ` de ${g}` : ""}${v ? ` ${curly(v)}` : ""}, elegidos por ${
      p === "audience" ? "la reacción del chat" : p === "streamer" ? `las reacciones de ${w.name}` : "las reacciones del chat y del streamer"
    }.`,
  follow: (w) => `Sigue a ${w.name}:`,
  tags: { highlights: "mejores momentos", clips: "clips de twitch", shorts: "shorts", stream: "directo" },
};

const de: LanguagePack = {
  code: "de",
  // A subordinate clause takes a comma in German; such endings carry it (", als ...").
  story: (o, e) => (e.startsWith(",") ? `${o}${e}.` : `${o} ${e}.`),
  quote: german,
  list: (i) => joinList(i, "und"),
  chatExploded: [
    (t) => `Der Chat ist komplett eskaliert${t ? `, überall ${t}` : ""}`,
    (t) => `Der Chat ist explodiert${t ? `, voller ${t}` : ""}`,
    (t) => `Im Chat war die Hölle los${t ? `, mit ${t} ohne Ende` : ""}`,
  ],
  chatPickedUp: [
    (t) => `Der Chat wurde lebhaft${t ? `, mit ${t}` : ""}`,
    (t) => `Der Chat legte los${t ? ` mit ${t}` : ""}`,
    (t) => `Der Chat wurde wach${t ? ` und schrieb ${t}` : ""}`,
  ],
  gotLoud: [() => "Im Stream wurde es laut", () => "Es wurde richtig laut", () => "Der Stream wurde laut"],
  // The label alone: the endings that are subordinate clauses bring their comma.
  handPicked: (l) => (l ? l.trim().replace(/[\s.,;:]+$/u, "") : "Ein handverlesener Moment"),
  standout: [() => "Ein herausragender Moment", () => "Ein Moment für einen Clip", () => "Einer der stärksten Momente des Streams"],
  // Endings that are subordinate clauses begin with their comma (story() then adds no space).
  talkedAbout: [
    (w, words) => `, als ${w.name} über ${de.list(words.map(german))} sprach`,
    (w, words) => `, während ${w.name} über ${de.list(words.map(german))} redete`,
    (w, words) => `, gerade als ${w.name} über ${de.list(words.map(german))} sprach`,
  ],
  yelled: [
    (w) => `, als ${w.name} richtig aufdrehte`,
    (w) => `, als ${w.name} laut wurde`,
    (w) => `, während ${w.name} lautstark reagierte`,
  ],
  shouted: [(w) => `${w.name} hat richtig aufgedreht`, (w, g) => `${w.name} wurde laut${g ? ` bei ${g}` : ""}`, (w) => `${w.name} reagierte lautstark`],
  during: [
    (w, g) => `während des ${g ? `${g}-` : ""}Streams von ${w.name}`,
    (w, g) => `mitten im ${g ? `${g}-` : ""}Stream von ${w.name}`,
    (w, g) => (g ? `, während ${w.name} ${g} spielte` : `im Stream von ${w.name}`),
  ],
  said: [(w, q) => `, als ${w.name} ${q} sagte`, (w, q) => `, während ${w.name} ${q} sagte`, (w, q) => `, gerade als ${w.name} ${q} sagte`],
  chatSaid: [(q) => `, als der Chat ${q} schrieb`, (q) => `, während der Chat ${q} schrieb`, (q) => `, und der Chat schrieb ${q}`],
  clippedFrom: (w, g) => `Clip aus dem ${g ? `${g}-` : ""}Stream von ${w.name}.`,
  reelTitle: (w, p, g) =>
    p === "audience"
      ? `Die Lieblingsmomente des Chats von ${w.name}${inGame(g)}`
      : p === "streamer"
        ? `Die größten Reaktionen von ${w.name}${inGame(g)}`
        : `${w.name}: die besten Momente${inGame(g)}`,
  reelIntro: (w, p, g, v, n) =>
    `${n} ${n === 1 ? "Highlight" : "Highlights"} aus dem ${g ? `${g}-` : ""}Stream von ${w.name}${v ? ` ${german(v)}` : ""}, ausgewählt nach ${
      p === "audience"
        ? "den Reaktionen des Chats"
        : p === "streamer"
          ? `${w.gender === "m" ? "seinen" : w.gender === "f" ? "ihren" : `den`} größten Reaktionen${w.gender === "n" ? ` von ${w.name}` : ""}`
          : "den Reaktionen von Chat und Streamer"
    }.`,
  follow: (w) => `Folge ${w.name}:`,
  tags: { highlights: "highlights", clips: "twitch clips", shorts: "shorts", stream: "livestream" },
};

const fr: LanguagePack = {
  code: "fr",
  story: (o, e) => commaStory(o, e),
  quote: guillemets,
  list: (i) => joinList(i, "et"),
  chatExploded: [
    (t) => `Le chat a explosé${t ? `, spam de ${t}` : ""}`,
    (t) => `Le chat s'est déchaîné${t ? `, inondé de ${t}` : ""}`,
    (t) => `Le chat est devenu fou${t ? `, ${t} partout` : ""}`,
  ],
  chatPickedUp: [
    (t) => `Le chat s'est animé${t ? `, ${t} dans le chat` : ""}`,
    (t) => `Le chat s'est réveillé${t ? ` avec ${t}` : ""}`,
    (t) => `Le chat a commencé à réagir${t ? ` avec ${t}` : ""}`,
  ],
  gotLoud: [() => "Le stream est monté en volume", () => "Le ton est monté", () => "Ça s'est emballé sur le stream"],
  handPicked: (l) => (l ? labelOpening(l) : "Un moment choisi à la main"),
  standout: [() => "Un moment marquant", () => "Un moment qui mérite un clip", () => "L'un des moments forts du stream"],
  talkedAbout: [
    (w, words) => `pendant que ${w.name} parlait de ${fr.list(words.map(guillemets))}`,
    (w, words) => `quand ${w.name} parlait de ${fr.list(words.map(guillemets))}`,
    (w, words) => `au moment où ${w.name} parlait de ${fr.list(words.map(guillemets))}`,
  ],
  yelled: [
    (w) => `pendant que ${w.name} s'enflammait`,
    (w) => `quand ${w.name} a haussé le ton`,
    (w) => `pendant que ${w.name} réagissait à voix haute`,
  ],
  shouted: [(w) => `${w.name} a haussé le ton`, (w, g) => `${w.name} a réagi à voix haute${g ? ` sur ${g}` : ""}`, (w) => `Ça a crié sur le stream de ${w.name}`],
  during: [
    (w, g) => `pendant le stream ${g ? `${g} ` : ""}de ${w.name}`,
    (w, g) => `en plein stream ${g ? `${g} ` : ""}de ${w.name}`,
    (w, g) => (g ? `pendant que ${w.name} jouait à ${g}` : `sur le stream de ${w.name}`),
  ],
  said: [(w, q) => `pendant que ${w.name} disait ${q}`, (w, q) => `quand ${w.name} a dit ${q}`, (w, q) => `au moment où ${w.name} disait ${q}`],
  chatSaid: [(q) => `pendant que le chat écrivait ${q}`, (q) => `tandis que le chat répétait ${q}`, (q) => `avec le chat qui écrivait ${q}`],
  clippedFrom: (w, g) => `Clip du stream ${g ? `${g} ` : ""}de ${w.name}.`,
  reelTitle: (w, p, g) =>
    p === "audience"
      ? `Les moments préférés du chat de ${w.name}${inGame(g, "sur")}`
      : p === "streamer"
        ? `Les plus grosses réactions de ${w.name}${inGame(g, "sur")}`
        : `${w.name} : les meilleurs moments${inGame(g, "sur")}`,
  reelIntro: (w, p, g, v, n) =>
    `${n} ${n === 1 ? "temps fort" : "temps forts"} du stream ${g ? `${g} ` : ""}de ${w.name}${v ? ` ${guillemets(v)}` : ""}, choisis d'après ${
      p === "audience" ? "les réactions du chat" : p === "streamer" ? `les réactions de ${w.name}` : "les réactions du chat et du streamer"
    }.`,
  follow: (w) => `Suivez ${w.name} :`,
  tags: { highlights: "meilleurs moments", clips: "clips twitch", shorts: "shorts", stream: "live" },
};

const pt: LanguagePack = {
  code: "pt",
  story: (o, e) => commaStory(o, e),
  quote: curly,
  list: (i) => joinList(i, "e"),
  chatExploded: [
    (t) => `O chat explodiu${t ? `, com spam de ${t}` : ""}`,
    (t) => `O chat enlouqueceu${t ? `, cheio de ${t}` : ""}`,
    (t) => `O chat pirou${t ? `, com ${t} por toda parte` : ""}`,
  ],
  chatPickedUp: [
    (t) => `O chat se animou${t ? `, com ${t}` : ""}`,
    (t) => `O chat acordou${t ? `, escrevendo ${t}` : ""}`,
    (t) => `O chat começou a reagir${t ? ` com ${t}` : ""}`,
  ],
  gotLoud: [() => "A live ficou barulhenta", () => "O volume da live subiu", () => "A live pegou fogo"],
  handPicked: (l) => (l ? labelOpening(l) : "Um momento escolhido a dedo"),
  standout: [() => "Um momento de destaque", () => "Um momento digno de clipe", () => "Um dos momentos marcantes da live"],
  talkedAbout: [
    (w, words) => `enquanto ${w.name} falava sobre ${pt.list(words.map(curly))}`,
    (w, words) => `quando ${w.name} falava sobre ${pt.list(words.map(curly))}`,
    (w, words) => `bem quando ${w.name} falava sobre ${pt.list(words.map(curly))}`,
  ],
  yelled: [
    (w) => `enquanto ${w.name} se empolgava`,
    (w) => `quando ${w.name} levantou a voz`,
    (w) => `enquanto ${w.name} reagia aos gritos`,
  ],
  shouted: [(w) => `${w.name} se empolgou na live`, (w, g) => `${w.name} levantou a voz${g ? ` jogando ${g}` : ""}`, (w) => `${w.name} reagiu aos gritos`],
  during: [
    (w, g) => `durante a live de ${g ? `${g} ` : ""}de ${w.name}`,
    (w, g) => `em plena live de ${g ? `${g} ` : ""}de ${w.name}`,
    (w, g) => (g ? `enquanto ${w.name} jogava ${g}` : `na live de ${w.name}`),
  ],
  said: [(w, q) => `enquanto ${w.name} dizia ${q}`, (w, q) => `quando ${w.name} disse ${q}`, (w, q) => `bem quando ${w.name} disse ${q}`],
  chatSaid: [(q) => `com o chat escrevendo ${q}`, (q) => `enquanto o chat repetia ${q}`, (q) => `com o chat cheio de ${q}`],
  clippedFrom: (w, g) => `Clipe da live ${g ? `de ${g} ` : ""}de ${w.name}.`,
  reelTitle: (w, p, g) =>
    p === "audience"
      ? `Os momentos favoritos do chat de ${w.name}${inGame(g, "em")}`
      : p === "streamer"
        ? `As maiores reações de ${w.name}${inGame(g, "em")}`
        : `${w.name}: melhores momentos${inGame(g, "em")}`,
  reelIntro: (w, p, g, v, n) =>
    `${n} ${n === 1 ? "destaque" : "destaques"} da live de ${g ? `${g} ` : ""}de ${w.name}${v ? ` ${curly(v)}` : ""}, escolhidos pelas ${
      p === "audience" ? "reações do chat" : p === "streamer" ? `reações de ${w.name}` : "reações do chat e do streamer"
    }.`,
  follow: (w) => `Siga ${w.gender === "m" ? "o" : w.gender === "f" ? "a" : ""} ${w.name}:`.replace("Siga  ", "Siga "),
  tags: { highlights: "melhores momentos", clips: "clipes da twitch", shorts: "shorts", stream: "live" },
};

export const LANGUAGE_PACKS: Record<string, LanguagePack> = { en, es, de, fr, pt };
