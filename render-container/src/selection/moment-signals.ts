import type { MomentSignals } from "../../../common/contract/render";
import { round } from "../analysis/stats";
import type { AudioAnalysis, ChatSignals } from "../analysis/types";
import type { SecondScores } from "./types";

/** Seconds either side of the peak whose signals describe the moment (reactions are not one-second events). */
const CORE_RADIUS = 3;

function maxIn(values: readonly number[] | undefined, a: number, b: number): number {
  if (!values) return 0;
  let m = -Infinity;
  for (let i = Math.max(0, a); i <= Math.min(values.length - 1, b); i++) if (values[i]! > m) m = values[i]!;
  return Number.isFinite(m) ? m : 0;
}

/**
 * The scores and raw signals behind a moment, taken around its peak second, plus short human-readable reasons
 * ("chat rate 6.2x baseline", "voice +14 dB").
 */
export function describeMoment(
  peakSecond: number,
  score: number,
  scores: SecondScores,
  audio: AudioAnalysis,
  chat: ChatSignals | null,
  source: "auto" | "manual",
): MomentSignals {
  const a = peakSecond - CORE_RADIUS;
  const b = peakSecond + CORE_RADIUS;
  const chatOn = Boolean(chat?.available) && scores.chatAvailable;
  const loud = maxIn(audio.loudnessAboveBaselineDb, a, b);
  const speech = maxIn(audio.speechActivity, a, b);
  const rate = maxIn(audio.speechRate, a, b);
  const ratio = chatOn ? maxIn(chat!.rateRatio, a, b) : null;
  const unique = chatOn ? maxIn(chat!.uniqueChatters, a, b) : null;
  const hype = chatOn ? maxIn(chat!.hypeDensity, a, b) : null;

  const reasons: string[] = [];
  if (source === "manual") reasons.push("manual highlight");
  if (ratio !== null && ratio >= 1.5) reasons.push(`chat rate ${ratio.toFixed(1)}x baseline`);
  if (unique !== null && unique >= 3 && ratio !== null && ratio >= 1.5) reasons.push(`${Math.round(unique)} chatters reacting`);
  if (hype !== null && hype >= 0.2) reasons.push(`${Math.round(hype * 100)}% emotes/laughter/hype in chat`);
  const voiced = audio.voiceShare ? maxIn(audio.voiceShare, a, b) : -1;
  if (loud >= 4 && voiced >= 0.6) reasons.push(`voice +${Math.round(loud)} dB (speech carries ${Math.round(voiced * 100)}% of the sound)`);
  else if (loud >= 4 && voiced >= 0) reasons.push(`audio +${Math.round(loud)} dB, mostly not speech`);
  else if (loud >= 4) reasons.push(`voice +${Math.round(loud)} dB`);
  if (rate >= 4 && speech >= 0.3) reasons.push(`fast speech (${rate.toFixed(0)} syllables/s)`);
  if (!chatOn) reasons.push("chat replay unavailable: scored on audio only");
  if (reasons.length === 0 || (reasons.length === 1 && source === "manual")) reasons.push(`score ${score.toFixed(2)}`);

  return {
    score: round(score, 3),
    audience_score: round(maxIn(scores.audience, a, b), 3),
    streamer_score: round(maxIn(scores.streamer, a, b), 3),
    audio_hype: round(maxIn(scores.audioHype, a, b), 3),
    chat_rate_ratio: ratio === null ? null : round(ratio, 2),
    unique_chatters: unique === null ? null : Math.round(unique),
    hype_density: hype === null ? null : round(hype, 3),
    speech_activity: round(speech, 3),
    loudness_db_above_baseline: round(loud, 1),
    source,
    reasons,
  };
}
