import type { ErrorDetailItem, NormalizedManualHighlight, RunProfile } from "../../../common/contract";
import type { ManualHighlightInput } from "../../../common/contract/job-request";
import { asNumber, asObject, asProfileList, selectedProfiles, type RawObject } from "./raw-input";

interface RawRange {
  index: number;
  start: number;
  end: number;
  profiles: RunProfile[];
}

/** Entries whose times are numbers, with their profiles resolved (omitted = every selected profile). */
function readRanges(body: RawObject, selected: RunProfile[]): RawRange[] {
  const list = Array.isArray(body.manual_highlights) ? body.manual_highlights : [];
  const ranges: RawRange[] = [];
  list.forEach((item, index) => {
    const entry = asObject(item);
    const start = asNumber(entry?.start_seconds);
    const end = asNumber(entry?.end_seconds);
    if (!entry || start === undefined || end === undefined) return;
    const profiles = entry.run_profiles === undefined || entry.run_profiles === null ? selected : asProfileList(entry.run_profiles);
    if (profiles) ranges.push({ index, start, end, profiles });
  });
  return ranges;
}

/** Manual-highlight rules needing the rest of the request: profiles must be selected; overlaps only across profiles. */
export function manualHighlightIssues(body: RawObject): ErrorDetailItem[] {
  const selected = selectedProfiles(body);
  if (!selected) return [];
  const issues: ErrorDetailItem[] = [];
  const ranges = readRanges(body, selected);
  for (const r of ranges) {
    const foreign = r.profiles.filter((p) => !selected.includes(p));
    if (foreign.length > 0) {
      issues.push({
        field: `manual_highlights[${r.index}].run_profiles`,
        message: `may list only selected profiles (${selected.join(", ")}); not selected: ${foreign.join(", ")}`,
      });
    }
  }
  for (let j = 0; j < ranges.length; j++) {
    for (let i = 0; i < j; i++) {
      const a = ranges[i]!;
      const b = ranges[j]!;
      const shared = a.profiles.filter((p) => b.profiles.includes(p));
      if (shared.length > 0 && a.start < b.end && b.start < a.end) {
        issues.push({
          field: `manual_highlights[${b.index}]`,
          // Names the other entry by its index only: the field already says which list this is.
          message: `overlaps entry ${a.index} (${a.start}-${a.end} s) and both apply to ${shared.join(", ")}; ranges may overlap only when they share no profile`,
        });
      }
    }
  }
  return issues;
}

/** Rules that need the VOD's length and the account's shorts cap. */
export function manualHighlightContextIssues(
  body: RawObject,
  context: { vodDurationSeconds: number | null; shortsAfterCap: number | null; shortsCap: number },
): ErrorDetailItem[] {
  const issues: ErrorDetailItem[] = [];
  const list = Array.isArray(body.manual_highlights) ? body.manual_highlights : [];
  if (context.vodDurationSeconds !== null) {
    list.forEach((item, index) => {
      const end = asNumber(asObject(item)?.end_seconds);
      if (end !== undefined && end > context.vodDurationSeconds!) {
        issues.push({
          field: `manual_highlights[${index}].end_seconds`,
          message: `must lie within the VOD (${context.vodDurationSeconds} s long)`,
        });
      }
    });
  }
  if (context.shortsAfterCap !== null && list.length > context.shortsAfterCap && list.length <= 10) {
    issues.push({
      field: "manual_highlights",
      message:
        `must have at most as many entries as num_shorts (each manual highlight becomes a short): ${list.length} entries need ${list.length} shorts, ` +
        `but num_shorts is ${context.shortsAfterCap} after the plan cap of ${context.shortsCap}`,
    });
  }
  return issues;
}

/**
 * Resolved entries: omitted profiles mean every executed profile. A shorts-only job executes one profile and
 * every manual highlight becomes a short anyway, so there all entries apply to that profile.
 */
export function normaliseManualHighlights(
  entries: ReadonlyArray<ManualHighlightInput>,
  executed: RunProfile[],
  compilationEnabled: boolean,
): NormalizedManualHighlight[] {
  return entries.map((e) => ({
    start_seconds: e.start_seconds,
    end_seconds: e.end_seconds,
    label: e.label ? e.label : null,
    run_profiles: !compilationEnabled || !e.run_profiles ? [...executed] : executed.filter((p) => e.run_profiles!.includes(p)),
  }));
}
