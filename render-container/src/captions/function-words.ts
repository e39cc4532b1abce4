import { primaryLanguage } from "./transcriber";

/**
 * Function words per language: articles, prepositions, conjunctions, pronouns, auxiliaries. Alone on screen
 * ("the", "it", "have") a caption says nothing, so trustedWords does not show one with no other shown word around
 * it. Interjections and reactions ("no", "what", "wow", "oh") are not on these lists: shouted alone they are the
 * moment.
 */
const LISTS: Record<string, string> = {
  en: `a an the and or but if of to in on at by for with from into onto as is are was were be been being am do does did
have has had it its it's i i'm me my you your he him his she her we us our they them their this that these those there
which who whom not so then than will would can could should shall may might must`,
  es: `el la los las un una unos unas y o pero si de del a al en con por para sin sobre es son era fue ser estar está
están he ha han hay lo le les se me te nos mi tu su sus yo tú él ella ellos ellas que este esta estos esas ese eso no`,
  de: `der die das den dem des ein eine einen einem einer und oder aber wenn von zu zum zur in im an am auf aus bei mit
nach für über unter ist sind war waren bin bist sein hat haben habe es ich du er sie wir ihr mich dich mir dir uns sich
mein dein sein dass als wie nicht so dann`,
  fr: `le la les un une des du de d' l' et ou mais si à au aux en dans par pour sur sans avec est sont était être ai a
ont il elle ils elles je tu nous vous on me te se mon ton son ma ta sa mes tes ses ce cet cette ces que qui ne pas`,
  pt: `o a os as um uma uns umas e ou mas se de do da dos das em no na nos nas por para com sem sobre é são era foi ser
estar está estão tem têm há eu tu ele ela nós eles elas me te se meu minha seu sua que este esta esse essa isso não`,
};

const SETS = new Map(Object.entries(LISTS).map(([code, list]) => [code, new Set(list.split(/\s+/).filter(Boolean))]));

/** A test for the language's function words (lowercase, outer punctuation ignored); null when it has no list. */
export function functionWordsFor(language: string | null | undefined): ((word: string) => boolean) | null {
  const set = SETS.get(primaryLanguage(language ?? null) ?? "");
  if (!set) return null;
  return (word) => set.has(word.toLowerCase().replace(/^[^\p{L}']+|[^\p{L}']+$/gu, ""));
}
