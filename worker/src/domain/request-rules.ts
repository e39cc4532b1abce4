import type { ErrorDetailItem } from "../../../common/contract";
import { asBoolean, asNumber, asObject, isRunProfile, selectedProfiles, type RawObject } from "./raw-input";

/**
 * Request rules that tie several fields together (docs/API.md, Validation rules). Runs on the raw body; returns
 * every problem found.
 */
export function crossFieldIssues(body: RawObject): ErrorDetailItem[] {
  const issues: ErrorDetailItem[] = [];
  const compilation = body.compilation_enabled === undefined || body.compilation_enabled === null ? true : asBoolean(body.compilation_enabled);

  const finalLength = asNumber(body.final_video_length_minutes);
  if (finalLength !== undefined && finalLength >= 0 && finalLength < 1) {
    if (finalLength > 0) {
      issues.push({ field: "final_video_length_minutes", message: "must be between 1 and 30 (0 only with compilation_enabled false)" });
    } else if (compilation !== false) {
      issues.push({
        field: "final_video_length_minutes",
        message: "may be 0 only together with compilation_enabled false (a shorts-only job)",
      });
    }
  }

  if (compilation === false) {
    const shorts = body.num_shorts === undefined || body.num_shorts === null ? 0 : asNumber(body.num_shorts);
    if (shorts === 0) {
      issues.push({ field: "num_shorts", message: "must be greater than 0 when compilation_enabled is false (a shorts-only job)" });
    }
  }

  const overrides = asObject(body.run_overrides);
  if (overrides) {
    const selected = selectedProfiles(body);
    for (const [key, value] of Object.entries(overrides)) {
      // null is "no override" (as if the key were absent): nothing is asked of that profile, so nothing to refuse.
      if (value === null) continue;
      if (!isRunProfile(key)) {
        issues.push({ field: `run_overrides.${key}`, message: "is not a run profile (balanced, audience or streamer)" });
      } else if (selected && !selected.includes(key)) {
        issues.push({
          field: `run_overrides.${key}`,
          message: `overrides a profile that is not selected in run_profiles (${selected.join(", ")})`,
        });
      }
    }
  }
  return issues;
}
