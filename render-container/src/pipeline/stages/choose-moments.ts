import type { RunProfile } from "../../../../common/contract/enums";
import type { NormalizedJobRequest } from "../../../../common/contract/normalized-request";
import type { ChatComment } from "../../../../common/twitch";
import { analyzeChat, type AudioAnalysis } from "../../analysis";
import { pickShorts, selectMoments } from "../../selection";
import type { Moment } from "../../selection/types";
import type { JobProgress } from "../progress";
import type { JobContext } from "../types";

export interface Chosen {
  momentsByProfile: Partial<Record<RunProfile, Moment[]>>;
  shorts: Moment[];
}

/** Scores the whole VOD from its audio and chat, then picks each executed profile's moments and the shorts. */
export function chooseMoments(request: NormalizedJobRequest, audio: AudioAnalysis, comments: ChatComment[], durationSeconds: number, ctx: JobContext, progress: JobProgress): Chosen {
  const chat = analyzeChat(comments, durationSeconds);
  progress.report("selecting", 0);

  const momentsByProfile: Partial<Record<RunProfile, Moment[]>> = {};
  for (const profile of request.executed_profiles) {
    const tuning = request.profile_settings[profile];
    if (!tuning) continue;
    momentsByProfile[profile] = selectMoments({
      audio,
      chat,
      durationSeconds,
      tuning,
      params: request.parameters,
      manual: request.manual_highlights.filter((m) => m.run_profiles.includes(profile)),
      profile,
    });
  }
  const shorts = pickShorts(momentsByProfile, request.num_shorts, request.manual_highlights, { durationSeconds });
  progress.report("selecting", 1);
  ctx.log.info("moments chosen", {
    per_profile: Object.fromEntries(Object.entries(momentsByProfile).map(([p, ms]) => [p, ms?.length ?? 0])),
    shorts: shorts.length,
    chat_available: chat.available,
  });
  return { momentsByProfile, shorts };
}
