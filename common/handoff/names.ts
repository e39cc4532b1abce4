import type { RunProfile } from "../contract/enums";

/** File names of the editor hand-off files (R2 key = jobs/<job_id>/<name>), beside the videos they belong to. */
export const handoffNames = {
  reelTimeline: (p: RunProfile) => `reel-${p}.otio`,
  reelEdl: (p: RunProfile) => `reel-${p}.edl`,
  shortTranscript: (i: number) => `short-${String(i).padStart(2, "0")}.transcript.json`,
};

/** Their content types: .otio is JSON; an EDL is plain ASCII text; the transcript JSON. */
export const HANDOFF_CONTENT_TYPES = { timeline: "application/json", edl: "text/plain; charset=utf-8", transcript: "application/json" } as const;
