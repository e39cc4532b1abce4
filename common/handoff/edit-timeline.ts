import type { RunProfile } from "../contract/enums";
import { memberResults, reelPartName, unitTasks, type JobPlan, type TaskResult } from "../contract/job-plan";
import { editRate, pieceBoundaries, toFrames } from "./frames";

/**
 * A reel as an editor sees it: its pieces in order, each a stretch of the source VOD, on one frame grid. What the
 * .otio and .edl writers (otio.ts, edl.ts) both write, so the two files always agree.
 */
export interface EditTimeline {
  /** The reel's title. */
  title: string;
  run_name: RunProfile;
  /** The reel's file name (reel-<profile>.mp4). */
  reel_name: string;
  /** Integer frames per second of every frame count below (frames.ts editRate). */
  rate: number;
  source: {
    /** The VOD's URL as requested; null in plans made before it was recorded. */
    url: string | null;
    /** A name for the source (the EDL's clip name, the OTIO reference's name): `twitch-vod-<id>`. */
    name: string;
    duration_frames: number;
  };
  events: EditEvent[];
  /** The reel's length in frames: the last event's record out. */
  duration_frames: number;
}

export interface EditEvent {
  /** A teaser snippet before the reel's moments, or a moment. */
  kind: "teaser" | "moment";
  moment_id: string;
  /** The moment's title (a teaser: "Teaser: " + its moment's title). */
  name: string;
  /** The piece's range on the VOD clock, seconds, to the millisecond (a moment's: its manifest highlight's edges). */
  vod_start: number;
  vod_end: number;
  /** Source in on the VOD clock, and the piece's length in the reel, frames (source out = in + length). */
  source_in: number;
  /** Record in: where the piece starts in the reel, frames from its first. */
  record_in: number;
  frames: number;
}

const ms = (n: number) => Math.round(n * 1000) / 1000;

interface Piece {
  position: number;
  kind: EditEvent["kind"];
  moment_id: string;
  start: number;
  end: number;
}

/**
 * The reel's pieces in order with their VOD ranges: per reel_moment task its teaser snippets (as planned, cut
 * from inside the moment) and the moment at the edges its task settled on (after a snap), as finalise lists them.
 */
function reelPieces(plan: JobPlan, results: readonly TaskResult[], run: RunProfile): Piece[] {
  const bounds = new Map<string, { start: number; end: number }>();
  for (const r of memberResults(results)) if (r.kind === "reel_moment") bounds.set(r.moment.id, r.moment);
  const pieces: Piece[] = [];
  for (const t of unitTasks(plan.tasks)) {
    if (t.kind !== "reel_moment" || t.run_name !== run) continue;
    for (const teaser of t.teasers) pieces.push({ position: teaser.position, kind: "teaser", moment_id: t.moment_id, start: teaser.start, end: teaser.end });
    const at = bounds.get(t.moment_id) ?? { start: t.start, end: t.end };
    pieces.push({ position: t.position, kind: "moment", moment_id: t.moment_id, start: at.start, end: at.end });
  }
  return pieces.sort((a, b) => a.position - b.position);
}

/**
 * A delivered reel's edit timeline, from the plan and the render tasks' results: each piece's length is that of
 * its encoded part (what the join put in the reel), the record side ends at the reel's own measured length.
 * null when a piece's part is not among the results (nothing to describe truthfully).
 */
export function reelEditTimeline(plan: JobPlan, results: readonly TaskResult[], reel: { run_name: RunProfile; name: string; title: string | null; duration_seconds: number | null }): EditTimeline | null {
  const pieces = reelPieces(plan, results, reel.run_name);
  if (pieces.length === 0) return null;
  const partSeconds = new Map<string, number>();
  for (const r of memberResults(results)) if (r.kind === "reel_moment") for (const p of r.parts) partSeconds.set(p.name, p.duration_seconds);
  const seconds = pieces.map((p) => partSeconds.get(reelPartName(reel.run_name, p.position)));
  if (seconds.some((s) => s === undefined)) return null;
  const lengths = seconds as number[];
  const rate = editRate(plan.source.frame_rate);
  const total = reel.duration_seconds ?? lengths.reduce((a, b) => a + b, 0);
  const at = pieceBoundaries(lengths, total, rate);
  const titles = new Map(plan.moments.map((m) => [m.id, m.title]));
  const events = pieces.map((p, i): EditEvent => {
    const title = titles.get(p.moment_id) ?? p.moment_id;
    return {
      kind: p.kind,
      moment_id: p.moment_id,
      name: p.kind === "teaser" ? `Teaser: ${title}` : title,
      vod_start: ms(p.start),
      vod_end: ms(p.end),
      source_in: toFrames(p.start, rate),
      record_in: at[i]!,
      frames: at[i + 1]! - at[i]!,
    };
  });
  return {
    title: reel.title ?? reel.name,
    run_name: reel.run_name,
    reel_name: reel.name,
    rate,
    source: { url: plan.source.vod_url ?? null, name: sourceName(plan.source.vod_url), duration_frames: toFrames(plan.source.duration_seconds, rate) },
    events,
    duration_frames: at.at(-1)!,
  };
}

/** `twitch-vod-<id>` from a VOD URL (…/videos/<id>), else `twitch-vod`. */
function sourceName(url: string | undefined): string {
  const id = url?.match(/videos\/(\d+)/)?.[1];
  return id ? `twitch-vod-${id}` : "twitch-vod";
}
