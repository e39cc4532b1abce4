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
  // Story openings (what the audience did).
  chatExploded(ratio: string, emote: string | null): string;
  chatPickedUp(ratio: string, emote: string | null): string;
  gotLoud(db: string): string;
  handPicked(label: string | null): string;
  standout(): string;
  /** Joins opening and ending into the one-line story. */
  story(opening: string, ending: string): string;
  // Story endings (what the streamer did).
  talkedAbout(who: Who, words: string[]): string;
  yelled(who: Who): string;
  during(who: Who, game: string | null): string;
  /** Story ending: a phrase the streamer said (already quoted). */
  said(who: Who, quote: string): string;
  /** Story ending: what chat typed (already quoted). */
  chatSaid(quote: string): string;
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
  chatExploded: (r, e) => `Chat exploded (${r}x baseline${e ? `, ${e} spam` : ""})`,
  chatPickedUp: (r, e) => `Chat picked up (${r}x baseline${e ? `, ${e} in chat` : ""})`,
  gotLoud: (db) => `The stream got loud (+${db} dB)`,
  handPicked: (l) => (l ? `Hand-picked: ${curly(l)}` : "A hand-picked moment"),
  standout: () => "A standout moment",
  talkedAbout: (w, words) => `as ${w.name} talked about ${en.list(words.map(curly))}`,
  yelled: (w) => `as ${w.name} let loose on stream`,
  during: (w, g) => `during ${w.name}'s ${g ? `${g} ` : ""}stream`,
  said: (w, q) => `as ${w.name} said ${q}`,
  chatSaid: (q) => `with chat typing ${q}`,
  reelTitle: (w, p, g) =>
    p === "audience"
      ? `Chat's favourite ${w.name} moments${inGame(g)}`
      : p === "streamer"
        ? `${w.name}'s biggest reactions${inGame(g)}`
        : `${w.name}: best moments${inGame(g)}`,
  reelIntro: (w, p, g, v, n) =>
    `${n} highlight${n === 1 ? "" : "s"} from ${w.name}'s ${g ? `${g} ` : ""}stream${v ? ` ${curly(v)}` : ""}, picked by ${
      p === "audience" ? `how ${possessive(w)} chat reacted` : p === "streamer" ? `${possessive(w)} own biggest reactions` : `${possessive(w)} reactions and chat's`
    }.`,
  follow: (w) => `Follow ${object(w)}:`,
  tags: { highlights: "highlights", clips: "twitch clips", shorts: "shorts", stream: "livestream" },
};

const es: LanguagePack = {
  code: "es",
  story: (o, e) => `${o} ${e}.`,
  quote: curly,
  list: (i) => joinList(i, "y"),
  chatExploded: (r, e) => `El chat explotó (${r}x lo normal${e ? `, spam de ${e}` : ""})`,
  chatPickedUp: (r, e) => `El chat se animó (${r}x lo normal${e ? `, ${e} en el chat` : ""})`,
  gotLoud: (db) => `El directo subió de volumen (+${db} dB)`,
  handPicked: (l) => (l ? `Elegido a mano: ${curly(l)}` : "Un momento elegido a mano"),
  standout: () => "Un momento destacado",
  talkedAbout: (w, words) => `mientras ${w.name} hablaba de ${es.list(words.map(curly))}`,
  yelled: (w) => `mientras ${w.name} se venía arriba`,
  during: (w, g) => `durante el directo de ${w.name}${g ? ` de ${g}` : ""}`,
  said: (w, q) => `mientras ${w.name} decía ${q}`,
  chatSaid: (q) => `con el chat escribiendo ${q}`,
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
  // A subordinate clause ("als ...") takes a comma in German.
  story: (o, e) => `${o}${e.startsWith("als ") ? "," : ""} ${e}.`,
  quote: german,
  list: (i) => joinList(i, "und"),
  chatExploded: (r, e) => `Der Chat ist explodiert (${r}x so viel wie sonst${e ? `, ${e}-Spam` : ""})`,
  chatPickedUp: (r, e) => `Der Chat wurde lebhaft (${r}x so viel wie sonst${e ? `, ${e} im Chat` : ""})`,
  gotLoud: (db) => `Im Stream wurde es laut (+${db} dB)`,
  handPicked: (l) => (l ? `Handverlesen: ${german(l)}` : "Ein handverlesener Moment"),
  standout: () => "Ein herausragender Moment",
  talkedAbout: (w, words) => `als ${w.name} über ${de.list(words.map(german))} sprach`,
  yelled: (w) => `als ${w.name} richtig aufdrehte`,
  during: (w, g) => `während des ${g ? `${g}-` : ""}Streams von ${w.name}`,
  said: (w, q) => `als ${w.name} ${q} sagte`,
  chatSaid: (q) => `als der Chat ${q} schrieb`,
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
  chatExploded: (r, e) => `Le chat a explosé (${r}x la normale${e ? `, spam de ${e}` : ""})`,
  chatPickedUp: (r, e) => `Le chat s'est animé (${r}x la normale${e ? `, ${e} dans le chat` : ""})`,
  gotLoud: (db) => `Le stream est monté en volume (+${db} dB)`,
  handPicked: (l) => (l ? `Choisi à la main : ${guillemets(l)}` : "Un moment choisi à la main"),
  standout: () => "Un moment marquant",
  talkedAbout: (w, words) => `pendant que ${w.name} parlait de ${fr.list(words.map(guillemets))}`,
  yelled: (w) => `pendant que ${w.name} s'enflammait`,
  during: (w, g) => `pendant le stream ${g ? `${g} ` : ""}de ${w.name}`,
  said: (w, q) => `pendant que ${w.name} disait ${q}`,
  chatSaid: (q) => `pendant que le chat écrivait ${q}`,
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
  chatExploded: (r, e) => `O chat explodiu (${r}x o normal${e ? `, spam de ${e}` : ""})`,
  chatPickedUp: (r, e) => `O chat se animou (${r}x o normal${e ? `, ${e} no chat` : ""})`,
  gotLoud: (db) => `A live ficou barulhenta (+${db} dB)`,
  handPicked: (l) => (l ? `Escolhido a dedo: ${curly(l)}` : "Um momento escolhido a dedo"),
  standout: () => "Um momento de destaque",
  talkedAbout: (w, words) => `enquanto ${w.name} falava sobre ${pt.list(words.map(curly))}`,
  yelled: (w) => `enquanto ${w.name} se empolgava`,
  during: (w, g) => `durante a live de ${g ? `${g} ` : ""}de ${w.name}`,
  said: (w, q) => `enquanto ${w.name} dizia ${q}`,
  chatSaid: (q) => `com o chat escrevendo ${q}`,
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
