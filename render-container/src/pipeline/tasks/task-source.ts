import path from "node:path";
import type { ClipTask, JobPlan, RenderTaskRequest } from "../../../../common/contract/job-plan";
import { detectSceneCuts } from "../../analysis";
import { BOUNDARY_RULES } from "../../selection";
import { downloadCoveringSegments, resolveVideoRendition, type ClipSource, type TimeRange } from "../../source";
import type { TaskContext } from "../types";
import { SHORT_SNAP_SECONDS } from "./clips";

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
  /** Emote CDN base for the chat overlay (config.ts); absent: TWITCH_EMOTE_URL in env, else Twitch's CDN. */
  emoteBaseUrl?: string;
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

/**
 * A clip task's downloaded video, possibly shared with the other members of its group: the clips and their
 * scene cuts, found once however many members ask.
 */
export interface TaskVideo {
  clips: ClipSource[];
  sceneCuts(): Promise<number[]>;
}

export function taskVideo(clips: ClipSource[], signal: AbortSignal): TaskVideo {
  let cuts: Promise<number[]> | null = null;
  return { clips, sceneCuts: () => (cuts ??= sceneCutsIn(clips, signal)) };
}

/** The VOD ranges a clip task needs: its range with room to snap, and (reel moments) its teaser snippets. */
export function clipRanges(task: ClipTask): TimeRange[] {
  if (task.kind === "short") {
    const pad = task.snap ? SHORT_SNAP_SECONDS : 0;
    return [{ start: task.start - pad, end: task.end + pad }];
  }
  // Snapping moves an edge by at most the cut tolerance, never outside the window: that much more is downloaded.
  const tol = BOUNDARY_RULES.cutToleranceSeconds;
  const range = task.snap ? { start: Math.max(task.snap.min_start, task.start - tol), end: Math.min(task.snap.max_end, task.end + tol) } : { start: task.start, end: task.end };
  return [range, ...task.teasers.map((t) => ({ start: t.start, end: t.end }))];
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
