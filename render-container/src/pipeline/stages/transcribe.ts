import path from "node:path";
import { rm } from "node:fs/promises";
import { extractJoinedWav, locateInJoined, wordsToCues, type CaptionPlan, type Transcriber } from "../../captions";
import type { Cue, Word } from "../../captions/types";
import { mapLimit } from "../../render/pool";
import type { ClipSource, TimeRange } from "../../source";
import { JobError } from "../job-error";
import { mergeRanges, type RenderPlan } from "../render-plan";
import type { TaskRun } from "../task-run";

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
  /** The recognised words inside a VOD range (VOD times, with their confidences). */
  wordsFor(start: number, end: number): Word[];
}

export interface TranscribedRanges {
  words: Word[];
  /** VOD ranges already transcribed (or attempted), so a later call only does what is missing. */
  covered: TimeRange[];
  warnings: string[];
}

/**
 * Around a reel moment's peak, the words its title and story are written from: the climax and what led to it.
 * Only shorts carry captions, so with a local recogniser (CPU shared with the encodes, ~7x realtime per core)
 * the rest of a reel moment is not transcribed; a typical 5-minute reel then costs about a third of the
 * recogniser time. Remote recognisers transcribe whole moments.
 */
export const STORY_WINDOW = { beforePeak: 10, afterPeak: 5 } as const;

/**
 * What the texts of a plan are written from when the shorts make their own captions (the job's analysis task):
 * the story range of every reel moment and of every short, never a short whole.
 */
export function storyRanges(plan: Pick<RenderPlan, "reels" | "shorts">, storyWindowsOnly: boolean): TimeRange[] {
  const moments = [...plan.reels.flatMap((r) => r.moments), ...plan.shorts.map((s) => s.moment)];
  return mergeRanges(moments.map((m) => storyRange(m, storyWindowsOnly)));
}

/** A moment whole, or with `storyWindowOnly` the STORY_WINDOW around its peak (inside the moment). */
function storyRange(m: { start: number; end: number; peak: number }, storyWindowOnly: boolean): TimeRange {
  return storyWindowOnly ? { start: Math.max(m.start, m.peak - STORY_WINDOW.beforePeak), end: Math.min(m.end, m.peak + STORY_WINDOW.afterPeak) } : { start: m.start, end: m.end };
}

/** Silence after each range in a joined wav: longer than pocketsphinx's end-of-utterance pause (0.5 s). */
const JOIN_GAP_SECONDS = 1;
/** Upper bound of one recogniser run (remote speech APIs limit uploads to about 25 MB, i.e. 13 min of wav). */
const MAX_BIN_SECONDS = 600;

/** What to transcribe, with what, from which audio. */
export interface RangesToTranscribe {
  ranges: readonly TimeRange[];
  /** The audio-only rendition on disk, in parts with their VOD times. */
  audio: readonly ClipSource[];
  transcriber: Transcriber;
  language: string | null;
  captionPlan: CaptionPlan;
  /** An earlier result: only what it did not cover is transcribed (moments moved a little when snapped). */
  done?: TranscribedRanges;
  /**
   * Seek in each audio file before decoding (default true: the audio rendition's parts are long). false decodes
   * from the file's start, as a short task cuts its own captions' wav (a re-cut's short heard in the analysis).
   */
  seekInput?: boolean;
}

/**
 * Transcribes only what is rendered, from the audio-only rendition the analysis downloaded (so it can run
 * while the video segments download): each merged range once (shorts usually overlap reel moments). The
 * ranges are packed into one joined wav per core, so the recogniser starts twice, not once per range, and
 * the words are mapped back to VOD times.
 */
export async function transcribeRanges(run: Pick<TaskRun, "ctx" | "progress">, input: RangesToTranscribe): Promise<TranscribedRanges> {
  const { ctx, progress } = run;
  const { ranges, audio, transcriber, language, captionPlan, done, seekInput = true } = input;
  const words: Word[] = [...(done?.words ?? [])];
  const covered: TimeRange[] = [...(done?.covered ?? [])];
  const warnings = [...(done?.warnings ?? [])];
  if (!captionPlan.transcribe) return { words, covered, warnings };
  // Merged first: overlapping ranges would transcribe the same words twice.
  const pieces = mergeRanges(ranges)
    .flatMap((r) => subtractRanges(r, covered))
    .filter((r) => r.end - r.start >= MIN_PIECE_SECONDS)
    .flatMap((r) => splitAtSources(r, audio))
    .flatMap(({ range, source }) => splitRange(range, MAX_BIN_SECONDS).map((piece) => ({ range: piece, source })));
  const bins = packBins(pieces, 2, MAX_BIN_SECONDS);
  const total = pieces.reduce((s, p) => s + (p.range.end - p.range.start), 0) || 1;
  let seconds = 0;
  await mapLimit(
    bins,
    2,
    async (bin, i, signal) => {
      const wav = path.join(ctx.workDir, `speech-${covered.length}-${i}.wav`);
      try {
        const layout = await extractJoinedWav(bin.map((p) => ({ clip: p.source, start: p.range.start, end: p.range.end })), JOIN_GAP_SECONDS, wav, { signal, seekInput });
        const warn = (m: string) => warnings.push(`Captions for ${bin.map((p) => `${p.range.start.toFixed(0)}-${p.range.end.toFixed(0)}`).join(", ")} s: ${m}`);
        for (const w of await transcriber.transcribe(wav, { language, signal, warn })) {
          const at = locateInJoined(layout, w.start);
          if (!at) continue;
          const r = bin[at.piece]!.range;
          words.push({ ...w, start: r.start + at.at, end: Math.min(r.end, r.start + at.at + (w.end - w.start)) });
        }
      } catch (err) {
        if (ctx.signal.aborted || signal.aborted) throw err;
        // Captions are an extra: a failing recogniser must not sink the videos.
        ctx.log.warn("transcription failed", { error: String(err), ranges: bin.map((p) => p.range) });
        for (const { range } of bin) warnings.push(`Captions for ${range.start.toFixed(0)}-${range.end.toFixed(0)} s could not be produced (${transcriber.name}: ${(err as Error).message}).`);
      } finally {
        await rm(wav, { force: true });
      }
      seconds += bin.reduce((s, p) => s + (p.range.end - p.range.start), 0);
      progress.report("transcribing", seconds / total);
    },
    ctx.signal,
  );
  covered.push(...pieces.map((p) => p.range));
  return { words, covered, warnings };
}

/**
 * Packs pieces into at most `bins` groups of similar total length (longest first onto the lightest group),
 * opening more groups only when one would exceed `maxSeconds`. Each group keeps VOD order.
 */
export function packBins<T extends { range: TimeRange }>(pieces: readonly T[], bins: number, maxSeconds: number): T[][] {
  const len = (p: T) => p.range.end - p.range.start;
  const groups: { items: T[]; seconds: number }[] = [];
  for (const p of [...pieces].sort((a, b) => len(b) - len(a))) {
    const open = groups.filter((g) => g.seconds + len(p) <= maxSeconds).sort((a, b) => a.seconds - b.seconds)[0];
    if (open && groups.length >= bins) {
      open.items.push(p);
      open.seconds += len(p);
    } else if (groups.length < bins || !open) groups.push({ items: [p], seconds: len(p) });
  }
  return groups.map((g) => g.items.sort((a, b) => a.range.start - b.range.start));
}

/** Slices transcribed words per short and per moment. */
export function transcriptsFrom(run: TranscribedRanges, captionPlan: CaptionPlan): Transcripts {
  const words = [...run.words].sort((a, b) => a.start - b.start);
  const inside = (start: number, end: number) => words.filter((w) => w.start >= start - 0.05 && w.end <= end + 0.05);
  return {
    words,
    burn: captionPlan.burn,
    warnings: [...(captionPlan.warning ? [captionPlan.warning] : []), ...run.warnings],
    cuesFor: (start, end) =>
      wordsToCues(
        inside(start, end).map((w) => ({ ...w, start: Math.max(0, w.start - start), end: Math.min(end - start, w.end - start) })),
        { duration: end - start },
      ),
    textFor: (start, end) => inside(start, end).map((w) => w.word).join(" "),
    wordsFor: (start, end) => inside(start, end),
  };
}

/** Leftovers shorter than this hold no word worth a recogniser start. */
const MIN_PIECE_SECONDS = 0.5;

/** The parts of `r` not inside any of `covered`. */
export function subtractRanges(r: TimeRange, covered: readonly TimeRange[]): TimeRange[] {
  let rest: TimeRange[] = [{ start: r.start, end: r.end }];
  for (const c of covered) {
    rest = rest.flatMap((x) => {
      if (c.end <= x.start || c.start >= x.end) return [x];
      const out: TimeRange[] = [];
      if (c.start > x.start) out.push({ start: x.start, end: c.start });
      if (c.end < x.end) out.push({ start: c.end, end: x.end });
      return out;
    });
  }
  return rest;
}

/** Cuts a range where the audio file holding it changes (the rendition is stored in parts). */
export function splitAtSources(r: TimeRange, sources: readonly ClipSource[]): { range: TimeRange; source: ClipSource }[] {
  const out: { range: TimeRange; source: ClipSource }[] = [];
  let t = r.start;
  while (r.end - t > 1e-3) {
    const source = sources.find((s) => s.media_start_seconds <= t + 1e-3 && s.media_end_seconds > t + 1e-3);
    if (!source) throw new JobError("render_failed", `No downloaded audio covers ${t.toFixed(2)} s.`);
    const end = Math.min(r.end, source.media_end_seconds);
    out.push({ range: { start: t, end }, source });
    t = end;
  }
  return out;
}

/** Splits a range into pieces of about `target` seconds (no piece shorter than half of it). */
export function splitRange(r: { start: number; end: number }, target: number): { start: number; end: number }[] {
  const n = Math.max(1, Math.round((r.end - r.start) / target));
  const len = (r.end - r.start) / n;
  return Array.from({ length: n }, (_, i) => ({ start: r.start + i * len, end: i === n - 1 ? r.end : r.start + (i + 1) * len }));
}
