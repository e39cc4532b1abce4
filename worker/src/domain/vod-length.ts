import type { NormalizedJobRequest } from "../../../common/contract/normalized-request";
import { billedOutputs, computeCost } from "./pricing";

/**
 * Billing the VOD's real length. The renderer processes the whole VOD, so the price follows its real length:
 *
 * - at acceptance the job is priced on the probed length, or on max(vod_length_hours, probed) when a claim is sent
 *   (a claim within the tolerance below the probe is billed as sent), or on the claim alone when Twitch cannot be
 *   reached (`billedVodSeconds`);
 * - when the analysis task has opened the VOD, its real length is known: a real length longer than billed beyond
 *   the tolerance is billed, and the difference reserved before any render task starts (`atAnalysis`);
 * - at completion a billed length above the real one is lowered to it and the difference refunded (`atCompletion`).
 *
 * Differences are the credit_cost formula (computeCost) at the two lengths, so processing credits round up
 * exactly as they do at acceptance.
 */

/**
 * How far a billed length may fall short of the real length and still be billed as it is: 2 % of the real length
 * or 60 s, whichever is larger (a client rounding 1 h 1 min down to 1 h pays for 1 h).
 */
export const CLAIM_TOLERANCE_RATIO = 0.02;
export const CLAIM_TOLERANCE_MIN_SECONDS = 60;

export function lengthTolerance(realSeconds: number): number {
  return Math.max(CLAIM_TOLERANCE_MIN_SECONDS, realSeconds * CLAIM_TOLERANCE_RATIO);
}

/** The billed length: max(claim, real), where a claim within the tolerance below the real length counts as enough. */
export function billedVodSeconds(claimedSeconds: number, realSeconds: number): number {
  return claimedSeconds + lengthTolerance(realSeconds) >= realSeconds ? claimedSeconds : realSeconds;
}

/** The job's credit_cost if its VOD were `seconds` long: the same outputs, the same formula. */
export function creditsAt(request: Pick<NormalizedJobRequest, "model_preset" | "compilation_enabled" | "executed_profiles" | "num_shorts" | "num_shorts_requested">, seconds: number): number {
  const billed = billedOutputs(request);
  return computeCost({ vodDurationSeconds: seconds, modelPreset: request.model_preset, reels: billed.reels, shorts: billed.shorts, shortsRequested: request.num_shorts_requested }).total;
}

type Priced = Parameters<typeof creditsAt>[0];

/** The real length is longer than billed beyond the tolerance: bill it and reserve `extraCredits` (may be 0 after rounding). */
export interface LengthIncrease {
  billedSeconds: number;
  extraCredits: number;
}

/** What the real length measured by the analysis changes now; null when the billed length stands. */
export function atAnalysis(request: Priced, billedSeconds: number, realSeconds: number): LengthIncrease | null {
  if (billedVodSeconds(billedSeconds, realSeconds) === billedSeconds) return null;
  return { billedSeconds: realSeconds, extraCredits: Math.max(0, creditsAt(request, realSeconds) - creditsAt(request, billedSeconds)) };
}

/** The billed length was above the real one: bill the real length and refund `refundCredits` (may be 0 after rounding). */
export interface LengthDecrease {
  billedSeconds: number;
  refundCredits: number;
  /** The ledger entry's reason. */
  reason: string;
}

/** What the real length changes at completion; null when the billed length is not above it. */
export function atCompletion(request: Priced, billedSeconds: number, realSeconds: number): LengthDecrease | null {
  if (!(billedSeconds > realSeconds)) return null;
  return {
    billedSeconds: realSeconds,
    refundCredits: Math.max(0, creditsAt(request, billedSeconds) - creditsAt(request, realSeconds)),
    reason: `VOD shorter than billed: real length ${lengthText(realSeconds)}, ${lengthText(billedSeconds)} billed`,
  };
}

/** The ledger reason of a reservation for a longer VOD. */
export function increaseReason(billedSeconds: number, realSeconds: number): string {
  return `VOD longer than billed: real length ${lengthText(realSeconds)}, ${lengthText(billedSeconds)} billed at acceptance`;
}

/** The job error when the account cannot cover a longer VOD: names the real length, what was billed and the shortfall. */
export function unpaidLengthMessage(billedSeconds: number, realSeconds: number, extraCredits: number, available: number): string {
  return (
    `The VOD is ${lengthText(realSeconds)} long, but ${lengthText(billedSeconds)} was billed when the job was accepted; ` +
    `the ${extraCredits} more credits the real length costs exceed the account's balance of ${available}. ` +
    "Nothing was rendered and all credits were refunded; add credits and submit the job again."
  );
}

/** The job error when the VOD measured by the renderer is over the maximum a job may process. */
export function tooLongMessage(realSeconds: number, maxHours: number): string {
  return (
    `The VOD is ${lengthText(realSeconds)} long; the maximum is ${maxHours} h (Twitch could not be reached to check its length when the job was accepted). ` +
    "Nothing was rendered and all credits were refunded."
  );
}

/** "2.00 h (7200 s)": hours as the price is quoted, seconds as measured. */
export function lengthText(seconds: number): string {
  return `${(seconds / 3600).toFixed(2)} h (${Math.round(seconds)} s)`;
}

/** How the price of an estimate (and of the job it would create) follows the VOD's length, in one paragraph. */
export function billingNote(billedSeconds: number, claimedSeconds: number | null, probedSeconds: number | null): string {
  let basis: string;
  if (probedSeconds === null) basis = `Priced on vod_length_hours, ${lengthText(billedSeconds)}, because Twitch could not be reached.`;
  else if (claimedSeconds === null || billedSeconds === probedSeconds) basis = `Priced on the probed length, ${lengthText(billedSeconds)}.`;
  else if (billedSeconds > probedSeconds) basis = `Priced on vod_length_hours, ${lengthText(billedSeconds)}, above the probed ${lengthText(probedSeconds)}.`;
  else basis = `Priced on vod_length_hours, ${lengthText(billedSeconds)}, within the tolerance below the probed ${lengthText(probedSeconds)}.`;
  return (
    `${basis} The job is billed for the VOD's real length, measured when the renderer opens it: a real length longer ` +
    `than billed by more than ${CLAIM_TOLERANCE_RATIO * 100} % (at least ${CLAIM_TOLERANCE_MIN_SECONDS} s) reserves the difference before ` +
    "anything is rendered (the job fails with insufficient_credits and a full refund if the balance cannot cover it); " +
    "a billed length above the real one is refunded the difference at completion."
  );
}
