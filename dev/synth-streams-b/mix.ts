import { spawn } from "node:child_process";
import { SAMPLE_RATE, type Sound } from "./sox-clip";

export interface Placed {
  sound: Sound;
  start: number;
  gain: number;
}

/** A sound repeated under the whole stream, its gain read once per second (a music bed that swells). */
export interface Loop {
  sound: Sound;
  gainAt: (second: number) => number;
}

function softClip(x: number): number {
  const a = Math.abs(x);
  if (a <= 0.85) return x;
  return Math.sign(x) * (0.85 + 0.15 * Math.tanh((a - 0.85) / 0.15));
}

/**
 * Mixes one second at a time (memory stays flat over hours) and pipes 16-bit mono to FFmpeg's FLAC encoder,
 * which the analysis reads as it reads any audio.
 */
export async function mixToFlac(duration: number, placed: Placed[], loops: Loop[], masterGain: number, outFile: string, masterFilter?: string): Promise<void> {
  const ffmpeg = spawn(
    "ffmpeg",
    ["-hide_banner", "-loglevel", "error", "-y", "-f", "s16le", "-ar", String(SAMPLE_RATE), "-ac", "1", "-i", "-", ...(masterFilter ? ["-af", masterFilter] : []), "-c:a", "flac", "-compression_level", "0", outFile],
    { stdio: ["pipe", "ignore", "pipe"] },
  );
  // Writing to an FFmpeg that already failed raises EPIPE here; its exit code and stderr say why (below).
  ffmpeg.stdin.on("error", () => {});
  let stderr = "";
  ffmpeg.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const done = new Promise<void>((resolve, reject) => {
    ffmpeg.on("error", reject);
    ffmpeg.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg (flac) exited with ${code}: ${stderr}`))));
  });
  const sorted = placed.slice().sort((a, b) => a.start - b.start);
  const total = Math.round(duration * SAMPLE_RATE);
  const mix = new Float32Array(SAMPLE_RATE);
  const out = new Int16Array(SAMPLE_RATE);
  let first = 0;
  for (let offset = 0, second = 0; offset < total; offset += SAMPLE_RATE, second++) {
    const n = Math.min(SAMPLE_RATE, total - offset);
    mix.fill(0);
    for (const loop of loops) {
      // Gain glides from this second's value to the next one's, so a swell has no steps.
      const g0 = loop.gainAt(second);
      const g1 = loop.gainAt(second + 1);
      const len = loop.sound.samples.length;
      for (let i = 0; i < n; i++) mix[i]! += (g0 + ((g1 - g0) * i) / n) * loop.sound.samples[(offset + i) % len]!;
    }
    while (first < sorted.length && Math.round(sorted[first]!.start * SAMPLE_RATE) + sorted[first]!.sound.samples.length <= offset) first++;
    for (let p = first; p < sorted.length; p++) {
      const { sound, start, gain } = sorted[p]!;
      const at = Math.round(start * SAMPLE_RATE);
      if (at >= offset + n) break;
      const from = Math.max(offset, at);
      const to = Math.min(offset + n, at + sound.samples.length);
      for (let s = from; s < to; s++) mix[s - offset]! += gain * sound.samples[s - at]!;
    }
    for (let i = 0; i < n; i++) out[i] = Math.round(softClip(mix[i]! * masterGain) * 32767);
    const chunk = Buffer.from(out.buffer.slice(0, n * 2));
    // FFmpeg failing (a bad master filter) never drains: its exit ends the wait with its error instead of a hang.
    if (!ffmpeg.stdin.write(chunk)) await Promise.race([new Promise<void>((resolve) => ffmpeg.stdin.once("drain", () => resolve())), done]);
  }
  ffmpeg.stdin.end();
  await done;
}
