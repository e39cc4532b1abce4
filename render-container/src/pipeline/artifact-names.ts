import type { RunProfile } from "../../../common/contract/enums";
import { handoffNames } from "../../../common/handoff/names";

/** Stored file names (R2 key = jobs/<job_id>/<name>); stable so clients and the ZIP read well. */
export const artifactNames = {
  reel: (p: RunProfile) => `reel-${p}.mp4`,
  reelThumbnail: (p: RunProfile) => `reel-${p}.jpg`,
  short: (i: number) => `short-${String(i).padStart(2, "0")}.mp4`,
  shortThumbnail: (i: number) => `short-${String(i).padStart(2, "0")}.jpg`,
  shortCaptions: (i: number) => `short-${String(i).padStart(2, "0")}.srt`,
  /** The short's word-level transcript (the reels' .otio and .edl are written at finalise: common/handoff/names.ts). */
  shortTranscript: handoffNames.shortTranscript,
  metadata: "metadata.json",
  manifest: "manifest.json",
};
