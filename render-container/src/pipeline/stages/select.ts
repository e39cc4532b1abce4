import type { ByteCounter } from "../../source";
import { placeAroundFormatSwitches, type FormatSwitch } from "../format-switches";
import { JobError } from "../job-error";
import type { RenderPlan } from "../render-plan";
import type { TaskRun } from "../task-run";
import type { Acquired } from "./acquire";
import type { AudioAnalysis } from "../../analysis";
import type { Chosen } from "./choose-moments";
import { chooseHearingEdges } from "./hear-edges";
import { planRendering } from "./plan-rendering";

export interface Selection {
  /** The moments after they were kept off the video's format switches (their warnings included). */
  chosen: Chosen;
  switches: FormatSwitch[];
  /** What gets rendered; a job with nothing to render has failed before this exists. */
  plan: RenderPlan;
  /** The analysis with the pauses heard around the clip edges (what a later job reusing it starts from). */
  audio: AudioAnalysis;
}

/**
 * Chooses each profile's moments and the shorts (chooseMoments, with the speech around their edges heard:
 * hear-edges.ts), keeps them off the places where an fMP4 video
 * changes its media format (init sections fetched only where a moment crosses a change, counted in `initBytes`),
 * and plans what gets rendered. Fails with no_highlights_found, or vod_format_unsupported when the format changes
 * took every moment away, before any video segment is downloaded.
 */
export async function selectMoments(run: TaskRun, source: Pick<Acquired, "audio" | "comments" | "durationSeconds" | "media">, initBytes: ByteCounter): Promise<Selection> {
  const { job, ctx } = run;
  const request = job.request;
  const heard = await chooseHearingEdges(run, source);
  const picked = heard.warning ? { ...heard.chosen, warnings: [...(heard.chosen.warnings ?? []), heard.warning] } : heard.chosen;
  if (heard.heardSeconds > 0) ctx.log.info("clip edges heard", { heard_seconds: Math.round(heard.heardSeconds) });
  const limits = { minDuration: request.parameters.min_highlight_duration, durationSeconds: source.durationSeconds };
  const placed = await placeAroundFormatSwitches(picked, source.media.videoPlaylist, limits, { concurrency: run.downloadConcurrency, signal: ctx.signal, counter: initBytes, fetch: ctx.fetchImpl });
  if (placed.adjusted.length > 0) ctx.log.info("moments moved off format switches", { switches: placed.switches.map((s) => s.at), adjusted: placed.adjusted });
  const droppedAtSwitches = placed.adjusted.some((a) => a.to === null);
  const plan = planRendering(
    request,
    placed.chosen,
    droppedAtSwitches
      ? new JobError("vod_format_unsupported", "Every moment chosen in this VOD crossed a change of its media format (a stream reconnect) and none could be moved clear of it, so there was nothing to render. Your credits were refunded.")
      : undefined,
  );
  return { chosen: placed.chosen, switches: placed.switches, plan, audio: heard.audio };
}
