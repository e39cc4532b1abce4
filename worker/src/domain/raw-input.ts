import { RUN_PROFILES, type RunProfile } from "../../../common/contract";

/**
 * Readers for the raw (not yet validated) request body. Cross-field rules run on the raw body even when the
 * schema found problems elsewhere, so one 422 lists every problem; each reader returns undefined for a value
 * of the wrong type (the schema already reports that one).
 */
export type RawObject = Record<string, unknown>;

export const asObject = (v: unknown): RawObject | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as RawObject) : undefined;

export const asNumber = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export const asBoolean = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);

export const isRunProfile = (v: unknown): v is RunProfile => typeof v === "string" && (RUN_PROFILES as readonly string[]).includes(v);

/** A list of valid, distinct profiles, or undefined when it is not one (the schema reports why). */
export function asProfileList(v: unknown): RunProfile[] | undefined {
  if (!Array.isArray(v) || v.length === 0 || !v.every(isRunProfile)) return undefined;
  return new Set(v).size === v.length ? (v as RunProfile[]) : undefined;
}

/** The selected run_profiles: the list sent, [balanced] when omitted, undefined when the list is invalid. */
export function selectedProfiles(body: RawObject): RunProfile[] | undefined {
  const raw = body.run_profiles;
  return raw === undefined || raw === null ? ["balanced"] : asProfileList(raw);
}
