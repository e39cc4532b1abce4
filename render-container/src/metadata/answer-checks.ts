import { isProfane, isSlur, maskWord, profanityKey } from "../captions/profanity";
import { judgeLanguage } from "./language-check";
import { languageName } from "./language-names";
import { normalizeTags } from "./tags";
import { LIMITS, type MetadataInput, type MetadataMoment } from "./types";

/** A story is one line (what happened and why it was picked). */
export const STORY_LIMIT = 300;

export type TextField = "title" | "story" | "description";

const LIMIT: Record<TextField, number> = { title: LIMITS.title, story: STORY_LIMIT, description: LIMITS.description };

/** The words that were really said or typed around some moments: the only profanity a model may write. */
export class Evidence {
  private readonly words = new Set<string>();

  constructor(moments: readonly MetadataMoment[]) {
    for (const m of moments) {
      for (const text of [m.transcript ?? "", ...m.top_chat_messages, ...m.top_emotes]) {
        for (const w of text.toLowerCase().split(/[^\p{L}\p{N}*']+/u)) if (w) this.words.add(w.replace(/^'+|'+$/g, ""));
      }
    }
  }

  /** Said or typed as such, or said and masked ("f******" in a masked transcript). */
  has(word: string): boolean {
    const key = profanityKey(word);
    return this.words.has(key) || this.words.has(maskWord(key));
  }
}

export type Checked = { ok: true; text: string } | { ok: false; reason: string };

/**
 * The figures a moment was picked by, as a story or description would repeat them: a rate as a multiple ("8x",
 * "8.5 x"), decibels, a "baseline". A streamer posting a clip tells viewers what happened, not how the service
 * measured it; such a text is written locally instead. Null when there is none.
 */
export function analyticsFigure(text: string): string | null {
  const found = /\b\d+(?:[.,]\d+)?\s?[x\u00D7](?=[\s).,;:!]|$)|[+-]?\d+(?:[.,]\d+)?\s?dB\b|\bbaseline\b/iu.exec(text);
  return found ? found[0].trim() : null;
}

/**
 * One text a model wrote, held to what the local writer guarantees: within its length limit (never cut: a cut
 * title is worse than another), a story or description without the figures of analyticsFigure, plausibly in the
 * metadata language, and free of profanity unless it was said or typed (then masked when the job masks profanity);
 * never a slur.
 */
export function checkText(field: TextField, raw: string, ctx: { language: string; mask: boolean; evidence: Evidence; names: readonly (string | null)[] }): Checked {
  const text = field === "description" ? raw.trim() : raw.replace(/\s+/g, " ").trim();
  const length = [...text].length;
  if (length > LIMIT[field]) return { ok: false, reason: `longer than ${LIMIT[field]} characters` };
  const figure = field === "title" ? null : analyticsFigure(text);
  if (figure) return { ok: false, reason: `it reads like analytics: "${figure}"` };
  let problem: string | null = null;
  const clean = text.replace(/[\p{L}\p{N}']+/gu, (token) => {
    if (!isProfane(token)) return token;
    if (isSlur(token)) problem ??= "a slur";
    else if (!ctx.evidence.has(token)) problem ??= `profanity nobody said or typed: "${maskWord(token)}"`;
    return ctx.mask ? maskWord(token) : token;
  });
  if (problem) return { ok: false, reason: problem };
  const verdict = judgeLanguage(clean, ctx.language, ctx.names);
  if (!verdict.plausible) return { ok: false, reason: `in ${verdict.looksLike} rather than ${languageName(ctx.language)}` };
  return { ok: true, text: clean };
}

/** A model's tags without profanity, normalised; null when none is left. */
export function checkTags(tags: readonly string[]): string[] | null {
  const kept = normalizeTags(tags).filter((t) => !t.split(/[^\p{L}\p{N}']+/u).some((w) => w && isProfane(w)));
  return kept.length ? kept : null;
}

/** Texts that must differ within one job (titles of different moments, titles of shorts, stories). */
export class Distinct {
  private readonly owner = new Map<string, string>();

  /** Null when the text is new (or belongs to the same `key`, e.g. the same range), else who has it already. */
  claim(text: string, key: string, who: string): string | null {
    const norm = text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
    const taken = this.owner.get(norm);
    if (taken !== undefined && taken.split("\u0000")[0] !== key) return taken.split("\u0000")[1]!;
    if (taken === undefined) this.owner.set(norm, `${key}\u0000${who}`);
    return null;
  }
}

/** The moments a reel, a short or a moment speaks for (their transcripts and chat are its evidence). */
export function momentsOf(input: MetadataInput, ids: readonly string[]): MetadataMoment[] {
  const byId = new Map(input.moments.map((m) => [m.id, m]));
  return ids.map((id) => byId.get(id)).filter((m): m is MetadataMoment => m !== undefined);
}
