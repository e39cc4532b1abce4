import path from "node:path";
import { rm } from "node:fs/promises";
import { extractWav, planCaptions, wordsToCues, type Transcriber } from "../../captions";
import type { Cue, Word } from "../../captions/types";
import { mapLimit } from "../../render/pool";
import type { ClipSource } from "../../source";
import type { JobProgress } from "../progress";
import type { RenderPlan } from "../render-plan";
import type { JobContext } from "../types";
import { clipFor } from "./fetch-video";

export interface Transcripts {
  /** Words with VOD times, from every rendered range. */
  words: Word[];
  /** Burn captions into the shorts (burn_captions and a transcriber that knows the language). */
  burn: boolean;
  warnings: string[];
  /** Captions of a VOD range, times relative to its start. */
  cuesFor(start: number, end: number): Cue[];
  /** Spoken text inside a VOD range, for metadata writing. */
  textFor(start: number, end: number): string;
}

/**
 * Transcribes only what is rendered: each merged range of the plan once (shorts usually overlap reel moments),
 * then slices the words per short and per moment.
 */
export async function transcribeRendered(plan: RenderPlan, clips: readonly ClipSource[], transcriber: Transcriber, language: string | null, burnRequested: boolean, ctx: JobContext, progress: JobProgress): Promise<Transcripts> {
  const captionPlan = planCaptions(transcriber, language, burnRequested);
  const warnings = captionPlan.warning ? [captionPlan.warning] : [];
  const words: Word[] = [];
  if (captionPlan.transcribe) {
    // Recognisers are single-threaded: pieces of about a minute, two at a time, keep both cores busy.
    const pieces = plan.videoRanges.flatMap((r) => splitRange(r, 60));
    const total = pieces.reduce((s, r) => s + (r.end - r.start), 0) || 1;
    let done = 0;
    await mapLimit(
      pieces,
      2,
      async (range, i, signal) => {
        const wav = path.join(ctx.workDir, `speech-${i}.wav`);
        try {
          await extractWav(clipFor(clips, range.start, range.end), range.start, range.end, wav, { signal });
          for (const w of await transcriber.transcribe(wav, { language, signal })) {
            words.push({ ...w, start: w.start + range.start, end: w.end + range.start });
          }
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          // Captions are an extra: a failing recogniser must not sink the videos.
          ctx.log.warn("transcription failed", { error: String(err), range });
          warnings.push(`Captions for ${range.start.toFixed(0)}-${range.end.toFixed(0)} s could not be produced (${transcriber.name}: ${(err as Error).message}).`);
        } finally {
          await rm(wav, { force: true });
        }
        done += range.end - range.start;
        progress.report("transcribing", done / total);
      },
      ctx.signal,
    );
  }
  words.sort((a, b) => a.start - b.start);
  const inside = (start: number, end: number) => words.filter((w) => w.start >= start - 0.05 && w.end <= end + 0.05);
  return {
    words,
    burn: captionPlan.burn,
    warnings,
    cuesFor: (start, end) =>
      wordsToCues(inside(start, end).map((w) => ({ ...w, start: Math.max(0, w.start - start), end: Math.min(end - start, w.end - start) }))),
    textFor: (start, end) => inside(start, end).map((w) => w.word).join(" "),
  };
}

/** Splits a range into pieces of about `target` seconds (no piece shorter than half of it). */
export function splitRange(r: { start: number; end: number }, target: number): { start: number; end: number }[] {
  const n = Math.max(1, Math.round((r.end - r.start) / target));
  const len = (r.end - r.start) / n;
  return Array.from({ length: n }, (_, i) => ({ start: r.start + i * len, end: i === n - 1 ? r.end : r.start + (i + 1) * len }));
}
