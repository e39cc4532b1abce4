import path from "node:path";
import type { MediaPlaylist } from "../../../../common/twitch";
import { detectSceneCuts } from "../../analysis";
import { refineMoments } from "../../selection";
import type { Moment } from "../../selection/types";
import { downloadCoveringSegments, type ByteCounter, type ClipSource } from "../../source";
import { JobError } from "../job-error";
import type { JobProgress } from "../progress";
import { buildRenderPlan, type RenderPlan } from "../render-plan";
import type { JobContext } from "../types";
import type { NormalizedJobRequest } from "../../../../common/contract/normalized-request";
import type { Chosen } from "./choose-moments";

export interface FetchedVideo {
  plan: RenderPlan;
  clips: ClipSource[];
  /** The chosen moments after snapping to scene cuts: what is rendered and reported. */
  chosen: Chosen;
}

/** The downloaded clip that holds a whole VOD range. */
export function clipFor(clips: readonly ClipSource[], start: number, end: number): ClipSource {
  const clip = clips.find((c) => c.media_start_seconds <= start + 1e-3 && c.media_end_seconds >= end - 1e-3);
  if (!clip) throw new JobError("render_failed", `No downloaded video covers ${start.toFixed(2)}-${end.toFixed(2)} s.`);
  return clip;
}

/**
 * The first render plan from the chosen moments; a job with nothing to render fails here, before any download,
 * with `whyEmpty` when a later step (not the score threshold) took the moments away.
 */
export function planRendering(request: NormalizedJobRequest, chosen: Chosen, whyEmpty?: JobError): RenderPlan {
  const plan = buildRenderPlan(request, chosen.momentsByProfile, chosen.shorts);
  if (plan.reels.length === 0 && plan.shorts.length === 0) {
    if (whyEmpty) throw whyEmpty;
    throw new JobError(
      "no_highlights_found",
      "No moment of this VOD scored above highlight_min_score, so there was nothing to render. Lower highlight_min_score in run_overrides or add manual_highlights. Your credits were refunded.",
    );
  }
  return plan;
}

/**
 * Downloads only the source-quality segments that cover the planned moments, then snaps automatic moments'
 * ends to scene cuts found on those segments (keyframe-only detection), staying inside what was downloaded.
 */
export async function fetchVideo(request: NormalizedJobRequest, chosen: Chosen, firstPlan: RenderPlan, playlist: MediaPlaylist, durationSeconds: number, ctx: JobContext, progress: JobProgress, bytes: ByteCounter, opts: { concurrency: number; maxBytes: number }): Promise<FetchedVideo> {
  progress.report("downloading_video", 0);
  const clips = await downloadCoveringSegments(playlist, firstPlan.videoRanges, path.join(ctx.workDir, "video"), {
    concurrency: opts.concurrency,
    signal: ctx.signal,
    counter: bytes,
    maxBytes: opts.maxBytes,
    onProgress: progress.reporter("downloading_video"),
  });

  const cuts: number[] = [];
  for (const clip of clips) {
    for (const t of await detectSceneCuts(clip.path, { signal: ctx.signal })) cuts.push(clip.media_start_seconds + t);
  }
  cuts.sort((a, b) => a - b);
  // Moments that are reported but not rendered (a shorts-only job's profile moments) have no video here.
  const coverage = (m: Moment) => {
    const clip = clips.find((c) => c.media_start_seconds <= m.start + 1e-3 && c.media_end_seconds >= m.end - 1e-3);
    return clip && { start: clip.media_start_seconds, end: clip.media_end_seconds };
  };
  const limits = { minDuration: request.parameters.min_highlight_duration, maxDuration: request.parameters.max_highlight_duration, durationSeconds };
  const momentsByProfile: Chosen["momentsByProfile"] = Object.fromEntries(Object.entries(chosen.momentsByProfile).map(([p, ms]) => [p, refineMoments(ms ?? [], cuts, limits, coverage)]));
  const shorts = chosen.shorts.map((m) => (m.source === "manual" ? m : refineShort(m, cuts, clipFor(clips, m.start, m.end))));
  const plan = buildRenderPlan(request, momentsByProfile, shorts);
  ctx.log.info("video fetched", { clips: clips.length, bytes: clips.reduce((s, c) => s + c.bytes, 0), scene_cuts: cuts.length });
  return { plan, clips, chosen: { ...chosen, momentsByProfile, shorts } };
}

/** How far a short's start may move to a scene cut (earlier or later). */
export const SHORT_SNAP_SECONDS = 1.5;

/**
 * Shorts keep their length (they were sized around the peak); a nearby cut before the peak only nudges the
 * start, and the short stays inside the clip that holds it.
 */
export function refineShort<M extends { start: number; end: number; peak: number }>(m: M, cuts: readonly number[], clip: { media_start_seconds: number; media_end_seconds: number }): M {
  const len = m.end - m.start;
  const near = cuts.filter((c) => Math.abs(c - m.start) <= SHORT_SNAP_SECONDS && c < m.peak);
  if (near.length === 0) return m;
  const start = Math.max(clip.media_start_seconds, Math.min(near[0]!, clip.media_end_seconds - len));
  return { ...m, start, end: start + len };
}
