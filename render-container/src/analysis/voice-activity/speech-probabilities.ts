import { SILERO, type VoiceModel } from "./silero-model";

export interface SpeechProbabilityOptions {
  /** Most lanes per model call (see silero-model.ts); more lanes, fewer calls. */
  maxLanes?: number;
  /** Fewest windows a lane holds before another lane is opened (short stretches run in one lane). */
  minLaneWindows?: number;
  /**
   * Windows each lane reads before the part it reports: the model's state needs a few hundred ms of the audio
   * before its answers settle, so a lane starts this far before its own part and discards those answers.
   */
  warmupWindows?: number;
}

/**
 * Speech probability (0..1) of every 32 ms window of 8 kHz mono samples (-1..1): window i covers samples
 * [256 i, 256 i + 256). The samples are cut into lanes of consecutive windows that run side by side in one batch;
 * each lane warms up on the audio just before its part, so the answers match one pass over the whole to within
 * the model's own settling.
 */
export async function speechProbabilities(model: VoiceModel, samples: Float32Array, opts: SpeechProbabilityOptions = {}): Promise<Float32Array> {
  const W = SILERO.window;
  const C = SILERO.context;
  const frames = Math.floor(samples.length / W);
  const probs = new Float32Array(frames);
  if (frames === 0) return probs;
  const warm = opts.warmupWindows ?? 16;
  const lanes = Math.max(1, Math.min(opts.maxLanes ?? 128, Math.ceil(frames / (opts.minLaneWindows ?? 64))));
  const per = Math.ceil(frames / lanes);
  const input = new Float32Array(lanes * (C + W));
  let state = new Float32Array(SILERO.stateSize * lanes);
  for (let step = 0; step < per + warm; step++) {
    input.fill(0);
    for (let k = 0; k < lanes; k++) {
      const f = k * per - warm + step;
      if (f < 0 || f >= frames) continue;
      const from = f * W - C;
      const row = k * (C + W);
      // The context is the 32 samples before the window (zeros before the first).
      if (from >= 0) input.set(samples.subarray(from, f * W + W), row);
      else input.set(samples.subarray(0, f * W + W), row + (C + W) - (f * W + W));
    }
    const out = await model.run(input, state, lanes);
    state = Float32Array.from(out.state);
    for (let k = 0; k < lanes; k++) {
      const f = k * per - warm + step;
      if (f >= k * per && f < Math.min(frames, (k + 1) * per)) probs[f] = out.probs[k]!;
    }
  }
  return probs;
}
