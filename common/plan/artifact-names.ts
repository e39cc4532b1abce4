import type { RunProfile } from "../contract/enums";
import { handoffNames } from "../handoff/names";

/**
 * Names of the files render tasks store (R2 key = jobs/<job_id>/<name>); stable so clients and the ZIP read well.
 * Here, below both deployables, because the renderer names its files with them and the Worker derives from them
 * what each task may write (task-files.ts). The finalising step's own files (metadata.json, manifest.json, each
 * reel's .otio and .edl) are named in finalise.ts and handoff/names.ts: no renderer task writes them.
 */
export const artifactNames = {
  reel: (p: RunProfile) => `reel-${p}.mp4`,
  reelThumbnail: (p: RunProfile) => `reel-${p}.jpg`,
  short: (i: number) => `short-${String(i).padStart(2, "0")}.mp4`,
  shortThumbnail: (i: number) => `short-${String(i).padStart(2, "0")}.jpg`,
  shortCaptions: (i: number) => `short-${String(i).padStart(2, "0")}.srt`,
  /** The short's word-level transcript (the reels' .otio and .edl are written at finalise: common/handoff/names.ts). */
  shortTranscript: handoffNames.shortTranscript,
};
