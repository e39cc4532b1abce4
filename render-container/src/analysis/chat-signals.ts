import { findChatBursts, windowedUniqueChatters } from "./chat-bursts";
import { isBotCommand, reactionKind } from "./chat-lexicon";
import { median, movingAverage, quantile } from "./stats";
import type { ChatCommentInput, ChatSignals } from "./types";

export interface AnalyzeChatOptions {
  /** How long chat takes to react to what happened on stream; research puts it at 7-10 s. Default 8. */
  reactionLagSeconds?: number;
  /** Window for rates and unique chatters. Default 10 s, about the length of a chat burst. */
  windowSeconds?: number;
}

/** Below one message per 30 s a "baseline" is noise; this floor keeps one message from reading as a spike. */
const MIN_BASELINE_RATE = 1 / 30;

/**
 * Per-second chat signals aligned to stream time: everything chat did at time t+lag is credited to t, the
 * moment chat was reacting to. Robust to an empty or missing replay (then `available` is false).
 */
export function analyzeChat(comments: readonly ChatCommentInput[] | null | undefined, durationSeconds: number, opts: AnalyzeChatOptions = {}): ChatSignals {
  const lag = Math.max(0, opts.reactionLagSeconds ?? 8);
  const window = Math.max(1, opts.windowSeconds ?? 10);
  const n = Math.max(0, Math.ceil(durationSeconds - 1e-6));
  const all = comments ?? [];
  if (all.length === 0) return emptyChat(n, lag);
  // Bot commands are left out of every signal; a replay of nothing but commands is still "available".
  const usable = all.filter((c) => Number.isFinite(c.offset_seconds) && c.offset_seconds >= 0 && c.offset_seconds < n + lag && !isBotCommand(c.text));

  if (usable.length === 0) return { ...emptyChat(n, lag), available: true, totalMessages: 0, baselineRate: MIN_BASELINE_RATE, bursts: [] };
  const sorted = [...usable].sort((a, b) => a.offset_seconds - b.offset_seconds);
  // Chat-time arrays reach `lag` seconds past the end so the last moments still see their reactions.
  const span = n + Math.ceil(lag) + 1;
  const counts = new Float64Array(span);
  const hype = new Float64Array(span);
  for (const c of sorted) {
    const s = Math.floor(c.offset_seconds);
    if (s >= span) continue;
    counts[s]! += 1;
    if (reactionKind(c.text, c.emote_count) !== null) hype[s]! += 1;
  }
  const half = Math.floor(window / 2);
  const rateChat = movingAverage(counts, half);
  const hypeChat = movingAverage(hype, half);
  const uniqueChat = windowedUniqueChatters(sorted, span, half);

  const shift = Math.round(lag);
  const at = (arr: ArrayLike<number>, i: number) => (i + shift < arr.length ? arr[i + shift]! : 0);
  const messageRate = Array.from({ length: n }, (_, i) => at(rateChat, i));
  const uniqueChatters = Array.from({ length: n }, (_, i) => at(uniqueChat, i));
  const windowLen = 2 * half + 1;
  // Two pseudo-messages in the denominator: one emote in a quiet minute is not "100 % hype".
  const hypeDensity = Array.from({ length: n }, (_, i) => {
    const msgs = at(rateChat, i) * windowLen;
    return msgs > 0 ? (at(hypeChat, i) * windowLen) / (msgs + 2) : 0;
  });

  const baselineRate = Math.max(median(messageRate), MIN_BASELINE_RATE);
  const typicalUnique = Math.max(1, quantile(uniqueChatters, 0.5));
  const expected = baselineRate * windowLen;
  return {
    available: true,
    reactionLagSeconds: lag,
    totalMessages: sorted.length,
    messageRate,
    baselineRate,
    rateRatio: messageRate.map((r) => r / baselineRate),
    uniqueChatters,
    uniqueChattersRatio: uniqueChatters.map((u) => u / typicalUnique),
    hypeDensity,
    burstZ: messageRate.map((r) => (r * windowLen - expected) / Math.sqrt(expected + 1)),
    windowSeconds: windowLen,
    bursts: findChatBursts(sorted, span),
  };
}

function emptyChat(n: number, lag: number): ChatSignals {
  const zeros = () => new Array<number>(n).fill(0);
  return {
    available: false,
    reactionLagSeconds: lag,
    totalMessages: 0,
    messageRate: zeros(),
    baselineRate: 0,
    rateRatio: zeros(),
    uniqueChatters: zeros(),
    uniqueChattersRatio: zeros(),
    hypeDensity: zeros(),
    burstZ: zeros(),
    windowSeconds: 0,
  };
}
