import { mkdir } from "node:fs/promises";
import path from "node:path";
import { MAX_SPEECH_WORDS, type ShortSpeech } from "../../../../common/contract/job-plan";
import { downloadCoveringSegments, resolveVideoRendition, type ByteCounter, type ClipSource, type TimeRange } from "../../source";
import type { Acquired } from "../stages/acquire";
import type { TaskRun } from "../task-run";
import type { RenderPlan } from "../render-plan";
import type { TranscribedRanges } from "../stages/transcribe";
import { subtractRanges } from "../stages/transcribe";
import { edgeWords, type RecutJoin } from "./recut-join";

/**
 * A re-cut's captions heard once (docs/TASK-MODEL.md, "Reusing an analysis"). A job that reused an analysis and
 * renders one short of fixed bounds (a manual highlight) and nothing else has its analysis transcribe that short's
 * whole range, as one piece, instead of only the window around its peak the title is written from; the plan then
 * carries those words to the short task, whose captions are made from them by the same rules instead of
 * transcribing the same range again. The window the title needs lies inside the short, so the analysis hears the
 * short once where the two tasks heard 1.5 shorts' worth between them.
 *
 * The words are heard from the short's own video, downloaded as the short task downloads it (the same segments of
 * the same rendition, the same cut of the wav): the audio rendition carries the same sound, but its packets sit a
 * few milliseconds apart from the video's, and a recogniser hears a shifted cut differently. Measured with
 * scripts/eval-recut-captions.ts on six 30 s ranges of the benchmark VOD: from the audio rendition the captions
 * showed 55 right and 9 wrong words, from the video's audio 55 right and 3 wrong; heard from the same file, the
 * re-cut's captions are the very ones the short would make itself.
 *
 * When an earlier short of the account heard part of the range (a re-cut moving its bounds), only the rest is heard
 * and joined with its words (reuse/recut-join.ts, withKept below).
 *
 * Only then: in a job of several outputs the shorts transcribe in their own tasks, side by side, and moving that
 * work into the analysis would put it on the one path every task waits for; an automatic short may move its start
 * to a scene cut in its task, so its range is not known here.
 */
export function recutShortRange(plan: Pick<RenderPlan, "reels" | "shorts">): { index: number; range: TimeRange } | null {
  if (plan.reels.length > 0 || plan.shorts.length !== 1) return null;
  const only = plan.shorts[0]!;
  if (only.moment.source !== "manual") return null;
  return { index: only.index, range: { start: only.moment.start, end: only.moment.end } };
}

/** `done` without what it has inside `range` (that range is heard again, whole): its words there and its coverage. */
export function withoutRange(done: TranscribedRanges | undefined, range: TimeRange): TranscribedRanges | undefined {
  if (!done) return undefined;
  return {
    words: done.words.filter((w) => w.end <= range.start || w.start >= range.end),
    covered: done.covered.flatMap((c) => subtractRanges(c, [range])),
    warnings: [...done.warnings],
  };
}

/** Two transcriptions of separate ranges as one (the story windows' pass starts from both). */
export function joinTranscribed(a: TranscribedRanges | undefined, b: TranscribedRanges): TranscribedRanges {
  return { words: [...(a?.words ?? []), ...b.words], covered: [...(a?.covered ?? []), ...b.covered], warnings: [...(a?.warnings ?? []), ...b.warnings] };
}

/**
 * What the plan tells the short task: the words heard over its range, when that pass went cleanly (no warning: a
 * recogniser that failed or fell back leaves the short to transcribe itself, as any short does) and they fit the plan.
 */
export function plannedSpeech(heard: TranscribedRanges, range: TimeRange, recogniser: string): ShortSpeech | null {
  if (heard.warnings.length > 0) return null;
  const words = heard.words.filter((w) => w.start >= range.start - 1e-3 && w.start <= range.end + 0.05).sort((x, y) => x.start - y.start);
  if (words.length > MAX_SPEECH_WORDS) return null;
  return {
    recogniser,
    start: range.start,
    end: range.end,
    words: words.map((w) => ({ word: w.word, start: w.start, end: w.end, ...(w.confidence !== undefined ? { confidence: w.confidence } : {}), ...(w.crossChecked !== undefined ? { crossChecked: w.crossChecked } : {}) })),
  };
}

/**
 * The short's video, as its own task would download it (the plan's rendition, the segments covering its range, or
 * only the parts of it still to hear: reuse/recut-join.ts): what the re-cut's words are heard from, so that they
 * are the ones the short task would hear.
 */
export async function videoForShort(run: Pick<TaskRun, "job" | "ctx" | "downloadConcurrency">, source: Acquired, ranges: readonly TimeRange[], bytes: ByteCounter): Promise<ClipSource[]> {
  const { job, ctx } = run;
  const twitch = { gqlUrl: job.twitch.gql_url, usherUrl: job.twitch.usher_url, fetch: ctx.fetchImpl, signal: ctx.signal };
  const { playlist } = await resolveVideoRendition(twitch, job.vod.vod_id, source.media.source.group_id);
  const within = ranges.map((range) => ({ start: Math.max(0, range.start), end: Math.min(source.durationSeconds, range.end) }));
  return downloadCoveringSegments(playlist, within, path.join(ctx.workDir, "short-video"), { concurrency: run.downloadConcurrency, signal: ctx.signal, counter: bytes, fetch: ctx.fetchImpl });
}

/**
 * The re-cut's short's words over `range`: an earlier short's words where a join keeps them (reuse/recut-join.ts),
 * joined with what was heard over the rest (`edges`, heard from the short's video; the whole range without a join).
 * The range counts as covered whole, so the title's window inside it is not heard again.
 */
export function withKept(join: Pick<RecutJoin, "kept" | "hear"> | null, range: TimeRange, edges: TranscribedRanges): TranscribedRanges {
  const heard = join ? edgeWords(join, edges.words) : edges.words;
  return { words: [...(join?.kept ?? []), ...heard].sort((a, b) => a.start - b.start), covered: [{ ...range }], warnings: [...edges.warnings] };
}

/** What to hear of a re-cut's short: the join's edges (with their context) or halves, or the whole range. */
export function rangesToHear(join: Pick<RecutJoin, "hear"> | null, range: TimeRange): TimeRange[] {
  return join ? join.hear.map((h) => h.range) : [range];
}

/** What separate pieces heard (a re-cut's halves, heard side by side) as one transcription. */
export function concatHeard(parts: readonly TranscribedRanges[]): TranscribedRanges {
  return { words: parts.flatMap((p) => p.words), covered: parts.flatMap((p) => p.covered), warnings: parts.flatMap((p) => p.warnings) };
}

/** A work folder of its own for half `i` (the recogniser's wav files are named by their position in one pass). */
export async function halfDir(workDir: string, i: number): Promise<string> {
  const dir = path.join(workDir, `half-${i}`);
  await mkdir(dir, { recursive: true });
  return dir;
}
