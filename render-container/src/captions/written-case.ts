import { primaryLanguage } from "./transcriber";

/** English "I" and its contractions as a lowercase recogniser writes them ("i", "i'm", "i'll", "i've", "i'd"). */
const ENGLISH_I = /^i(?=$|['\u2019](?:m|ll|ve|d)$)/;

/**
 * A shown word as it is written. pocketsphinx writes every word in lowercase; in English that turns the pronoun
 * "I" into "i", which on a caption or in a quoted title reads like a typo ("i have never seen"). Other words keep
 * the recogniser's case (the start of a caption is not always the start of a sentence), and other languages are
 * left alone ("i" is a word of its own in Catalan or Italian dialects).
 */
export function writtenCase(word: string, language: string | null | undefined): string {
  if (primaryLanguage(language ?? null) !== "en") return word;
  return word.replace(ENGLISH_I, "I");
}
