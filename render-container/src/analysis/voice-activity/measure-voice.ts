import { closeSync, openSync, readSync } from "node:fs";
import type { AudioAnalysis, PcmSpan } from "../types";
import { candidateStretches, type Stretch } from "./candidate-stretches";
import { loadVoiceModel, SILERO, type VoiceModel } from "./silero-model";
import { speechProbabilities } from "./speech-probabilities";

/** A window the model gives at least this probability is speech (Silero's own default threshold). */
export const SPEECH_PROBABILITY = 0.5;
/** Audio read before each stretch and discarded: the model's state settles on it. */
const PRE_ROLL_SECONDS = 0.5;

export interface VoiceActivityResult {
  /** voiceShare per second (-1: not measured); see AudioAnalysis.voiceShare. */
  voiceShare: number[];
  stretches: Stretch[];
  measuredSeconds: number;
}

/**
 * Measures, on the loud stretches of the VOD, how much of each second's energy the voice-activity model hears
 * as speech: a shout over an explosion is mostly speech, the explosion alone or a music swell is not. Reads the
 * PCM the analysis kept (AudioAnalysis.pcm), so nothing is decoded twice.
 */
export async function measureVoiceActivity(audio: AudioAnalysis, opts: { model?: VoiceModel; signal?: AbortSignal } = {}): Promise<VoiceActivityResult> {
  const seconds = audio.loudnessAboveBaselineDb.length;
  const voiceShare = new Array<number>(seconds).fill(-1);
  const stretches = candidateStretches(audio.loudnessAboveBaselineDb);
  if (stretches.length === 0 || !audio.pcm?.length) return { voiceShare, stretches: [], measuredSeconds: 0 };
  const model = opts.model ?? (await loadVoiceModel());
  const rate = SILERO.sampleRate;
  const W = SILERO.window;

  // All stretches, each after its pre-roll, in one array whose pieces start on window boundaries: one batched run.
  const pieces = stretches.map((s) => {
    const from = Math.max(0, s.start - PRE_ROLL_SECONDS);
    const samples = readPcm(audio.pcm!, from, s.end, rate);
    return { stretch: s, from, samples };
  });
  const windowsOf = (p: (typeof pieces)[number]) => Math.ceil(p.samples.length / W);
  const all = new Float32Array(pieces.reduce((n, p) => n + windowsOf(p) * W, 0));
  let at = 0;
  for (const p of pieces) {
    all.set(p.samples, at);
    at += windowsOf(p) * W;
  }
  opts.signal?.throwIfAborted();
  const probs = await speechProbabilities(model, all);

  let firstWindow = 0;
  for (const p of pieces) {
    const speech = new Float64Array(p.stretch.end - p.stretch.start);
    const energy = new Float64Array(p.stretch.end - p.stretch.start);
    for (let w = 0; w < windowsOf(p); w++) {
      const t = p.from + (w * W + W / 2) / rate;
      const s = Math.floor(t) - p.stretch.start;
      if (s < 0 || s >= speech.length) continue;
      let power = 0;
      for (let i = w * W; i < Math.min(p.samples.length, (w + 1) * W); i++) power += p.samples[i]! * p.samples[i]!;
      energy[s] += power;
      if ((probs[firstWindow + w] ?? 0) >= SPEECH_PROBABILITY) speech[s] += power;
    }
    for (let s = 0; s < speech.length; s++) voiceShare[p.stretch.start + s] = energy[s]! > 0 ? speech[s]! / energy[s]! : 0;
    firstWindow += windowsOf(p);
  }
  return { voiceShare, stretches, measuredSeconds: stretches.reduce((n, s) => n + s.end - s.start, 0) };
}

/** Samples (-1..1) of VOD time [from, to) from the kept PCM spans; zeros where no span has them. */
export function readPcm(spans: readonly PcmSpan[], from: number, to: number, rate: number): Float32Array {
  const out = new Float32Array(Math.max(0, Math.round((to - from) * rate)));
  for (const span of spans) {
    const a = Math.max(from, span.start);
    const b = Math.min(to, span.start + span.samples / span.sampleRate);
    if (b <= a || span.sampleRate !== rate) continue;
    const first = Math.round((a - span.start) * rate);
    const count = Math.min(span.samples - first, Math.round((b - a) * rate));
    if (count <= 0) continue;
    const buf = Buffer.alloc(count * 2);
    const fd = openSync(span.file, "r");
    try {
      readSync(fd, buf, 0, buf.length, first * 2);
    } finally {
      closeSync(fd);
    }
    const offset = Math.round((a - from) * rate);
    for (let i = 0; i < count && offset + i < out.length; i++) out[offset + i] = buf.readInt16LE(2 * i) / 32768;
  }
  return out;
}
