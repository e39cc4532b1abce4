import { runFfmpeg } from "../ffmpeg/run-ffmpeg";
import { cutInputArgs, type CutRange } from "./cut";
import { FASTSTART, audioEncoderArgs, videoEncoderArgs } from "./encode";
import type { ClipInput, RenderProgress } from "./types";

/**
 * Encodes one cut of a source clip through a filtergraph ending in [vout]/[aout]: the shared last step of
 * shorts and reel pieces (same encoder settings, so reel pieces can be joined by stream copy).
 */
export function encodeCut(o: { clip: ClipInput; range: CutRange; extraInputArgs: readonly string[]; graph: string; out: string; signal?: AbortSignal; onFraction?: RenderProgress; kind?: "short" | "reel" }) {
  return runFfmpeg(
    [
      ...cutInputArgs(o.clip, o.range),
      ...o.extraInputArgs,
      "-filter_complex", o.graph,
      "-map", "[vout]", "-map", "[aout]",
      ...videoEncoderArgs(o.kind ?? "reel"),
      ...audioEncoderArgs(),
      ...FASTSTART,
      o.out,
    ],
    { signal: o.signal, expectedDurationSeconds: o.range.duration, onFraction: o.onFraction },
  );
}
