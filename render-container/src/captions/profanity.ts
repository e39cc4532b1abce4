/**
 * Swear words and slurs in the languages the metadata writer speaks (en, es, de, fr, pt), matched on a word's
 * lowercase letters. All lists are checked whatever the stream's language: a Spanish swear word in an English
 * caption is no more postable. Kept to words that are profane in (nearly) every use, so an ordinary word is
 * never hidden: "hell", "damn", "con" (Spanish "with") are not listed.
 */
const SWEARING: readonly RegExp[] = [
  // English
  /^(mother)?f+u+c+k+(s|ed|er|ers|in|ing|ings|face|wit|head)?$/,
  /^(bull|horse|dip)?shit(s|ty|ting|ted|head|hole|show)?$/,
  /^bitch(es|ing|y)?$/,
  /^bastards?$/,
  /^cunts?$/,
  /^dick(s|head|heads)?$/,
  /^cocks?(sucker|suckers)?$/,
  /^puss(y|ies)$/,
  /^ass(hole|holes|wipe)$/,
  /^arse(hole|holes)?$/,
  /^(whore|slut|twat|wanker|prick|bollocks|jackass|douche|douchebag)s?$/,
  /^piss(ed|ing)?$/,
  // Spanish
  /^(puta|putas|puto|putos|mierda|joder|jodido|jodida|coño|cabrón|cabron|cabrones|pendejo|pendeja|pendejos|gilipollas|culero|chingar|chingada|verga)$/,
  // German
  /^(scheiße|scheisse|scheiß|scheiss|arschloch|arschlöcher|hure|huren|fotze|wichser|ficken|fick|fickt|verdammt|miststück)$/,
  // French
  /^(merde|putain|connard|connards|connasse|salope|salopes|enculé|encule|enculés|pute|putes|bordel|nique|niquer)$/,
  // Portuguese
  /^(porra|caralho|merda|foda|fodase|foder|fodido|buceta|cacete|cuzão|cuzao|arrombado)$/,
];

/** Slurs: masked even when a streamer turned masking off. */
const SLURS: readonly RegExp[] = [
  /^re+tard(s|ed)?$/,
  /^(fag|fags|faggot|faggots|nigger|niggers|nigga|niggas|tranny|trannies|spic|spics|chink|chinks|kike|kikes|dyke|dykes)$/,
  /^(maricón|maricon|marica|sudaca)$/,
  /^(schwuchtel|kanake|kanaken)$/,
  /^(pédé|pede|bougnoule|youpin)$/,
  /^(viado|viadinho|sapatão)$/,
];

/** A word's letters as the lists are written: lowercase, edge punctuation and pronunciation marks `(2)` off. */
export function profanityKey(word: string): string {
  return word
    .toLowerCase()
    .normalize("NFC")
    .replace(/\(\d+\)$/, "")
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
}

export function isSlur(word: string): boolean {
  const k = profanityKey(word);
  return k.length > 0 && SLURS.some((re) => re.test(k));
}

/** A swear word or a slur. */
export function isProfane(word: string): boolean {
  const k = profanityKey(word);
  return k.length > 0 && (SWEARING.some((re) => re.test(k)) || SLURS.some((re) => re.test(k)));
}

/** Whether a text (a title, a story, a tag) holds a profane word. */
export function containsProfanity(text: string): boolean {
  return (text.match(/[\p{L}\p{N}']+/gu) ?? []).some(isProfane);
}

/** The profane words of a text, as profanityKey gives them. */
export function profaneWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}']+/gu) ?? []).filter(isProfane).map(profanityKey);
}

/** "fucking" -> "f******": the first letter stays so the word is still guessed, the rest is starred. */
export function maskWord(word: string): string {
  const m = /^([^\p{L}]*)(\p{L})(.*?)([^\p{L}]*)$/u.exec(word);
  if (!m) return word;
  return `${m[1]}${m[2]}${"*".repeat([...m[3]!].length)}${m[4]}`;
}
