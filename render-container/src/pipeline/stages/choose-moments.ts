import type { RunProfile } from "../../../../common/contract/enums";
import type { RenderJob } from "../../../../common/contract/render";
import { analyzeChat } from "../../analysis";
import { manualRangeWarnings, pickShorts, reelWarnings, selectProfileMoments, shortsWarning } from "../../selection";
import type { Moment } from "../../selection/types";
import type { JobProgress } from "../progress";
import type { JobContext } from "../types";
import type { Acquired } from "./acquire";

export interface Chosen {
  momentsByProfile: Partial<Record<RunProfile, Moment[]>>;
  shorts: Moment[];
  /**
   * For the manifest's `warnings`: a profile without a reel (nothing beat highlight_min_score), a reel well
   * short of its target and why, fewer shorts than asked, manual ranges past the VOD's end. Set by
   * chooseMoments; later stages that rebuild a Chosen (refined boundaries) may leave it out.
   */
  warnings?: string[];
}

/** What choosing reads of a task's run: the job's request, where to log, and the progress to report. */
export interface ChoosingRun {
  job: Pick<RenderJob, "request">;
  ctx: Pick<JobContext, "log">;
  progress: JobProgress;
}

/** Scores the whole VOD from its audio and chat, then picks each executed profile's moments and the shorts. */
export function chooseMoments(run: ChoosingRun, source: Pick<Acquired, "audio" | "comments" | "durationSeconds">): Chosen {
  const { ctx, progress } = run;
  const request = run.job.request;
  const { audio, comments, durationSeconds } = source;
  const chat = analyzeChat(comments, durationSeconds);
  progress.report("selecting", 0);

  const warnings = manualRangeWarnings(request.manual_highlights, durationSeconds);
  const momentsByProfile: Partial<Record<RunProfile, Moment[]>> = {};
  for (const profile of request.executed_profiles) {
    const tuning = request.profile_settings[profile];
    if (!tuning) continue;
    const outcome = selectProfileMoments({
      audio,
      chat,
      durationSeconds,
      tuning,
      params: request.parameters,
      manual: request.manual_highlights.filter((m) => m.run_profiles.includes(profile)),
      profile,
    });
    momentsByProfile[profile] = outcome.moments;
    // A shorts-only job renders no reel: only its shorts count.
    if (request.compilation_enabled) warnings.push(...reelWarnings(profile, outcome, tuning, durationSeconds, request.parameters.max_highlight_duration));
  }
  const shorts = pickShorts(momentsByProfile, request.num_shorts, request.manual_highlights, { durationSeconds });
  const fewerShorts = shortsWarning(shorts.length, request.num_shorts);
  if (fewerShorts) warnings.push(fewerShorts);
  progress.report("selecting", 1);
  ctx.log.info("moments chosen", {
    per_profile: Object.fromEntries(Object.entries(momentsByProfile).map(([p, ms]) => [p, ms?.length ?? 0])),
    shorts: shorts.length,
    chat_available: chat.available,
  });
  for (const w of warnings) ctx.log.warn("selection", { warning: w });
  return { momentsByProfile, shorts, warnings };
}
