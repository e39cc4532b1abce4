import path from "node:path";
import { writeFile } from "node:fs/promises";
import { MAX_SPEECH_WORDS } from "../../../../common/contract/job-plan";
import { HEARD_WORDS_VERSION, HeardWords, heardWordsName } from "../../../../common/contract/heard-words";
import type { Word } from "../../captions/types";
import type { JobContext } from "../types";

/**
 * A short's heard words kept for later re-cuts (common/contract/heard-words.ts; docs/TASK-MODEL.md, "A re-cut's
 * words heard once"). Written by every short task that transcribed cleanly, read by a re-cut's analysis task.
 */

/** What a short task keeps: `heard` on the short's clock (as short-speech.ts gives them), stored on the VOD's. */
export interface ShortHeard {
  index: number;
  vodId: string;
  recogniser: string;
  language: string;
  range: { start: number; end: number };
  heard: readonly Word[];
}

/** The object's body, or null when there is nothing a later job could rely on (too many words to carry). */
export function heardWordsObject(s: ShortHeard): HeardWords | null {
  if (s.heard.length > MAX_SPEECH_WORDS) return null;
  return {
    version: HEARD_WORDS_VERSION,
    vod_id: s.vodId,
    language: s.language,
    recogniser: s.recogniser,
    start: s.range.start,
    end: s.range.end,
    words: s.heard.map((w) => ({
      word: w.word,
      start: s.range.start + w.start,
      end: s.range.start + w.end,
      ...(w.confidence !== undefined ? { confidence: w.confidence } : {}),
      ...(w.crossChecked !== undefined ? { crossChecked: w.crossChecked } : {}),
    })),
  };
}

/** Stores a short's heard words in its job's folder; a failure costs the short nothing (a later re-cut hears its range). */
export async function keepHeardWords(ctx: Pick<JobContext, "workDir" | "uploader" | "signal" | "log">, s: ShortHeard): Promise<void> {
  const body = heardWordsObject(s);
  if (!body) return;
  const name = heardWordsName(s.index);
  const file = path.join(ctx.workDir, name);
  try {
    await writeFile(file, JSON.stringify(body));
    await ctx.uploader.put(name, file, "application/json", ctx.signal);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.log.warn("the short's heard words could not be kept for re-cuts", { error: String(err), short: s.index });
  }
}

/**
 * Reads the earlier shorts' heard words from their signed links (small objects, fetched side by side). One that is
 * gone (its job's files deleted meanwhile), unreadable, about another VOD, or heard by another recogniser or in
 * another language is skipped: its range is then heard again.
 */
export async function fetchHeardWords(urls: readonly string[], expect: { vodId: string; recogniser: string; language: string }, fetchImpl: typeof fetch, signal: AbortSignal): Promise<HeardWords[]> {
  const read = async (url: string): Promise<HeardWords | null> => {
    try {
      const res = await fetchImpl(url, { signal });
      if (!res.ok) return null;
      const parsed = HeardWords.safeParse(await res.json());
      if (!parsed.success) return null;
      const h = parsed.data;
      return h.vod_id === expect.vodId && h.recogniser === expect.recogniser && h.language === expect.language ? h : null;
    } catch (err) {
      if (signal.aborted) throw err;
      return null;
    }
  };
  return (await Promise.all(urls.map(read))).filter((h): h is HeardWords => h !== null);
}
