import path from "node:path";
import type { JobPlan, RenderTaskRequest } from "../../../../common/contract/job-plan";
import { detectSceneCuts } from "../../analysis";
import { downloadCoveringSegments, resolveVideoRendition, type ClipSource, type TimeRange } from "../../source";
import type { TaskContext } from "../types";

/** What a render task needs from the request besides its own spec: the job, its plan, its context, its settings. */
export interface RenderTaskRun {
  req: RenderTaskRequest;
  plan: JobPlan;
  ctx: TaskContext;
  config: RenderTaskSettings;
}

export interface RenderTaskSettings {
  downloadConcurrency: number;
  /** Hard bound on the video bytes one task may download (disk guard). */
  maxVideoBytesPerJob: number;
  /** Pieces encoded at once. */
  encodeConcurrency: number;
  /** The renderer's environment: transcriber settings. */
  env: NodeJS.ProcessEnv;
}

/** Ranges cut where the video changes its media format: one downloaded file holds one initialisation section. */
export function splitAtFormatSwitches(ranges: readonly TimeRange[], switches: readonly number[]): TimeRange[] {
  return ranges.flatMap((r) => {
    const cuts = switches.filter((t) => t > r.start + 1e-3 && t < r.end - 1e-3).sort((a, b) => a - b);
    const edges = [r.start, ...cuts, r.end];
    return edges.slice(1).map((end, k) => ({ start: edges[k]!, end }));
  });
}

/**
 * The task's own video: resolves the VOD again, takes the rendition the analysis chose, and downloads only the
 * segments that cover `ranges` (split at the plan's format switches), into the task's work folder.
 */
export async function downloadTaskVideo(run: RenderTaskRun, ranges: readonly TimeRange[], onProgress: (stage: "resolving" | "downloading", fraction: number) => void): Promise<ClipSource[]> {
  const { req, plan, ctx, config } = run;
  onProgress("resolving", 0);
  const twitch = { gqlUrl: req.twitch.gql_url, usherUrl: req.twitch.usher_url, fetch: ctx.fetchImpl, signal: ctx.signal };
  const { playlist } = await resolveVideoRendition(twitch, req.vod.vod_id, plan.source.video_rendition);
  onProgress("resolving", 1);
  onProgress("downloading", 0);
  const within = ranges.map((r) => ({ start: Math.max(0, r.start), end: Math.min(plan.source.duration_seconds, r.end) }));
  const clips = await downloadCoveringSegments(playlist, splitAtFormatSwitches(within, plan.source.format_switches), path.join(ctx.workDir, "video"), {
    concurrency: config.downloadConcurrency,
    signal: ctx.signal,
    counter: ctx.videoBytes,
    maxBytes: config.maxVideoBytesPerJob,
    fetch: ctx.fetchImpl,
    onProgress: (f) => onProgress("downloading", f),
  });
  ctx.log.info("task video fetched", { clips: clips.length, bytes: clips.reduce((s, c) => s + c.bytes, 0) });
  return clips;
}

/** Scene cuts in VOD seconds found on the downloaded clips (keyframes only), sorted. */
export async function sceneCutsIn(clips: readonly ClipSource[], signal: AbortSignal): Promise<number[]> {
  const cuts: number[] = [];
  for (const clip of clips) for (const t of await detectSceneCuts(clip.path, { signal })) cuts.push(clip.media_start_seconds + t);
  return cuts.sort((a, b) => a - b);
}

/** The plan's moment a task is about; a plan that lacks it is malformed (checked when the request is accepted). */
export function planMoment(plan: JobPlan, id: string) {
  const m = plan.moments.find((x) => x.id === id);
  if (!m) throw new Error(`the job plan has no moment "${id}"`);
  return m;
}
