import { advertises, chatLineProblem, matchForm } from "./chat-lines";
import { chatQuotes, cleanEmotes, quotablePhrases } from "./reliable-text";
import type { MetadataMoment } from "./types";

/**
 * The local writer's quoting rules, applied to what a model wrote: a title or story may quote only what was
 * said in the moment (its spoken phrases) or what a crowd typed in reaction (the lines chatQuotes would quote,
 * its emotes), or a name (streamer, game, label); and nothing in it may advertise. A model handed the
 * moment's evidence still quotes the small talk, a greeting or a spam line it saw elsewhere, or makes a quote
 * up; such a text is replaced by the local writer's.
 */

/** Text between quotation marks of any style the writers use (“…”, „…“, «…», "…"). */
export function quotedParts(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\u201C([^\u201D]+)\u201D|\u201E([^\u201C\u201D]+)[\u201C\u201D]|\u00AB\s*([^\u00BB]+?)\s*\u00BB|"([^"]+)"/g)) {
    const part = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? "").trim();
    if (part) out.push(part);
  }
  return out;
}

/** `part` is `whole` or a run of its words (both in matching form). */
const within = (part: string, whole: string) => part.length > 0 && ` ${whole} `.includes(` ${part} `);

/**
 * Why the text's quotes break the rules, or null when they keep them. `moments`: the moments the text speaks
 * for; `names`: the streamer, the game, labels and the like, which may be quoted as they are.
 */
export function quoteProblem(text: string, moments: readonly MetadataMoment[], ctx: { language: string; mask: boolean; names: readonly (string | null)[] }): string | null {
  if (advertises(text)) return "it advertises (a link or promotion)";
  const spoken = moments.flatMap((m) => [...quotablePhrases(m, ctx.language), ...(m.speech_offline ? [] : [m.transcript ?? ""])]).map(matchForm);
  const crowd = moments.flatMap((m) => [...chatQuotes(m, ctx.language, ctx.mask).map((q) => q.text), ...cleanEmotes(m)]).map(matchForm);
  const names = ctx.names.filter((n): n is string => !!n && !!n.trim()).map(matchForm);
  for (const part of quotedParts(text)) {
    const form = matchForm(part);
    if (spoken.some((s) => within(form, s)) || names.some((n) => within(form, n))) continue;
    const problem = chatLineProblem(part);
    if (problem) return `it quotes a ${problem === "small-talk" ? "line of small talk" : problem === "chain" ? "chain message" : problem}: \u201C${part}\u201D`;
    if (crowd.some((c) => within(form, c))) continue;
    return `it quotes what was neither said nor typed by a crowd: \u201C${part}\u201D`;
  }
  return null;
}

/**
 * What makes two titles the same template with the same subject: the wording with each quote in matching form,
 * lower case, punctuation out ("NovaPlays: “NO WAYYY!”" and "novaplays: “no way”" are one).
 */
export function titleShape(title: string): string {
  return title
    .replace(/\u201C([^\u201D]+)\u201D|\u201E([^\u201C\u201D]+)[\u201C\u201D]|\u00AB\s*([^\u00BB]+?)\s*\u00BB|"([^"]+)"/g, (_, a, b, c, d) => ` q ${matchForm(a ?? b ?? c ?? d ?? "")} q `)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
