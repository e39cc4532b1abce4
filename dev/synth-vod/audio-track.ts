import { spawn } from "node:child_process";
import type { PlannedMoment, ScenePlan, Span, SpeechPlacement } from "./plan";
import { SAMPLE_RATE, type SpeechClip } from "./speech";

export interface AudioTrackInput {
  duration: number;
  seed: number;
  placements: SpeechPlacement[];
  calm: SpeechClip[];
  excited: SpeechClip[];
  moments: PlannedMoment[];
  quiet: Span[];
  /** DMCA-muted spans: digital silence, as Twitch's muted parts are. */
  muted: Span[];
  scenes: ScenePlan[];
  channels: 1 | 2;
  bitrateKbps: number;
  /** Level of the game audio under the talk (1: a quiet bed ~-47 dBFS; 8: loud game audio ~-29 dBFS). */
  gameLevel?: number;
  /** "flac" writes lossless audio, quicker to encode than AAC (evaluation runs that never package HLS). */
  codec?: "aac" | "flac";
}

// Levels chosen so per-second RMS separates clearly: bed ~-47 dBFS, talk ~-24 dBFS, shouting bursts ~-8 dBFS.
const CALM_RMS = 0.065;
const EXCITED_RMS = 0.4;
const BED_NOISE = 0.006;
const BED_TONE = 0.004;
const QUIET_FACTOR = 0.25;
const BURST_NOISE = 0.3;
const BURST_SIREN = 0.25;

const SCENE_TONES: Record<string, [number, number]> = {
  arena: [110, 165],
  caves: [98, 147],
  city: [131, 196],
  space: [87, 175],
};

function rms(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

function softClip(x: number): number {
  const a = Math.abs(x);
  if (a <= 0.8) return x;
  return Math.sign(x) * (0.8 + 0.2 * Math.tanh((a - 0.8) / 0.2));
}

/** Talk during a "rise" setup gets louder towards the peak: +0 dB at the setup's start, +10 dB just before it. */
const RISE_DB = 10;
/** Explosions of game_noise: one every EXPLOSION_EVERY s, decaying with this time constant. */
const EXPLOSION_EVERY = 0.7;
const EXPLOSION_DECAY = 0.25;

function riseGain(rises: readonly PlannedMoment[], t: number): number {
  for (const m of rises) {
    const to = m.loud ? m.loud.start : m.peak;
    if (t >= m.setup_start && t < to) return 10 ** ((RISE_DB * (t - m.setup_start)) / Math.max(1, to - m.setup_start) / 20);
  }
  return 1;
}

/** Game noise: a train of explosions (sharp attack, fast decay) with a fading-in siren, no voice. */
function gameNoiseEnvelope(m: PlannedMoment, t: number): number {
  const loud = m.loud!;
  if (t < loud.start || t >= loud.end) return 0;
  const since = (t - loud.start) % EXPLOSION_EVERY;
  const fade = Math.min(1, (t - loud.start) / 0.5, (loud.end - t) / 1);
  return fade * (0.35 + 0.65 * Math.exp(-since / EXPLOSION_DECAY));
}

function burstEnvelope(m: PlannedMoment, t: number): number {
  const loud = m.loud!;
  if (t < loud.start || t >= loud.end) return 0;
  if (t < m.peak) return (t - loud.start) / Math.max(0.001, m.peak - loud.start);
  if (t < m.peak + 4) return 1;
  return Math.max(0, (loud.end - t) / Math.max(0.001, loud.end - m.peak - 4));
}

function inSpans(spans: Span[], t: number): boolean {
  for (const s of spans) if (t >= s.start && t < s.end) return true;
  return false;
}

/**
 * Mixes the whole programme second by second (constant memory, even for hours) and pipes it to one AAC encode,
 * so every rendition later stream-copies slices of a single continuous track.
 */
export async function encodeAudioTrack(input: AudioTrackInput, outFile: string): Promise<void> {
  const ffmpeg = spawn(
    "ffmpeg",
    [
      "-hide_banner", "-loglevel", "error", "-y",
      "-f", "s16le", "-ar", String(SAMPLE_RATE), "-ac", "1", "-i", "-",
      // The fast coder is ~2.5x quicker than the default and plenty for speech and tones.
      ...(input.codec === "flac"
        ? ["-c:a", "flac", "-compression_level", "0", "-ac", String(input.channels)]
        : ["-c:a", "aac", "-aac_coder", "fast", "-b:a", `${input.bitrateKbps}k`, "-ac", String(input.channels)]),
      outFile,
    ],
    { stdio: ["pipe", "ignore", "pipe"] },
  );
  let stderr = "";
  ffmpeg.stderr.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const done = new Promise<void>((resolve, reject) => {
    ffmpeg.on("error", reject);
    ffmpeg.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg (audio track) exited with ${code}: ${stderr}`))));
  });

  const gains = {
    calm: input.calm.map((c) => CALM_RMS / Math.max(1e-4, rms(c.samples))),
    excited: input.excited.map((c) => EXCITED_RMS / Math.max(1e-4, rms(c.samples))),
  };
  const placements = input.placements.slice().sort((a, b) => a.start - b.start);
  const loudMoments = input.moments.filter((m) => m.loud);
  const rises = input.moments.filter((m) => m.setup_style === "rise");
  const game = input.gameLevel ?? 1;
  let brown = 0;
  const total = Math.round(input.duration * SAMPLE_RATE);
  const block = SAMPLE_RATE;
  const mix = new Float32Array(block);
  let noiseState = (input.seed * 2654435761) >>> 0 || 1;
  let firstPlacement = 0;

  // Tones advance by rotating a phasor instead of calling sin per sample: the mixer must outrun the encoder.
  const tones = [
    { re: 1, im: 0 },
    { re: 1, im: 0 },
  ];
  let toneFreqs: [number, number] = [0, 0];
  let rot = [
    { re: 1, im: 0 },
    { re: 1, im: 0 },
  ];
  const out = new Int16Array(block);

  for (let offset = 0; offset < total; offset += block) {
    const n = Math.min(block, total - offset);
    const t0 = offset / SAMPLE_RATE;
    const t1 = t0 + n / SAMPLE_RATE;
    const scene = input.scenes.find((s) => t0 >= s.start && t0 < s.end) ?? input.scenes[0];
    const freqs = SCENE_TONES[scene?.scene ?? "arena"] ?? [110, 165];
    if (freqs[0] !== toneFreqs[0] || freqs[1] !== toneFreqs[1]) {
      toneFreqs = freqs;
      rot = freqs.map((f) => ({ re: Math.cos((2 * Math.PI * f) / SAMPLE_RATE), im: Math.sin((2 * Math.PI * f) / SAMPLE_RATE) }));
    }
    const bedScale = (inSpans(input.quiet, t0 + 0.5) ? QUIET_FACTOR : 1) * game;
    const bursts = loudMoments.filter((m) => m.loud!.start < t1 && m.loud!.end > t0);
    const mutedHere = input.muted.filter((m) => m.start < t1 && m.end > t0);

    for (let i = 0; i < n; i++) {
      noiseState ^= noiseState << 13;
      noiseState ^= noiseState >>> 17;
      noiseState ^= noiseState << 5;
      const noise = ((noiseState >>> 0) / 4294967296) * 2 - 1;
      for (let k = 0; k < 2; k++) {
        const z = tones[k]!;
        const r = rot[k]!;
        const re = z.re * r.re - z.im * r.im;
        z.im = z.re * r.im + z.im * r.re;
        z.re = re;
      }
      mix[i] = bedScale * (BED_NOISE * noise + BED_TONE * (tones[0]!.im + tones[1]!.im));
      if (bursts.length > 0) {
        const t = t0 + i / SAMPLE_RATE;
        for (const m of bursts) {
          if (m.kind === "game_noise") {
            // Rumble (integrated noise) carries most of an explosion's energy, a little hiss and the siren the rest.
            brown = 0.97 * brown + 0.2 * noise;
            const e = m.intensity * gameNoiseEnvelope(m, t);
            const siren = Math.sin(2 * Math.PI * (500 * t - (200 / (2 * Math.PI * 0.5)) * Math.cos(2 * Math.PI * 0.5 * t)));
            mix[i] = mix[i]! + e * (1.2 * brown + 0.3 * noise + 0.2 * siren);
            continue;
          }
          const e = m.intensity * burstEnvelope(m, t);
          if (e > 0) {
            const siren = Math.sin(2 * Math.PI * (700 * t - (300 / (2 * Math.PI * 2)) * Math.cos(2 * Math.PI * 2 * t)));
            mix[i] = mix[i]! + e * (BURST_NOISE * noise + BURST_SIREN * siren);
          }
        }
      }
    }
    // Renormalise the phasors now and then so rounding never changes the bed's level.
    for (const z of tones) {
      const mag = Math.hypot(z.re, z.im);
      z.re /= mag;
      z.im /= mag;
    }

    while (firstPlacement < placements.length && placements[firstPlacement]!.end <= t0) firstPlacement++;
    for (let p = firstPlacement; p < placements.length && placements[p]!.start < t1; p++) {
      const place = placements[p]!;
      const clip = (place.style === "calm" ? input.calm : input.excited)[place.clip]!;
      const shout = place.style === "excited" ? loudMoments.find((m) => m.loud!.start <= place.start && place.start < m.loud!.end) : undefined;
      const gain = (place.style === "calm" ? gains.calm : gains.excited)[place.clip]! * (shout ? shout.intensity : 1);
      const clipStart = Math.round(place.start * SAMPLE_RATE);
      const from = Math.max(offset, clipStart);
      const to = Math.min(offset + n, clipStart + clip.samples.length);
      const rising = place.style === "calm" && rises.some((m) => m.setup_start < t1 && m.peak > t0);
      // Gain changes once per 10 ms: smooth enough, and the loop stays cheap.
      for (let s = from; s < to; s++) {
        const g = rising ? gain * riseGain(rises, (s - (s % 480)) / SAMPLE_RATE) : gain;
        mix[s - offset] = mix[s - offset]! + g * clip.samples[s - clipStart]!;
      }
    }

    for (let i = 0; i < n; i++) {
      const silent = mutedHere.length > 0 && inSpans(mutedHere, t0 + i / SAMPLE_RATE);
      out[i] = silent ? 0 : Math.max(-32768, Math.min(32767, Math.round(softClip(mix[i]!) * 32767)));
    }
    // Copy: the next block reuses `out` while ffmpeg may still be reading this one.
    const chunk = Buffer.from(out.buffer.slice(0, n * 2));
    if (!ffmpeg.stdin.write(chunk)) await new Promise<void>((resolve) => ffmpeg.stdin.once("drain", () => resolve()));
  }
  ffmpeg.stdin.end();
  await done;
}
