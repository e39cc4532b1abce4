import { gunzipSync, gzipSync } from "node:zlib";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ANALYSIS_VERSION, STORED_ANALYSIS_NAME, type PlanAnalysis } from "../../../../common/contract/analysis-reuse";
import type { ChatComment } from "../../../../common/twitch";
import type { AudioAnalysis } from "../../analysis";
import type { Word } from "../../captions/types";
import type { FacecamChoice } from "../../render";
import type { TimeRange } from "../../source";

/**
 * What a full analysis keeps for later jobs of the same account on the same VOD (common/contract/analysis-reuse.ts):
 * everything the whole-VOD part of the analysis task produced, nothing that depends on what a job renders.
 * Selection, texts and the plan are made again from it by each job, so a re-cut may choose other profiles, other
 * manual highlights, another layout.
 */
export interface StoredAnalysis {
  version: number;
  vod_id: string;
  /** The VOD's measured length (audio playlist): a VOD whose length changed since is analysed again. */
  duration_seconds: number;
  analysed_at: string;
  /** Per-second audio signals (the kept PCM is not stored: the voice-activity measure already ran on it). */
  audio: Omit<AudioAnalysis, "pcm">;
  comments: ChatComment[];
  /** The source warnings (chat unavailable, muted parts, a model that could not run): they hold for a re-cut too. */
  warnings: string[];
  /** Words transcribed around the analysed job's moments, and the VOD ranges that were transcribed. */
  transcripts: { transcriber: string; language: string; words: Word[]; covered: TimeRange[] };
  /** The facecam the VOD's split shorts used, when it was detected on its video (null: none was). */
  facecam: FacecamChoice | null;
}

const num = z.number();
const range = z.object({ start: num, end: num });
/**
 * Checked when read: a stored object of another version, or one that does not parse, is never used (the job
 * analyses the VOD instead). The per-second arrays are checked for shape, not re-derived.
 */
const StoredAnalysisSchema = z.object({
  version: z.number().int(),
  vod_id: z.string(),
  duration_seconds: num.positive(),
  analysed_at: z.string(),
  audio: z.looseObject({
    durationSeconds: num,
    loudnessLufs: z.array(num),
    loudnessAboveBaselineDb: z.array(num),
    speechActivity: z.array(num),
  }),
  comments: z.array(z.looseObject({ offset_seconds: num, text: z.string() })),
  warnings: z.array(z.string()),
  transcripts: z.object({
    transcriber: z.string(),
    language: z.string(),
    words: z.array(z.looseObject({ word: z.string(), start: num, end: num })),
    covered: z.array(range),
  }),
  facecam: z.looseObject({ region: z.object({ x: num, y: num, w: num, h: num }), found: z.string() }).nullable(),
});

/** The stored object's bytes: gzip'd JSON (1.1 MB for the 6-hour benchmark VOD's signals, chat and words). */
export function encodeStoredAnalysis(a: StoredAnalysis): Buffer {
  return gzipSync(JSON.stringify(a), { level: 6 });
}

export type DecodedAnalysis = { ok: true; analysis: StoredAnalysis } | { ok: false; why: string };

/** Reads a stored object; `expect` is what it must be about (this VOD, this version). */
export function decodeStoredAnalysis(bytes: Uint8Array, expect: { vodId: string }): DecodedAnalysis {
  let raw: unknown;
  try {
    raw = JSON.parse(gunzipSync(bytes).toString("utf8"));
  } catch (err) {
    return { ok: false, why: `it could not be read (${(err as Error).message})` };
  }
  const parsed = StoredAnalysisSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, why: "it is not a stored analysis this renderer reads" };
  const a = parsed.data as unknown as StoredAnalysis;
  if (a.version !== ANALYSIS_VERSION) return { ok: false, why: `it was made by analysis version ${a.version}, this renderer makes ${ANALYSIS_VERSION}` };
  if (a.vod_id !== expect.vodId) return { ok: false, why: `it is about VOD ${a.vod_id}` };
  return { ok: true, analysis: a };
}

/** Writes the object into the work folder, then stores it in the job's folder; what the plan says about it. */
export async function storeAnalysis(a: StoredAnalysis, workDir: string, put: (name: string, file: string, contentType: string) => Promise<{ size_bytes: number }>): Promise<NonNullable<PlanAnalysis["stored"]>> {
  const file = path.join(workDir, STORED_ANALYSIS_NAME);
  await writeFile(file, encodeStoredAnalysis(a));
  const { size_bytes } = await put(STORED_ANALYSIS_NAME, file, "application/gzip");
  return { name: STORED_ANALYSIS_NAME, version: a.version, size_bytes, duration_seconds: a.duration_seconds, analysed_at: a.analysed_at };
}

/** Fetches the stored object from its signed link (a few retries are the caller's fetch's; one GET here). */
export async function fetchStoredAnalysis(url: string, fetchImpl: typeof fetch, signal: AbortSignal): Promise<Uint8Array> {
  const res = await fetchImpl(url, { signal });
  if (!res.ok) throw new Error(`GET the stored analysis answered ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}
