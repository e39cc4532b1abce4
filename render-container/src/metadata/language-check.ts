import { tokenize } from "./keywords";
import { languageName } from "./language-names";
import { STOP_WORDS } from "./stopwords";

/** Languages written in a script other than Latin: text in them is mostly letters of that script. */
const SCRIPTS: Record<string, RegExp> = {
  ru: /\p{Script=Cyrillic}/u,
  uk: /\p{Script=Cyrillic}/u,
  bg: /\p{Script=Cyrillic}/u,
  sr: /\p{Script=Cyrillic}/u,
  el: /\p{Script=Greek}/u,
  ja: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u,
  zh: /\p{Script=Han}/u,
  ko: /\p{Script=Hangul}/u,
  ar: /\p{Script=Arabic}/u,
  fa: /\p{Script=Arabic}/u,
  he: /\p{Script=Hebrew}/u,
  hi: /\p{Script=Devanagari}/u,
  th: /\p{Script=Thai}/u,
};
const LATIN = /\p{Script=Latin}/u;

/** Fewer letters than this (once quotes and names are out) say nothing about a text's language. */
const MIN_LETTERS = 8;
/** Function words of another language that, with none or few of the expected one's, mark a text as that language. */
const MIN_FOREIGN_HITS = 3;

/** Quoted speech or chat (any quote style) and links: they stay in whatever language was said or typed. */
function ownWords(text: string, names: readonly (string | null | undefined)[]): string {
  let t = text
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/#\S+/g, " ")
    .replace(/\u201C[^\u201D]*\u201D|\u201E[^\u201C\u201D]*[\u201C\u201D]|\u00AB[^\u00BB]*\u00BB|"[^"]*"|\u2018[^\u2019]*\u2019/g, " ");
  for (const n of names) if (n && n.trim()) t = t.split(n.trim()).join(" ");
  return t;
}

export interface LanguageVerdict {
  plausible: boolean;
  /** What it looks like instead ("English", "another script"), when not plausible. */
  looksLike?: string;
}

/**
 * Whether a text written for `language` plausibly is in it: its letters in the language's script, and, between
 * the languages whose function words we know (en, es, de, fr, pt), not clearly in another one. Quotes, links,
 * hashtags and the given names (streamer, game) are left out of the judgement; a text with too little of its own
 * is given the benefit of the doubt.
 */
export function judgeLanguage(text: string, language: string, names: readonly (string | null | undefined)[] = []): LanguageVerdict {
  const own = ownWords(text, names);
  const letters = [...own].filter((ch) => /\p{L}/u.test(ch));
  if (letters.length < MIN_LETTERS) return { plausible: true };
  const script = SCRIPTS[language] ?? LATIN;
  const inScript = letters.filter((ch) => script.test(ch)).length / letters.length;
  if (inScript < 0.5) return { plausible: false, looksLike: "another script" };
  if (script !== LATIN) return { plausible: true };

  const tokens = tokenize(own);
  const target = STOP_WORDS[language];
  // Without a list of its own, a Latin-script language is only told apart from English (the usual slip: a model
  // answering in English); its words overlap too much with the Romance lists.
  const others = Object.entries(STOP_WORDS).filter(([code]) => code !== language && (target || code === "en"));
  // Close languages share many function words (es/fr "le", "de", "que"): only the words one has and the other
  // lacks count, both ways.
  const only = (list: Set<string>, not: Set<string> | undefined) => tokens.filter((t) => list.has(t) && !(not?.has(t) ?? false)).length;
  for (const [code, list] of others) {
    const foreign = only(list, target);
    const expected = target ? only(target, list) : 0;
    if (foreign >= MIN_FOREIGN_HITS && foreign > 1.5 * expected) return { plausible: false, looksLike: languageName(code) };
  }
  return { plausible: true };
}
