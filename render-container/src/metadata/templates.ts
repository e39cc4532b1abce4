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
  /** `typed`: what chat typed, already listed (an emote, a quoted phrase), or null. */
  chatExploded: readonly ((ratio: string, typed: string | null) => string)[];
  chatPickedUp: readonly ((ratio: string, typed: string | null) => string)[];
  gotLoud: readonly ((db: string) => string)[];
  handPicked(label: string | null): string;
  standout: readonly (() => string)[];
  /** Joins opening and ending into the one-line story. */
  story(opening: string, ending: string): string;
  // Story endings (what the streamer did).
  talkedAbout: readonly ((who: Who, words: string[]) => string)[];
  /** `db`: how loud, when the opening did not say it already. */
  yelled: readonly ((who: Who, db: string | null) => string)[];
  during: readonly ((who: Who, game: string | null) => string)[];
  /** Story ending: a phrase the streamer said (already quoted). */
  said: readonly ((who: Who, quote: string) => string)[];
  /** Story ending: what chat typed (already quoted). */
  chatSaid: readonly ((quote: string) => string)[];
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

const possessive = (who: Who) => (who.pronouns ? who.pronouns.possessive : `${who.name}'s`);
const object = (who: Who) => (who.pronouns ? who.pronouns.object : who.name);
const inGame = (game: string | null, word = "in") => (game ? ` ${word} ${game}` : "");

const en: LanguagePack = {
  code: "en",
  story: (o, e) => `${o} ${e}.`,
  quote: curly,
  list: (i) => joinList(i, "and"),
  chatExploded: [
    (r, t) => `Chat exploded (${r}x baseline${t ? `, ${t} spam` : ""})`,
    (r, t) => `Chat ran ${r}x faster than usual${t ? `, flooded with ${t}` : ""}`,
    (r, t) => `Chat hit ${r}x its usual pace${t ? ` with ${t} everywhere` : ""}`,
  ],
  chatPickedUp: [
    (r, t) => `Chat picked up (${r}x baseline${t ? `, ${t} in chat` : ""})`,
    (r, t) => `Chat sped up to ${r}x its usual pace${t ? `, typing ${t}` : ""}`,
    (r, t) => `Chat woke up at ${r}x its usual rate${t ? ` with ${t}` : ""}`,
  ],
  gotLoud: [
    (db) => `The stream got loud (+${db} dB)`,
    (db) => `The volume jumped ${db} dB over the stream's usual level`,
    (db) => `The audio spiked ${db} dB above the stream's baseline`,
  ],
  handPicked: (l) => (l ? `Hand-picked: ${curly(l)}` : "A hand-picked moment"),
  standout: [() => "A standout moment", () => "A moment worth a clip", () => "One of the stream's standout moments"],
  talkedAbout: [
    (w, words) => `as ${w.name} talked about ${en.list(words.map(curly))}`,
    (w, words) => `while ${w.name} was talking about ${en.list(words.map(curly))}`,
    (w, words) => `just as ${w.name} brought up ${en.list(words.map(curly))}`,
  ],
  yelled: [
    (w) => `as ${w.name} let loose on stream`,
    (w, db) => `as ${w.name} got loud${db ? ` (+${db} dB)` : ""}`,
    (w) => `as ${w.name} reacted out loud`,
  ],
  during: [
    (w, g) => `during ${w.name}'s ${g ? `${g} ` : ""}stream`,
    (w, g) => `in the middle of ${w.name}'s ${g ? `${g} ` : ""}stream`,
    (w, g) => (g ? `while ${w.name} played ${g}` : `live on ${w.name}'s stream`),
  ],
  said: [(w, q) => `as ${w.name} said ${q}`, (w, q) => `when ${w.name} said ${q}`, (w, q) => `just as ${w.name} said ${q}`],
  chatSaid: [(q) => `with chat typing ${q}`, (q) => `as chat kept typing ${q}`, (q) => `while chat filled up with ${q}`],
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
  story: (o, e) => `${o} ${e}.`,
  quote: curly,
  list: (i) => joinList(i, "y"),
  chatExploded: [
    (r, t) => `El chat explotó (${r}x lo normal${t ? `, spam de ${t}` : ""})`,
    (r, t) => `El chat iba ${r}x más rápido de lo normal${t ? `, lleno de ${t}` : ""}`,
    (r, t) => `El chat se disparó a ${r}x su ritmo habitual${t ? ` con ${t} por todas partes` : ""}`,
  ],
  chatPickedUp: [
    (r, t) => `El chat se animó (${r}x lo normal${t ? `, ${t} en el chat` : ""})`,
    (r, t) => `El chat aceleró a ${r}x su ritmo habitual${t ? `, escribiendo ${t}` : ""}`,
    (r, t) => `El chat despertó (${r}x lo normal${t ? `, con ${t}` : ""})`,
  ],
  gotLoud: [
    (db) => `El directo subió de volumen (+${db} dB)`,
    (db) => `El volumen saltó ${db} dB por encima de lo habitual`,
    (db) => `El audio se disparó (+${db} dB sobre lo normal)`,
  ],
  handPicked: (l) => (l ? `Elegido a mano: ${curly(l)}` : "Un momento elegido a mano"),
  standout: [() => "Un momento destacado", () => "Un momento digno de clip", () => "Uno de los momentos destacados del directo"],
  talkedAbout: [
    (w, words) => `mientras ${w.name} hablaba de ${es.list(words.map(curly))}`,
    (w, words) => `cuando ${w.name} hablaba de ${es.list(words.map(curly))}`,
    (w, words) => `justo cuando ${w.name} hablaba de ${es.list(words.map(curly))}`,
  ],
  yelled: [
    (w) => `mientras ${w.name} se venía arriba`,
    (w, db) => `cuando ${w.name} subió la voz${db ? ` (+${db} dB)` : ""}`,
    (w) => `mientras ${w.name} reaccionaba a gritos`,
  ],
  during: [
    (w, g) => `durante el directo de ${w.name}${g ? ` de ${g}` : ""}`,
    (w, g) => `en pleno directo de ${w.name}${g ? ` de ${g}` : ""}`,
    (w, g) => (g ? `mientras ${w.name} jugaba a ${g}` : `en el directo de ${w.name}`),
  ],
  said: [(w, q) => `mientras ${w.name} decía ${q}`, (w, q) => `cuando ${w.name} dijo ${q}`, (w, q) => `justo cuando ${w.name} dijo ${q}`],
  chatSaid: [(q) => `con el chat escribiendo ${q}`, (q) => `mientras el chat repetía ${q}`, (q) => `con el chat lleno de ${q}`],
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
    (r, t) => `Der Chat ist explodiert (${r}x so viel wie sonst${t ? `, überall ${t}` : ""})`,
    (r, t) => `Der Chat lief ${r}x schneller als sonst${t ? `, voller ${t}` : ""}`,
    (r, t) => `Im Chat war ${r}x so viel los wie sonst${t ? `, mit ${t} ohne Ende` : ""}`,
  ],
  chatPickedUp: [
    (r, t) => `Der Chat wurde lebhaft (${r}x so viel wie sonst${t ? `, ${t} im Chat` : ""})`,
    (r, t) => `Der Chat zog auf ${r}x sein übliches Tempo an${t ? `, mit ${t}` : ""}`,
    (r, t) => `Der Chat wurde wach (${r}x so viel wie sonst${t ? `, mit ${t}` : ""})`,
  ],
  gotLoud: [
    (db) => `Im Stream wurde es laut (+${db} dB)`,
    (db) => `Die Lautstärke sprang ${db} dB über das übliche Niveau`,
    (db) => `Der Ton schoss hoch (+${db} dB über normal)`,
  ],
  handPicked: (l) => (l ? `Handverlesen: ${german(l)}` : "Ein handverlesener Moment"),
  standout: [() => "Ein herausragender Moment", () => "Ein Moment für einen Clip", () => "Einer der stärksten Momente des Streams"],
  // Endings that are subordinate clauses begin with their comma (story() then adds no space).
  talkedAbout: [
    (w, words) => `, als ${w.name} über ${de.list(words.map(german))} sprach`,
    (w, words) => `, während ${w.name} über ${de.list(words.map(german))} redete`,
    (w, words) => `, gerade als ${w.name} über ${de.list(words.map(german))} sprach`,
  ],
  yelled: [
    (w) => `, als ${w.name} richtig aufdrehte`,
    (w, db) => `, als ${w.name} laut wurde${db ? ` (+${db} dB)` : ""}`,
    (w) => `, während ${w.name} lautstark reagierte`,
  ],
  during: [
    (w, g) => `während des ${g ? `${g}-` : ""}Streams von ${w.name}`,
    (w, g) => `mitten im ${g ? `${g}-` : ""}Stream von ${w.name}`,
    (w, g) => (g ? `, während ${w.name} ${g} spielte` : `im Stream von ${w.name}`),
  ],
  said: [(w, q) => `, als ${w.name} ${q} sagte`, (w, q) => `, während ${w.name} ${q} sagte`, (w, q) => `, gerade als ${w.name} ${q} sagte`],
  chatSaid: [(q) => `, als der Chat ${q} schrieb`, (q) => `, während der Chat ${q} schrieb`, (q) => `, und der Chat schrieb ${q}`],
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
  story: (o, e) => `${o} ${e}.`,
  quote: guillemets,
  list: (i) => joinList(i, "et"),
  chatExploded: [
    (r, t) => `Le chat a explosé (${r}x la normale${t ? `, spam de ${t}` : ""})`,
    (r, t) => `Le chat allait ${r}x plus vite que d'habitude${t ? `, inondé de ${t}` : ""}`,
    (r, t) => `Le chat a grimpé à ${r}x son rythme habituel${t ? `, ${t} partout` : ""}`,
  ],
  chatPickedUp: [
    (r, t) => `Le chat s'est animé (${r}x la normale${t ? `, ${t} dans le chat` : ""})`,
    (r, t) => `Le chat a accéléré à ${r}x son rythme habituel${t ? `, avec ${t}` : ""}`,
    (r, t) => `Le chat s'est réveillé (${r}x la normale${t ? `, avec ${t}` : ""})`,
  ],
  gotLoud: [
    (db) => `Le stream est monté en volume (+${db} dB)`,
    (db) => `Le volume a bondi de ${db} dB au-dessus du niveau habituel`,
    (db) => `Le son s'est envolé (+${db} dB par rapport à la normale)`,
  ],
  handPicked: (l) => (l ? `Choisi à la main : ${guillemets(l)}` : "Un moment choisi à la main"),
  standout: [() => "Un moment marquant", () => "Un moment qui mérite un clip", () => "L'un des moments forts du stream"],
  talkedAbout: [
    (w, words) => `pendant que ${w.name} parlait de ${fr.list(words.map(guillemets))}`,
    (w, words) => `quand ${w.name} parlait de ${fr.list(words.map(guillemets))}`,
    (w, words) => `au moment où ${w.name} parlait de ${fr.list(words.map(guillemets))}`,
  ],
  yelled: [
    (w) => `pendant que ${w.name} s'enflammait`,
    (w, db) => `quand ${w.name} a haussé le ton${db ? ` (+${db} dB)` : ""}`,
    (w) => `pendant que ${w.name} réagissait à voix haute`,
  ],
  during: [
    (w, g) => `pendant le stream ${g ? `${g} ` : ""}de ${w.name}`,
    (w, g) => `en plein stream ${g ? `${g} ` : ""}de ${w.name}`,
    (w, g) => (g ? `pendant que ${w.name} jouait à ${g}` : `sur le stream de ${w.name}`),
  ],
  said: [(w, q) => `pendant que ${w.name} disait ${q}`, (w, q) => `quand ${w.name} a dit ${q}`, (w, q) => `au moment où ${w.name} disait ${q}`],
  chatSaid: [(q) => `pendant que le chat écrivait ${q}`, (q) => `tandis que le chat répétait ${q}`, (q) => `avec le chat qui écrivait ${q}`],
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
  story: (o, e) => `${o} ${e}.`,
  quote: curly,
  list: (i) => joinList(i, "e"),
  chatExploded: [
    (r, t) => `O chat explodiu (${r}x o normal${t ? `, spam de ${t}` : ""})`,
    (r, t) => `O chat ficou ${r}x mais rápido que o normal${t ? `, cheio de ${t}` : ""}`,
    (r, t) => `O chat disparou para ${r}x o ritmo habitual${t ? `, com ${t} por toda parte` : ""}`,
  ],
  chatPickedUp: [
    (r, t) => `O chat se animou (${r}x o normal${t ? `, ${t} no chat` : ""})`,
    (r, t) => `O chat acelerou para ${r}x o ritmo habitual${t ? `, escrevendo ${t}` : ""}`,
    (r, t) => `O chat acordou (${r}x o normal${t ? `, com ${t}` : ""})`,
  ],
  gotLoud: [
    (db) => `A live ficou barulhenta (+${db} dB)`,
    (db) => `O volume saltou ${db} dB acima do normal`,
    (db) => `O áudio disparou (+${db} dB acima do habitual)`,
  ],
  handPicked: (l) => (l ? `Escolhido a dedo: ${curly(l)}` : "Um momento escolhido a dedo"),
  standout: [() => "Um momento de destaque", () => "Um momento digno de clipe", () => "Um dos momentos marcantes da live"],
  talkedAbout: [
    (w, words) => `enquanto ${w.name} falava sobre ${pt.list(words.map(curly))}`,
    (w, words) => `quando ${w.name} falava sobre ${pt.list(words.map(curly))}`,
    (w, words) => `bem quando ${w.name} falava sobre ${pt.list(words.map(curly))}`,
  ],
  yelled: [
    (w) => `enquanto ${w.name} se empolgava`,
    (w, db) => `quando ${w.name} levantou a voz${db ? ` (+${db} dB)` : ""}`,
    (w) => `enquanto ${w.name} reagia aos gritos`,
  ],
  during: [
    (w, g) => `durante a live de ${g ? `${g} ` : ""}de ${w.name}`,
    (w, g) => `em plena live de ${g ? `${g} ` : ""}de ${w.name}`,
    (w, g) => (g ? `enquanto ${w.name} jogava ${g}` : `na live de ${w.name}`),
  ],
  said: [(w, q) => `enquanto ${w.name} dizia ${q}`, (w, q) => `quando ${w.name} disse ${q}`, (w, q) => `bem quando ${w.name} disse ${q}`],
  chatSaid: [(q) => `com o chat escrevendo ${q}`, (q) => `enquanto o chat repetia ${q}`, (q) => `com o chat cheio de ${q}`],
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
