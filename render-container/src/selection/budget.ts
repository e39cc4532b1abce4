import { BOUNDARY_RULES, snapWindow, type WindowContext } from "./boundaries";
import { overlapSeconds, type Span } from "./similarity";
import { momentDuration } from "./types";

/**
 * Fits a moment's window to what is left of the profile's target (`budget`, seconds):
 * - a window that fits is kept;
 * - a longer one is shortened to the budget: the reaction after the peak is cut first (down to `tailSeconds`
 *   past it), then the start moves up, but never into the minimum lead-in before the onset;
 * - when that would cut into the setup, the shortest window that keeps it is taken if overshooting the
 *   target by it leaves the reel closer to the target than leaving the moment out (so a reel never runs
 *   over its target by a whole clip); otherwise null.
 * Snapping never moves an end into `taken` (manual highlights, moments already chosen).
 */
export function fitToBudget(w: Span, peak: number, onset: number, budget: number, taken: readonly Span[], ctx: WindowContext): Span | null {
  if (momentDuration(w) <= budget + 1e-9) return w;
  const trimmed = shrinkTo(w, peak, onset, budget, taken, ctx);
  if (trimmed) return trimmed;
  const tight = tightest(w, peak, onset, ctx);
  return momentDuration(tight) - budget < budget ? tight : null;
}

function shrinkTo(w: Span, peak: number, onset: number, length: number, taken: readonly Span[], ctx: WindowContext): Span | null {
  if (length < Math.min(ctx.minDuration, ctx.durationSeconds) - 1e-9) return null;
  const end = Math.min(w.end, Math.max(w.start + length, peak + BOUNDARY_RULES.tailSeconds));
  const start = Math.max(w.start, end - length);
  if (start > Math.max(0, onset - BOUNDARY_RULES.minLeadSeconds) + 1e-9) return null;
  const snapped = snapWindow({ start, end, peak }, ctx.quietPoints, ctx.sceneCuts, { ...ctx, maxDuration: length }, ctx.pauses);
  const clear = taken.every((t) => overlapSeconds(snapped, t) === 0);
  return clear && momentDuration(snapped) <= length + 1e-9 ? snapped : { start, end };
}

/** The shortest part of `w` that still holds the setup's lead-in, the peak and a short reaction (>= min length). */
function tightest(w: Span, peak: number, onset: number, ctx: WindowContext): Span {
  const min = Math.min(ctx.minDuration, ctx.durationSeconds);
  let start = Math.min(Math.max(w.start, onset - BOUNDARY_RULES.minLeadSeconds), peak);
  const end = Math.min(w.end, Math.max(peak + BOUNDARY_RULES.tailSeconds, start + min));
  start = Math.max(w.start, Math.min(start, end - min));
  return { start, end };
}
