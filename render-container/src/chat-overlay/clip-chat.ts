import { MAX_CHAT_LINES_PER_CLIP, type ChatLine } from "../../../common/contract/job-plan";
import type { ChatComment } from "../../../common/twitch";
import { crowdVoices, normalizeChatText } from "../analysis/chat-voices";
import { firstAtOrAfter } from "../analysis/stats";
import { chatLineProblem } from "../metadata/chat-lines";

/**
 * Seconds of chat before a clip's first frame that is already on screen when it starts (a chat box that opens
 * empty looks broken; these lines are shown from the first frame, as they would stand in the chat).
 */
export const CHAT_LEAD_IN_SECONDS = 5;

/**
 * More lines per second than this are not read on screen (each would be gone before it is read): a busier chat
 * is thinned to an even spread at this rate.
 */
export const MAX_CHAT_LINES_PER_SECOND = 4;
/**
 * All the chat lines one plan carries at most (about 150 bytes each as JSON: ~0.6 MB), shared evenly by the
 * clips that draw chat. The plan is one value in the job's Durable Object storage (2 MB per key and value,
 * SQLite-backed) and is sent with every render task.
 */
export const PLAN_CHAT_LINE_BUDGET = 4000;

/** Lines each of `clips` clips may carry within the plan's budget. */
export function chatLinesPerClip(clips: number): number {
  return Math.max(20, Math.min(MAX_CHAT_LINES_PER_CLIP, Math.floor(PLAN_CHAT_LINE_BUDGET / Math.max(1, clips))));
}

/** Lines that never go on screen: bot commands, links and promotion (the same classes titles never quote). */
const NEVER_SHOWN = new Set(["command", "link", "promotion"]);

/**
 * The chat lines of clips, read once from the VOD's replay. Spam is handled as selection handles it
 * (analysis/chat-voices.ts): an account posting on a loop and a line pasted by several accounts each count as
 * one voice there, and here each shows once per clip (its first message); links, promotion and bot commands
 * never show. A clip with more lines than `cap` (default MAX_CHAT_LINES_PER_CLIP) or MAX_CHAT_LINES_PER_SECOND
 * keeps an even spread of them over its time.
 */
export function clipChatReader(comments: readonly ChatComment[]): (start: number, end: number, cap?: number) => ChatLine[] {
  const sorted = [...comments].sort((a, b) => a.offset_seconds - b.offset_seconds);
  const voices = crowdVoices(sorted);
  const offsets = sorted.map((c) => c.offset_seconds);
  return (start, end, cap = MAX_CHAT_LINES_PER_CLIP) => {
    const from = firstAtOrAfter(offsets, start - CHAT_LEAD_IN_SECONDS);
    const shownOnce = new Set<string>();
    const lines: ChatLine[] = [];
    for (let i = from; i < sorted.length && sorted[i]!.offset_seconds <= end; i++) {
      const c = sorted[i]!;
      if (!c.text.trim() || NEVER_SHOWN.has(chatLineProblem(c.text) ?? "")) continue;
      const voice = voices[i];
      // One message per looping account, one copy per pasted line, within this clip.
      const onceKey = voice === null ? `loop:${(c.commenter_login ?? "").toLowerCase()}` : voice?.startsWith("copy:") ? `copy:${normalizeChatText(c.text)}` : null;
      if (onceKey !== null) {
        if (shownOnce.has(onceKey)) continue;
        shownOnce.add(onceKey);
      }
      lines.push({
        at: c.offset_seconds,
        name: c.commenter_name?.trim() || c.commenter_login || "anonymous",
        color: c.user_color ?? null,
        fragments: c.fragments.length > 0 ? c.fragments.map((f) => ({ text: f.text, emote_id: f.emote_id })) : [{ text: c.text, emote_id: null }],
      });
    }
    const seconds = end - start + CHAT_LEAD_IN_SECONDS;
    return thin(lines, Math.min(cap, MAX_CHAT_LINES_PER_CLIP, Math.ceil(MAX_CHAT_LINES_PER_SECOND * seconds)));
  };
}

/** At most `cap` lines, evenly spread over the list (which is in time order). */
function thin<T>(lines: T[], cap: number): T[] {
  if (lines.length <= cap) return lines;
  return Array.from({ length: cap }, (_, k) => lines[Math.floor((k * lines.length) / cap)]!);
}
