import type { ChatNode } from "../twitch-server/vod-folder";
import { BASELINE_MESSAGES, HYPE_MESSAGES, SPAM_MESSAGES, TWITCH_EMOTES, chatterLogin } from "./phrases";
import type { PlannedMoment } from "./plan";
import { Random } from "./random";

export interface ChatBurstTruth {
  moment_id: string;
  kind: "hype" | "chat_only" | "audience_only";
  start: number;
  end: number;
  messages: number;
  unique_chatters: number;
}

export interface ChatTruth {
  total_messages: number;
  baseline_rate_per_second: number;
  bursts: ChatBurstTruth[];
}

export interface ChatLogInput {
  duration: number;
  seed: number;
  moments: PlannedMoment[];
  createdAt: string;
  /** Background messages per second outside bursts. */
  baselineRate: number;
  /**
   * 0 (default): a steady background rate. Above 0 the rate drifts from one 30-90 s stretch to the next by up to
   * this factor either way (a busy chat's conversation comes in waves).
   */
  waves?: number;
}

/** Name colours viewers pick (Twitch's presets, dark Blue and Green among them); one draw of the generator per message, as before. */
const NAME_COLORS = ["#1E90FF", "#FF0000", "#0000FF", "#008000", "#B22222", "#FF7F50", "#9ACD32", "#FF4500", "#2E8B57", "#DAA520", "#D2691E", "#5F9EA0", "#FF69B4", "#8A2BE2", "#00FF7F"];
/** Two chatters in three chose a colour (and keep it); the rest never did. The draw is taken but unused, so the rest of the log stays as it was. */
function nameColor(_draw: number, viewer: number): string | null {
  return viewer % 3 === 2 ? null : NAME_COLORS[Math.floor(viewer / 3) % NAME_COLORS.length]!;
}

const REGULARS = 150;
const LURKERS = 3000;
const SPAMMERS = 12;

function fragmentsOf(text: string): ChatNode["message"]["fragments"] {
  const fragments: ChatNode["message"]["fragments"] = [];
  let pending = "";
  let position = 0;
  const words = text.split(" ");
  words.forEach((word, i) => {
    const emoteID = TWITCH_EMOTES[word];
    const sep = i < words.length - 1 ? " " : "";
    if (emoteID) {
      if (pending) fragments.push({ text: pending, emote: null });
      pending = "";
      fragments.push({ text: word, emote: { id: `${emoteID};${position};${position + word.length - 1}`, emoteID, from: position } });
      pending = sep;
    } else {
      pending += word + sep;
    }
    position += word.length + sep.length;
  });
  if (pending.trim()) fragments.push({ text: pending, emote: null });
  return fragments;
}

/**
 * Chat as Twitch's replay returns it: steady background talk from regulars, a reaction burst after each hype
 * moment from many different viewers, and copy-paste spam (few accounts) for chat-only distractors.
 */
export function generateChatLog(input: ChatLogInput): { comments: ChatNode[]; truth: ChatTruth } {
  const rng = new Random(input.seed ^ 0x2f6b1d3);
  const base = Date.parse(input.createdAt);
  const comments: ChatNode[] = [];
  const add = (t: number, viewer: number, text: string) => {
    const offset = Math.floor(t);
    if (offset < 0 || offset >= input.duration) return;
    const login = chatterLogin(viewer);
    comments.push({
      id: `${(input.seed >>> 0).toString(16)}-${comments.length.toString(16).padStart(6, "0")}-${Math.floor(rng.next() * 0xffffff).toString(16)}`,
      commenter: { id: String(100000 + viewer), login, displayName: login.charAt(0).toUpperCase() + login.slice(1) },
      contentOffsetSeconds: offset,
      createdAt: new Date(base + t * 1000).toISOString(),
      message: { fragments: fragmentsOf(text), userBadges: [], userColor: nameColor(rng.next(), viewer) },
    });
  };

  const inBurst = (t: number) => input.moments.some((m) => m.chat && t >= m.chat.start && t < m.chat.end);
  const waves = input.waves ?? 0;
  const level = waveLevels(input.duration, waves, input.seed);
  const peakRate = input.baselineRate * (1 + waves);
  for (let t = rng.exponential(peakRate); t < input.duration; t += rng.exponential(peakRate)) {
    if (inBurst(t)) continue;
    // Thinning: a Poisson process at the top rate, kept with the share the current wave asks for.
    if (waves > 0 && rng.next() * (1 + waves) > level(t)) continue;
    // Regulars talk most; a long tail of others now and then.
    const viewer = rng.next() < 0.85 ? Math.floor(REGULARS * rng.next() ** 2) : REGULARS + rng.int(0, LURKERS - 1);
    add(t, viewer, rng.pick(BASELINE_MESSAGES));
  }

  const bursts: ChatBurstTruth[] = [];
  for (const m of input.moments) {
    if (!m.chat) continue;
    const before = comments.length;
    const chatters = new Set<number>();
    if (m.kind === "hype" || m.kind === "audience_only") {
      const length = m.chat.end - m.chat.start;
      const drawn = rng.int(70, 110);
      const count = m.chat_messages ?? drawn;
      for (let k = 0; k < count; k++) {
        // Front-loaded like a real reaction: most messages in the first seconds, tailing off.
        const t = m.chat.start + length * rng.next() ** 1.8;
        const viewer = rng.next() < 0.2 ? rng.int(0, REGULARS - 1) : REGULARS + rng.int(0, LURKERS - 1);
        chatters.add(viewer);
        add(t, viewer, rng.pick(HYPE_MESSAGES));
      }
    } else {
      const drawn = rng.int(45, 60);
      const count = m.chat_messages ?? drawn;
      const accounts = m.spam_accounts ?? SPAMMERS;
      for (let k = 0; k < count; k++) {
        const t = rng.range(m.chat.start, m.chat.end);
        const viewer = REGULARS + LURKERS + rng.int(0, accounts - 1);
        chatters.add(viewer);
        add(t, viewer, rng.pick(SPAM_MESSAGES));
      }
    }
    bursts.push({
      moment_id: m.id,
      kind: m.kind === "hype" ? "hype" : m.kind === "audience_only" ? "audience_only" : "chat_only",
      start: m.chat.start,
      end: m.chat.end,
      messages: comments.length - before,
      unique_chatters: chatters.size,
    });
  }
  comments.sort((a, b) => a.contentOffsetSeconds - b.contentOffsetSeconds || a.createdAt.localeCompare(b.createdAt));
  return {
    comments,
    truth: { total_messages: comments.length, baseline_rate_per_second: input.baselineRate, bursts },
  };
}

/** The background rate's factor over time (1 without waves): stretches of 30-90 s at 1/(1+w) .. (1+w). */
function waveLevels(duration: number, waves: number, seed: number): (t: number) => number {
  if (waves <= 0) return () => 1;
  const rng = new Random(seed ^ 0x51ed27);
  const edges: { end: number; level: number }[] = [];
  for (let t = 0; t < duration; ) {
    t += rng.range(30, 90);
    edges.push({ end: t, level: (1 + waves) ** rng.range(-1, 1) });
  }
  return (t) => edges.find((e) => t < e.end)?.level ?? 1;
}
