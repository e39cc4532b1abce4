import path from "node:path";
import type { AnalysisReuseSource } from "../../../../common/contract/analysis-reuse";
import type { Transcriber } from "../../captions";
import { downloadCoveringSegments, resolveVodMedia, type ByteCounter, type ClipSource, type TimeRange } from "../../source";
import { measuredLength } from "../../source/measured-length";
import type { Acquired } from "../stages/acquire";
import type { TranscribedRanges } from "../stages/transcribe";
import { subtractRanges } from "../stages/transcribe";
import type { TaskRun } from "../task-run";
import { decodeStoredAnalysis, fetchStoredAnalysis, type StoredAnalysis } from "./stored-analysis";

/** A measured length this far from the stored one means the VOD is not what was analysed (Twitch re-processed it). */
const LENGTH_TOLERANCE_SECONDS = 0.5;

export type Reusable = { ok: true; source: Acquired; stored: StoredAnalysis } | { ok: false; why: string };

/**
 * The analysis task's source from a stored analysis instead of the whole VOD: the VOD is resolved again (a few
 * small requests: the render tasks need its playlists, and its length is checked against the stored one), the
 * stored object is read from its signed link, and nothing else is downloaded here. Any problem (the object gone,
 * another version, another length) is returned as a reason, and the caller analyses the VOD as usual.
 */
export async function reusableSource(run: Pick<TaskRun, "job" | "ctx" | "progress">, from: AnalysisReuseSource): Promise<Reusable> {
  const { job, ctx, progress } = run;
  progress.report("resolving", 0);
  let stored: StoredAnalysis;
  try {
    const decoded = decodeStoredAnalysis(await fetchStoredAnalysis(from.url, ctx.fetchImpl, ctx.signal), { vodId: job.vod.vod_id });
    if (!decoded.ok) return { ok: false, why: decoded.why };
    stored = decoded.analysis;
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return { ok: false, why: `it could not be fetched (${(err as Error).message})` };
  }
  const media = await resolveVodMedia({ gqlUrl: job.twitch.gql_url, usherUrl: job.twitch.usher_url, fetch: ctx.fetchImpl }, job.vod.vod_id);
  const durationSeconds = measuredLength(media.audioPlaylist);
  progress.report("resolving", 1);
  if (Math.abs(durationSeconds - stored.duration_seconds) > LENGTH_TOLERANCE_SECONDS) {
    return { ok: false, why: `the VOD is now ${durationSeconds.toFixed(1)} s long, it was ${stored.duration_seconds.toFixed(1)} s when analysed` };
  }
  // The selection reads the signals as the analysis left them; the audio on disk comes later, only where needed.
  const source: Acquired = { media, durationSeconds, audioParts: [], audio: { ...stored.audio }, comments: stored.comments, warnings: [...stored.warnings] };
  progress.report("analysing", 1);
  return { ok: true, source, stored };
}

/** The stored words when they were heard by this job's recogniser in this job's language; else nothing is reused. */
export function reusedTranscripts(stored: StoredAnalysis, transcriber: Pick<Transcriber, "name">, language: string): TranscribedRanges | undefined {
  const t = stored.transcripts;
  if (t.transcriber !== transcriber.name || t.language !== language) return undefined;
  return { words: [...t.words], covered: [...t.covered], warnings: [] };
}

/**
 * The audio-only rendition's segments covering the ranges still to transcribe (a manual highlight the earlier job
 * did not have, a moment chosen by another profile): seconds of audio, not the whole VOD.
 */
export async function audioForRanges(run: Pick<TaskRun, "ctx" | "downloadConcurrency">, source: Acquired, ranges: readonly TimeRange[], done: TranscribedRanges | undefined, bytes: ByteCounter): Promise<ClipSource[]> {
  const missing = ranges.flatMap((r) => subtractRanges(r, done?.covered ?? [])).filter((r) => r.end - r.start >= 0.5);
  if (missing.length === 0) return [];
  return downloadCoveringSegments(source.media.audioPlaylist, missing, path.join(run.ctx.workDir, "audio-reuse"), {
    concurrency: run.downloadConcurrency,
    signal: run.ctx.signal,
    counter: bytes,
    fetch: run.ctx.fetchImpl,
  });
}
