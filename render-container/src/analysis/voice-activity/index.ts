import type { AudioAnalysis } from "../types";
import { measureVoiceActivity } from "./measure-voice";
import type { VoiceModel } from "./silero-model";

export { candidateStretches, CANDIDATE_RULES } from "./candidate-stretches";
export { measureVoiceActivity, NO_PITCH_RISE, NO_VOICE_RISE, readPcm, SPEECH_PROBABILITY } from "./measure-voice";
export { referenceStretches } from "./usual-level";
export { loadVoiceModel, voiceModelPath, type VoiceModel } from "./silero-model";
export { speechProbabilities } from "./speech-probabilities";

/**
 * The analysis with the voice-activity model's measure added (AudioAnalysis.voiceShare). When the model cannot
 * run (its weights or runtime missing from an image), the analysis is returned as it was, with a warning: the
 * streamer's signal then falls back to the voice-band syllables, which hold in quiet audio but take a shout
 * over loud game audio for noise.
 */
export async function withVoiceActivity(
  audio: AudioAnalysis,
  opts: { model?: VoiceModel; signal?: AbortSignal } = {},
): Promise<{ audio: AudioAnalysis; warning?: string; measuredSeconds: number; seconds: number }> {
  const t0 = performance.now();
  try {
    const r = await measureVoiceActivity(audio, opts);
    return { audio: { ...audio, voiceShare: r.voiceShare, voiceRiseDb: r.voiceRiseDb, voicePitchRise: r.voicePitchRise }, measuredSeconds: r.measuredSeconds, seconds: (performance.now() - t0) / 1000 };
  } catch (err) {
    opts.signal?.throwIfAborted();
    const why = String((err as Error)?.message ?? err);
    return {
      audio,
      warning: `The voice-activity model could not run (${why}): the streamer's excitement was judged from the voice band alone, which can miss shouting over loud game audio.`,
      measuredSeconds: 0,
      seconds: (performance.now() - t0) / 1000,
    };
  }
}
