/** Hand-built per-second signals for selection tests: each rule is exercised on a known timeline. */
import type { ProfileTuning } from "../../../common/contract/normalized-request";
import type { AudioAnalysis, ChatSignals } from "../../../render-container/src/analysis/types";

export interface LoudEvent {
  /** Second the loudness climbs to its top. */
  at: number;
  /** Seconds it stays there. */
  len?: number;
  /** dB above the stream's baseline. */
  db?: number;
}

export interface Span {
  start: number;
  end: number;
}

export interface AudioSpec {
  loud?: LoudEvent[];
  /** Where the streamer talks (calm: speech activity 0.7, 3 syllables/s). */
  talk?: Span[];
  /** Cut-friendly points; default: none. */
  quietPoints?: number[];
}

export function audio(seconds: number, spec: AudioSpec = {}): AudioAnalysis {
  const loudDb = new Array<number>(seconds).fill(0);
  const activity = new Array<number>(seconds).fill(0);
  const rate = new Array<number>(seconds).fill(0);
  for (const t of spec.talk ?? [])
    for (let i = Math.max(0, Math.floor(t.start)); i < Math.min(seconds, Math.ceil(t.end)); i++) {
      activity[i] = 0.7;
      rate[i] = 3;
      loudDb[i] = Math.max(loudDb[i]!, 2);
    }
  for (const e of spec.loud ?? []) {
    const len = e.len ?? 6;
    for (let i = e.at; i < Math.min(seconds, e.at + len); i++) {
      loudDb[i] = e.db ?? 18;
      activity[i] = 0.9;
      rate[i] = 5;
    }
  }
  return {
    durationSeconds: seconds,
    loudnessLufs: loudDb.map((d) => -35 + d),
    baselineLufs: -35,
    loudnessAboveBaselineDb: loudDb,
    voiceDb: loudDb.map((d) => -45 + d),
    voiceFloorDb: -50,
    speechActivity: activity,
    speechRate: rate,
    silences: [],
    quietPoints: [...(spec.quietPoints ?? [])].sort((a, b) => a - b),
  };
}

export interface ChatBurst {
  /** Stream-time second the reaction is credited to (already lag-shifted). */
  at: number;
  len?: number;
  /** Message rate vs baseline. */
  ratio?: number;
  unique?: number;
  hype?: number;
}

export function chat(seconds: number, bursts: ChatBurst[] = []): ChatSignals {
  const ratio = new Array<number>(seconds).fill(1);
  const unique = new Array<number>(seconds).fill(3);
  const hype = new Array<number>(seconds).fill(0.05);
  for (const b of bursts)
    for (let i = b.at; i < Math.min(seconds, b.at + (b.len ?? 10)); i++) {
      ratio[i] = b.ratio ?? 8;
      unique[i] = b.unique ?? 40;
      hype[i] = b.hype ?? 0.7;
    }
  return {
    available: true,
    reactionLagSeconds: 8,
    totalMessages: seconds,
    messageRate: ratio.map((r) => r * 0.5),
    baselineRate: 0.5,
    rateRatio: ratio,
    uniqueChatters: unique,
    uniqueChattersRatio: unique.map((u) => u / 3),
    hypeDensity: hype,
    // As analyzeChat computes it for a 0.5 msg/s stream and an 11 s window.
    burstZ: ratio.map((r) => (r * 0.5 * 11 - 0.5 * 11) / Math.sqrt(0.5 * 11 + 1)),
    windowSeconds: 11,
  };
}

export const TUNING: Record<"balanced" | "audience" | "streamer", ProfileTuning> = {
  balanced: { target_duration_seconds: 300, audience_weight: 0.5, streamer_weight: 0.5, similarity_threshold: 0.5, highlight_min_score: 0.35, bucket_size_seconds: 5 },
  audience: { target_duration_seconds: 240, audience_weight: 0.8, streamer_weight: 0.2, similarity_threshold: 0.5, highlight_min_score: 0.35, bucket_size_seconds: 5 },
  streamer: { target_duration_seconds: 240, audience_weight: 0.2, streamer_weight: 0.8, similarity_threshold: 0.5, highlight_min_score: 0.35, bucket_size_seconds: 5 },
};

export const PARAMS = { min_highlight_duration: 20, max_highlight_duration: 60 };
