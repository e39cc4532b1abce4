import fs from "node:fs/promises";
import path from "node:path";
import { runFfmpeg } from "../ffmpeg/run-ffmpeg";
import { audioTrim, cutInputArgs, cutRange } from "../render/cut";
import type { ClipInput } from "../render/types";

/**
 * The audio of exactly the rendered range (VOD times start..end) as 16 kHz mono 16-bit wav, the format both
 * pocketsphinx and speech APIs take; cut the same way as the video so word times line up with the short.
 * Returns the wav's duration in seconds.
 */
export async function extractWav(
  clip: ClipInput,
  start: number,
  end: number,
  out: string,
  opts: { signal?: AbortSignal } = {},
): Promise<{ path: string; duration_seconds: number }> {
  const range = cutRange(clip, start, end);
  await fs.mkdir(path.dirname(out), { recursive: true });
  await runFfmpeg(
    [
      ...cutInputArgs(clip, range),
      "-filter_complex", `${audioTrim("[0:a]", range)},aresample=16000,aformat=sample_fmts=s16:channel_layouts=mono[a]`,
      "-map", "[a]",
      "-c:a", "pcm_s16le",
      "-f", "wav",
      out,
    ],
    { signal: opts.signal },
  );
  return { path: out, duration_seconds: range.duration };
}
