/**
 * What a single chat line is, as far as a title is concerned: a crowd's reaction can be quoted; a bot command,
 * a link or promotion, a greeting, a question, a copypasta chain or small talk about the stream never can,
 * however many accounts typed it (a follow-bot network pastes "buy cheap followers now" from a dozen accounts,
 * and twenty newcomers each type "hi"). Lines are judged in a matching form that undoes what spammers and fast
 * typists do to text: case, accents, invisible characters, stretched letters ("hiiii"), digits for letters
 * ("f0ll0w"), punctuation and spacing.
 */

export type ChatLineProblem = "command" | "mention" | "link" | "promotion" | "greeting" | "question" | "chain" | "small-talk";

/** Characters that show nothing but make two copies of a line differ (zero-width, joiners, tags, variation selectors). */
const INVISIBLE = /[\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u180E\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0000}-\u{E007F}]/gu;

/** Digits and symbols typed for letters inside a word ("fr33", "f0ll0w", "$ub"). */
const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", $: "s" };

/** The line without invisible characters, NFKC-folded (full-width and styled letters become plain ones). */
export function visibleText(text: string): string {
  return text.normalize("NFKC").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
}

/**
 * The forms lines are matched in: lower case, no accents ("ß" as "ss"), letters stretched to three or more
 * collapsed to one ("noooo" -> "no", "hiii" -> "hi"; "good" stays), anything but letters and digits a space;
 * once as typed and once with leetspeak undone inside words that also hold letters ("f0ll0w3rs" -> "followers",
 * while "sub4sub" and "1st" keep their digits in the first form). Patterns are written in plain spelling.
 */
export function matchForms(text: string): string[] {
  const lower = visibleText(text).toLowerCase().normalize("NFD").replace(/\p{M}+/gu, "").replace(/ß/g, "ss");
  const clean = (t: string) =>
    t
      .replace(/(\p{L})\1{2,}/gu, "$1")
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  const plain = clean(lower);
  const unleet = clean(lower.split(/\s+/).map((w) => (/\p{L}/u.test(w) && /[0-9@$]/.test(w) ? w.replace(/[0-9@$]/g, (c) => LEET[c] ?? c) : w)).join(" "));
  return unleet === plain ? [plain] : [plain, unleet];
}

/** A line's first matching form: the key near-copies of one line share ("NO WAYYY!!" and "no way"). */
export function matchForm(text: string): string {
  return matchForms(text)[0]!;
}

/**
 * A phrase pattern: words in matching form, "*" for up to two words of any kind between ("buy * followers"
 * holds "buy cheap followers" and "buy real active followers"), "|" between alternatives of one word. The
 * pattern matches whole words anywhere in the line.
 */
function phrase(pattern: string): RegExp {
  const parts = pattern.split(" ").map((p) => (p === "*" ? "(?:\\S+ ){0,2}" : `(?:${p}) `));
  return new RegExp(`(?:^| )${parts.join("")}`);
}
/** Patterns of one class as one regular expression: a line is scanned once per class, not once per pattern. */
const oneOf = (sources: readonly string[]) => [new RegExp(sources.join("|"))];
const phrases = (list: string) => oneOf(list.split(",").map((p) => phrase(p.trim()).source));
/** A pattern only at the start of the line ("hi" opens a greeting; "hi" inside a sentence does not). */
const opening = (list: string) => oneOf(list.split(",").map((p) => `^${phrase(p.trim()).source.slice("(?:^| )".length)}`));

/** Selling or self-promotion, in the five languages the writer supports (and the English spam bots use everywhere). */
const PROMOTION = phrases(`
  buy|cheap|free|get|real * followers|follower|viewers|viewer|views|subs|likes|primes,
  followers|viewers * for|at * cheap|free|price|prices,
  check|checkout|visit|see|watch * my|our * channel|stream|streams|profile|page|content|videos|video|youtube|tiktok|twitch|insta|instagram|bio,
  check me out, follow me, follow back, follow my, follow for follow, follow4follow, f4f, s4s, sub4sub, sub for sub,
  sub|subscribe to me|my, my|our * channel|stream|discord|youtube|tiktok|insta|instagram|twitter|onlyfans|server|shop|store,
  join * discord|server, discord gg, discord invite, dm me, promo, promote|promotion * your|ur|stream|channel,
  grow|boost * your|ur * stream|channel|viewers|audience, become famous, come|go to my, streamboo, dogehype,
  sigueme, seguidme, mi canal, seguidores gratis|baratos, comprar|compra * seguidores|viewers|espectadores,
  folgt mir, mein kanal, meinem kanal, follower kaufen, abonniert mich,
  suivez moi, abonnez vous, ma chaine, acheter * followers|abonnes|viewers,
  me segue|siga, segue de volta, meu canal, comprar * seguidores|viewers, se inscreve`);

/** Links: a scheme, "www.", or a name with a common top-level domain ("discord.gg/x", "bit.ly/y", "cheapviewers.com"). */
const LINK = /https?:\/\/|www\.|\b[\p{L}\p{N}-]+\s?(?:\.|\(dot\)|\[dot\]| dot )\s?(?:com|net|org|gg|tv|ly|io|xyz|ru|me|co|shop|store|live|site|online|top|link|app)\b/iu;

/** How chat says hello or goodbye, when the line opens with it. */
const GREETING = opening(`
  hi, hii, hello, helo, hey, heya, hiya, howdy, yo chat|guys|all|everyone|everybody, sup, wassup, whats up, greetings,
  good morning|afternoon|evening|night, gm, gn, morning, afternoon, evening,
  first time here|chatting|watching|in, first timer, 1st time here, welcome, just got here, just arrived, im new|here, new here, bye, goodbye, goodnight, cya, see you|ya,
  hola, buenas, buenos dias, saludos, que tal, primera vez, adios, chao, hasta luego|manana,
  hallo, servus, moin, moinsen, guten morgen|tag|abend, gruss|grus|gruezi, erstes mal, tschuss, tschus, ciao,
  salut, bonjour, bonsoir, coucou, wesh, premiere fois, bonne nuit|soiree, au revoir,
  ola, oi, oie, eae, eai, e ai, bom dia, boa tarde|noite, salve, primeira vez, tchau`);

/** Where a viewer says where they watch from ("hi from brazil" opens as one; "watching from germany" does not). */
const GREETING_FROM = phrases(`watching|lurking|greetings|love|hello|hi|here * from`);

/**
 * Openings that make a line a question without its "?": interrogatives, and a verb or auxiliary before its
 * subject ("is this the new update", "can you show the build"). Exclamations that open alike are left alone
 * ("what a shot", "what the hell", "wie geil", "que locura"): only openings that are questions in every use.
 */
const QUESTION = opening(`
  why, where, when, who, whose, which, whats, what is|are|was|were|do|does|did|game|rank|time|song|level|happened|kind|type|settings|sens|mouse|keyboard|headset|build|class|weapon|map|mod|mods|server|version|language|day|year|elo|team|car|char|character,
  how long|many|much|old|often|far|do|does|did|is|are|was|can|come|to|you|u,
  is|are|was|were|can|could|will|would|should|have|has|had this|that|it|he|she|they|you|u|we|i|there|the|anyone|anybody|ur|your,
  do|does|did you|u|they|he|she|we|i|the|this|that|anyone|anybody|ur|your,
  does anyone, anyone know, any tips,
  donde, cuando, cuanto|cuantos|cuantas, cual|cuales, quien|quienes, por que, porque,
  que juego|hora|rango|nivel|es|pasa|paso|haces|tal, como se|te|estas|va|lo|le|hiciste|hizo,
  warum, wieso, weshalb, wo, wann, wer, welche|welcher|welches, wie lange|alt|viel|viele|heisst|heist|geht|spat|machst|hast,
  was ist|spielst|machst|war|fur ein spiel, bist|hast|kannst|spielst|machst|gibt du|ihr|es,
  pourquoi, ou est|sont|on|tu, quand, combien, qui est|a, quel|quelle|quels jeu|rang|est|niveau, c est quoi, est ce,
  comment tu|vous|on|il|ca|faire, tu joues|fais|peux|es, vous jouez|faites|pouvez,
  onde, quando, quanto|quantos|quantas, qual|quais, quem, o que e|foi|aconteceu, que jogo|horas|rank,
  como faz|voce|vc|se|foi, voce|vc|tu joga|tem|e|pode|ta`);

/**
 * Chain messages to chat ("type 1 if you are here", "spam this", "copy paste") and raid messages (the raiding
 * streamer hands their viewers a line to paste): pasted lines by design.
 */
const CHAIN = opening(`type, spam, copy, paste, press * if, everyone type, chat type, raise your`).concat(phrases(`copy paste, copypasta, if you are here|reading, raid|raiders|raiding`));

/**
 * Conversation about the stream rather than a reaction to its moment. Words that are both ("cute", "true") are
 * left to the crowd rules: typed all stream long they are not over-represented in a moment (chat-crowd.ts).
 */
const SMALL_TALK = opening(`
  love|loving * stream|streams|channel|content|you|u, nice|good|great|best * stream|streamer|music|song|vibes, good luck, gl, glhf, gl hf,
  have fun, lurk, lurking, brb, afk, im back, back, thanks|thank|ty * stream|raid|follow|sub|host, happy birthday,
  buena suerte, suerte, gran stream, viel gluck, viel spass, schoner stream, bonne chance, bon stream, boa sorte, boa live`);

const anyMatch = (patterns: readonly RegExp[], forms: readonly string[]) => forms.some((f) => patterns.some((p) => p.test(`${f} `)));

/** Words in the line, once invisible characters and punctuation are out. */
const wordCount = (form: string) => (form ? form.split(" ").length : 0);

/** A "?" in the line's closing punctuation, not part of an exclamation ("WHAT?!" is a reaction). */
function endsAsQuestion(text: string): boolean {
  const tail = /[\s\p{P}\p{S}]*$/u.exec(visibleText(text))?.[0] ?? "";
  return tail.includes("?") && !tail.includes("!");
}

/**
 * Why a chat line must never be quoted, or null when it may be (if enough distinct voices typed it: see
 * chat-crowd.ts). A line of a single word is never taken for a question ("WHAT?", "HOW??" are reactions).
 */
export function chatLineProblem(text: string): ChatLineProblem | null {
  const visible = visibleText(text);
  if (/^[!\/]\w/.test(visible)) return "command";
  if (LINK.test(visible)) return "link";
  const forms = matchForms(visible);
  if (anyMatch(PROMOTION, forms)) return "promotion";
  if (/(?:^|\s)@\w/.test(visible)) return "mention";
  if (anyMatch(GREETING, forms) || anyMatch(GREETING_FROM, forms)) return "greeting";
  const question = visible.startsWith("\u00BF") || endsAsQuestion(visible) || anyMatch(QUESTION, forms);
  if (wordCount(forms[0]!) >= 2 && question) return "question";
  if (anyMatch(CHAIN, forms)) return "chain";
  if (anyMatch(SMALL_TALK, forms)) return "small-talk";
  return null;
}

/** Whether any part of a text (a title an LLM wrote) advertises: a link or promotion, wherever it stands. */
export function advertises(text: string): boolean {
  return LINK.test(visibleText(text)) || anyMatch(PROMOTION, matchForms(text));
}
