import fs from "node:fs/promises";
import path from "node:path";
import { runFfmpeg } from "../ffmpeg/run-ffmpeg";
import { audioTrim, cutInputArgs, cutRange, type CutRange } from "../render/cut";
import type { ClipInput } from "../render/types";

const SPEECH_FORMAT = "aresample=16000,aformat=sample_fmts=s16:channel_layouts=mono";

export interface WavPiece {
  clip: ClipInput;
  /** VOD times. */
  start: number;
  end: number;
}

export interface JoinedWavLayout {
  path: string;
  duration_seconds: number;
  /** Where each piece starts inside the wav, seconds; pieces are followed by `gapSeconds` of silence. */
  offsets: number[];
  durations: number[];
}

/**
 * Input arguments and the file-relative cut of one piece. A long audio-only file (the analysis' rendition
 * parts) is seeked instead of decoded from its start; on audio-only MPEG-TS every frame is a sync point, so
 * the input seek is exact and the trim after it stays exact too.
 */
function pieceInput(piece: WavPiece, seekInput: boolean): { args: string[]; range: CutRange } {
  const whole = cutRange(piece.clip, piece.start, piece.end);
  const seek = seekInput ? Math.max(0, Math.floor(whole.from) - 1) : 0;
  const range = { from: whole.from - seek, to: whole.to - seek, duration: whole.duration };
  return { args: [...(seek > 0 ? ["-ss", String(seek)] : []), ...cutInputArgs(piece.clip, range)], range };
}

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
  const { args, range } = pieceInput({ clip, start, end }, opts.seekInput ?? false);
  await fs.mkdir(path.dirname(out), { recursive: true });
  await runFfmpeg([...args, "-filter_complex", `${audioTrim("[0:a]", range)},${SPEECH_FORMAT}[a]`, "-map", "[a]", "-c:a", "pcm_s16le", "-f", "wav", out], { signal: opts.signal });
  return { path: out, duration_seconds: range.duration };
}

/**
 * Several ranges joined into one wav, each followed by a gap of silence (so a recogniser's voice detection
 * ends the utterance there), in one ffmpeg run. A recogniser then starts once for all of them instead of once
 * per range: pocketsphinx spends about a second of CPU loading its models each time.
 */
export async function extractJoinedWav(pieces: readonly WavPiece[], gapSeconds: number, out: string, opts: { signal?: AbortSignal; seekInput?: boolean } = {}): Promise<JoinedWavLayout> {
  if (pieces.length === 0) throw new Error("extractJoinedWav needs at least one piece");
  const inputs = pieces.map((p) => pieceInput(p, opts.seekInput ?? false));
  const chains = inputs.map(({ range }, i) => `${audioTrim(`[${i}:a]`, range)},${SPEECH_FORMAT},apad=pad_dur=${gapSeconds}[p${i}]`);
  const graph = [...chains, `${inputs.map((_, i) => `[p${i}]`).join("")}concat=n=${inputs.length}:v=0:a=1[a]`].join(";");
  await fs.mkdir(path.dirname(out), { recursive: true });
  await runFfmpeg([...inputs.flatMap((i) => i.args), "-filter_complex", graph, "-map", "[a]", "-c:a", "pcm_s16le", "-f", "wav", out], { signal: opts.signal });
  const durations = inputs.map((i) => i.range.duration);
  const offsets: number[] = [];
  let t = 0;
  for (const d of durations) {
    offsets.push(t);
    t += d + gapSeconds;
  }
  return { path: out, duration_seconds: t, offsets, durations };
}

/** Maps a word's time in a joined wav back to its piece: index and seconds from the piece's start. */
export function locateInJoined(layout: Pick<JoinedWavLayout, "offsets" | "durations">, t: number): { piece: number; at: number } | null {
  for (let i = layout.offsets.length - 1; i >= 0; i--) {
    if (t >= layout.offsets[i]! - 1e-3) {
      const at = t - layout.offsets[i]!;
      // A "word" in the gap after a piece is noise at its end; past the gap it belongs to nobody.
      return at <= layout.durations[i]! + 0.05 ? { piece: i, at: Math.max(0, at) } : null;
    }
  }
  return null;
}
