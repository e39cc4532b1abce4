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
  opts: { signal?: AbortSignal; seekInput?: boolean } = {},
): Promise<{ path: string; duration_seconds: number }> {
  const whole = cutRange(clip, start, end);
  // A long audio-only file (the analysis' rendition parts) is seeked instead of decoded from its start; on
  // audio-only MPEG-TS every frame is a sync point, so the input seek is exact and the trim stays exact too.
  const seek = opts.seekInput ? Math.max(0, Math.floor(whole.from) - 1) : 0;
  const range = { from: whole.from - seek, to: whole.to - seek, duration: whole.duration };
  await fs.mkdir(path.dirname(out), { recursive: true });
  await runFfmpeg(
    [
      ...(seek > 0 ? ["-ss", String(seek)] : []),
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
