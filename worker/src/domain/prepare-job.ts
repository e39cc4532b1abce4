import type { AnalysisReused, CostBreakdown, ErrorDetailItem, NormalizedJobRequest, Plan, VodInfo } from "../../../common/contract";
import { JobRequestInput, VodUrlInput } from "../../../common/contract/job-request";
import { TwitchUnavailableError } from "../../../common/twitch/errors";
import type { VodProbe } from "../../../common/twitch/probe";
import { parseVodUrl } from "../../../common/twitch/vod-url";
import { validationError } from "../lib/api-error";
import { logEvent } from "../lib/log";
import { clientErrorMap, issuesToDetail } from "../lib/zod-issues";
import { manualHighlightContextIssues, manualHighlightIssues } from "./manual-highlights";
import { normaliseJobRequest } from "./normalise-request";
import { shortsCap } from "./plan-caps";
import { billedOutputs, computeCost, MAX_VOD_HOURS, MAX_VOD_SECONDS } from "./pricing";
import { asNumber, asObject } from "./raw-input";
import { crossFieldIssues } from "./request-rules";
import { billedVodSeconds } from "./vod-length";
import { checkWebhookTarget, type TargetPolicy } from "./webhook-target";

export interface PreparedJob {
  request: NormalizedJobRequest;
  cost: CostBreakdown;
  /** The probe, or null when Twitch could not be reached and vod_length_hours stood in for it. */
  probe: VodProbe | null;
  /** The VOD's real length when the probe answered, else the claimed vod_length_hours (what the renderer gets). */
  vodDurationSeconds: number;
  /** The length the price is for (see billedVodSeconds); settled against the real length later (vod-length.ts). */
  billedVodSeconds: number;
  /** An earlier analysis of this VOD by the account that this job reuses (its processing credits waived), or null. */
  analysisReused: AnalysisReused | null;
}

export type ProbeFn = (vodId: string) => Promise<VodProbe>;

/** The account's reusable analysis of the request's VOD, given the length Twitch reports now (null: not probed). */
export type FindReusableFn = (request: NormalizedJobRequest, probedSeconds: number | null) => Promise<AnalysisReused | null>;

export interface PrepareOptions {
  /** Which webhook receivers are allowed (public addresses only, loopback only when the deployment says so). */
  webhookPolicy: TargetPolicy;
  /** Looks up a stored analysis to reuse (storage/analyses.ts); absent: every job analyses its VOD. */
  findReusable?: FindReusableFn;
}

/** Each reads after the field name as one sentence: "vod_url points to a private VOD". */
const UNUSABLE_MESSAGES: Record<NonNullable<VodProbe["reason"]>, string> = {
  private: "points to a private VOD",
  subscriber_only: "points to a VOD for subscribers only",
  deleted: "points to a VOD that does not exist (deleted or expired)",
  live: "points to a broadcast that is still live; retry when it has ended",
};

/**
 * POST /jobs and /jobs/estimate: validates the body against the schema and every cross-field and context rule
 * (VOD probe, VOD length, plan cap), collecting all problems into one 422, then normalises and prices it.
 */
export async function prepareJob(
  body: unknown,
  account: { plan: Plan; purchased: boolean },
  probe: ProbeFn,
  // The default is the deployed one: public webhook receivers only.
  options: PrepareOptions = { webhookPolicy: { allowLoopback: false } },
): Promise<PreparedJob> {
  const raw = asObject(body);
  if (!raw) throw validationError([{ field: "body", message: "must be a JSON object" }]);

  const parsed = JobRequestInput.safeParse(raw, { error: clientErrorMap });
  const issues: ErrorDetailItem[] = parsed.success ? [] : issuesToDetail(parsed.error.issues);
  issues.push(...crossFieldIssues(raw), ...manualHighlightIssues(raw));

  // The schema checked the URL's form; whether its host may be called depends on the deployment's policy.
  let webhookUrl: string | null = null;
  if (parsed.success && parsed.data.webhook_url) {
    const target = checkWebhookTarget(parsed.data.webhook_url, options.webhookPolicy);
    if (target.ok) webhookUrl = target.url;
    else issues.push({ field: "webhook_url", message: target.message });
  }

  const { durationSeconds, billedSeconds, probed, issue } = await resolveVodLength(raw, probe);
  if (issue) issues.push(issue);

  const cap = shortsCap(account.plan, account.purchased);
  const requestedShorts = raw.num_shorts === undefined || raw.num_shorts === null ? 0 : asNumber(raw.num_shorts);
  const shortsAfterCap =
    requestedShorts !== undefined && Number.isInteger(requestedShorts) && requestedShorts >= 0 && requestedShorts <= 10
      ? Math.min(requestedShorts, cap)
      : null;
  issues.push(...manualHighlightContextIssues(raw, { vodDurationSeconds: durationSeconds, shortsAfterCap, shortsCap: cap }));

  if (issues.length > 0 || !parsed.success || durationSeconds === null || billedSeconds === null) throw validationError(issues);

  const target = parseVodUrl(parsed.data.vod_url)!;
  const request = normaliseJobRequest(parsed.data, {
    vodId: target.vod_id,
    canonicalUrl: target.canonical_url,
    plan: account.plan,
    purchased: account.purchased,
  });
  // Stored and called in its normalised form (lower-case host, dotted IPv4, compressed IPv6).
  request.webhook_url = webhookUrl;
  const billed = billedOutputs(request);
  const analysisReused = options.findReusable ? await options.findReusable(request, probed?.duration_seconds ?? null) : null;
  const cost = computeCost({
    vodDurationSeconds: billedSeconds,
    modelPreset: request.model_preset,
    reels: billed.reels,
    shorts: billed.shorts,
    shortsRequested: request.num_shorts_requested,
    analysisReused,
  });
  return { request, cost, probe: probed, vodDurationSeconds: durationSeconds, billedVodSeconds: billedSeconds, analysisReused };
}

interface VodLength {
  /** The length the job works on: the probed one, or the claim when Twitch could not be reached. */
  durationSeconds: number | null;
  /** The length the job is billed for (see billedVodSeconds). */
  billedSeconds: number | null;
  probed: VodProbe | null;
  issue: ErrorDetailItem | null;
}

const noLength = (probed: VodProbe | null, issue: ErrorDetailItem | null): VodLength => ({ durationSeconds: null, billedSeconds: null, probed, issue });

/**
 * The VOD is probed whether or not vod_length_hours was sent: the renderer processes the whole VOD, so the price
 * follows its real length. vod_length_hours only stands in when Twitch cannot be reached (then the claim is
 * billed as sent, and settled against the real length when the analysis has opened the VOD: vod-length.ts).
 */
async function resolveVodLength(raw: Record<string, unknown>, probe: ProbeFn): Promise<VodLength> {
  const claimGiven = raw.vod_length_hours !== undefined && raw.vod_length_hours !== null;
  const hours = claimGiven ? asNumber(raw.vod_length_hours) : undefined;
  const claimedSeconds = hours !== undefined && hours > 0 && hours <= MAX_VOD_HOURS ? hours * 3600 : null;
  // An invalid claim is reported by the schema; nothing can be priced without a valid one.
  if (claimGiven && claimedSeconds === null) return noLength(null, null);

  // Only a vod_url the schema accepts is looked up (an over-long one used to be probed all the same, adding a
  // second problem about the VOD to "must be at most 2048 characters").
  const target = VodUrlInput.safeParse(raw.vod_url).success ? parseVodUrl(raw.vod_url as string) : null;
  if (!target) return noLength(null, null);
  let result: VodProbe;
  try {
    result = await probe(target.vod_id);
  } catch (error) {
    if (!(error instanceof TwitchUnavailableError)) throw error;
    if (claimedSeconds !== null) return { durationSeconds: claimedSeconds, billedSeconds: claimedSeconds, probed: null, issue: null };
    logEvent("warn", "twitch probe failed", { vod_id: target.vod_id, error: error.message });
    return noLength(null, {
      field: "vod_url",
      // Twitch's own error text (status codes, network errors) is for the log above, not for clients.
      message: "could not be checked because Twitch is unreachable; retry later or send vod_length_hours",
    });
  }
  if (!result.usable) return noLength(result, { field: "vod_url", message: UNUSABLE_MESSAGES[result.reason ?? "deleted"] });
  if (!(result.duration_seconds > 0)) return noLength(result, { field: "vod_url", message: "points to a VOD without a playable duration" });
  if (result.duration_seconds > MAX_VOD_SECONDS) {
    return noLength(result, {
      field: "vod_url",
      message: `points to a VOD of ${(result.duration_seconds / 3600).toFixed(2)} h; the maximum is ${MAX_VOD_HOURS} h`,
    });
  }
  const real = result.duration_seconds;
  return { durationSeconds: real, billedSeconds: claimedSeconds === null ? real : billedVodSeconds(claimedSeconds, real), probed: result, issue: null };
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
