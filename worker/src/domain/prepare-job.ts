import type { CostBreakdown, ErrorDetailItem, NormalizedJobRequest, Plan, VodInfo } from "../../../common/contract";
import { JobRequestInput } from "../../../common/contract/job-request";
import { TwitchUnavailableError } from "../../../common/twitch/errors";
import type { VodProbe } from "../../../common/twitch/probe";
import { parseVodUrl } from "../../../common/twitch/vod-url";
import { validationError } from "../lib/api-error";
import { clientErrorMap, issuesToDetail } from "../lib/zod-issues";
import { manualHighlightContextIssues, manualHighlightIssues } from "./manual-highlights";
import { normaliseJobRequest } from "./normalise-request";
import { shortsCap } from "./plan-caps";
import { billedOutputs, computeCost, MAX_VOD_HOURS, MAX_VOD_SECONDS } from "./pricing";
import { asNumber, asObject } from "./raw-input";
import { crossFieldIssues } from "./request-rules";

export interface PreparedJob {
  request: NormalizedJobRequest;
  cost: CostBreakdown;
  /** The probe, or null when vod_length_hours skipped it. */
  probe: VodProbe | null;
  vodDurationSeconds: number;
}

export type ProbeFn = (vodId: string) => Promise<VodProbe>;

const UNUSABLE_MESSAGES: Record<NonNullable<VodProbe["reason"]>, string> = {
  private: "the VOD is private",
  subscriber_only: "the VOD is for subscribers only",
  deleted: "the VOD does not exist (deleted or expired)",
  live: "the broadcast is still live; retry when it has ended",
};

/**
 * POST /jobs and /jobs/estimate: validates the body against the schema and every cross-field and context rule
 * (VOD probe, VOD length, plan cap), collecting all problems into one 422, then normalises and prices it.
 */
export async function prepareJob(body: unknown, account: { plan: Plan; purchased: boolean }, probe: ProbeFn): Promise<PreparedJob> {
  const raw = asObject(body);
  if (!raw) throw validationError([{ field: "body", message: "must be a JSON object" }]);

  const parsed = JobRequestInput.safeParse(raw, { error: clientErrorMap });
  const issues: ErrorDetailItem[] = parsed.success ? [] : issuesToDetail(parsed.error.issues);
  issues.push(...crossFieldIssues(raw), ...manualHighlightIssues(raw));

  const { durationSeconds, probed, issue } = await resolveVodLength(raw, probe);
  if (issue) issues.push(issue);

  const cap = shortsCap(account.plan, account.purchased);
  const requestedShorts = raw.num_shorts === undefined || raw.num_shorts === null ? 0 : asNumber(raw.num_shorts);
  const shortsAfterCap =
    requestedShorts !== undefined && Number.isInteger(requestedShorts) && requestedShorts >= 0 && requestedShorts <= 10
      ? Math.min(requestedShorts, cap)
      : null;
  issues.push(...manualHighlightContextIssues(raw, { vodDurationSeconds: durationSeconds, shortsAfterCap, shortsCap: cap }));

  if (issues.length > 0 || !parsed.success || durationSeconds === null) throw validationError(issues);

  const target = parseVodUrl(parsed.data.vod_url)!;
  const request = normaliseJobRequest(parsed.data, {
    vodId: target.vod_id,
    canonicalUrl: target.canonical_url,
    plan: account.plan,
    purchased: account.purchased,
  });
  const billed = billedOutputs(request);
  const cost = computeCost({
    vodDurationSeconds: durationSeconds,
    modelPreset: request.model_preset,
    reels: billed.reels,
    shorts: billed.shorts,
    shortsRequested: request.num_shorts_requested,
  });
  return { request, cost, probe: probed, vodDurationSeconds: durationSeconds };
}

interface VodLength {
  durationSeconds: number | null;
  probed: VodProbe | null;
  issue: ErrorDetailItem | null;
}

async function resolveVodLength(raw: Record<string, unknown>, probe: ProbeFn): Promise<VodLength> {
  if (raw.vod_length_hours !== undefined && raw.vod_length_hours !== null) {
    const hours = asNumber(raw.vod_length_hours);
    const valid = hours !== undefined && hours > 0 && hours <= MAX_VOD_HOURS;
    return { durationSeconds: valid ? hours * 3600 : null, probed: null, issue: null };
  }
  const target = typeof raw.vod_url === "string" ? parseVodUrl(raw.vod_url) : null;
  if (!target) return { durationSeconds: null, probed: null, issue: null };
  let result: VodProbe;
  try {
    result = await probe(target.vod_id);
  } catch (error) {
    if (!(error instanceof TwitchUnavailableError)) throw error;
    return {
      durationSeconds: null,
      probed: null,
      issue: {
        field: "vod_url",
        message: `the VOD could not be checked because Twitch is unreachable (${error.message}); retry later or send vod_length_hours`,
      },
    };
  }
  if (!result.usable) {
    const reason = result.reason ?? "deleted";
    return { durationSeconds: null, probed: result, issue: { field: "vod_url", message: `${UNUSABLE_MESSAGES[reason]} (${reason})` } };
  }
  if (!(result.duration_seconds > 0)) {
    return { durationSeconds: null, probed: result, issue: { field: "vod_url", message: "the VOD has no playable duration" } };
  }
  if (result.duration_seconds > MAX_VOD_SECONDS) {
    return {
      durationSeconds: null,
      probed: result,
      issue: {
        field: "vod_url",
        message: `the VOD is ${(result.duration_seconds / 3600).toFixed(2)} h long; the maximum is ${MAX_VOD_HOURS} h`,
      },
    };
  }
  return { durationSeconds: result.duration_seconds, probed: result, issue: null };
}

/** The probe in the renderer contract's shape (stored with the job). */
export function toVodInfo(p: VodProbe): VodInfo {
  return {
    vod_id: p.vod_id,
    title: p.title,
    duration_seconds: p.duration_seconds,
    streamer_login: p.streamer_login,
    streamer_display_name: p.streamer_name,
    game_name: p.game_name,
    created_at: p.created_at,
    language: p.language,
  };
}
