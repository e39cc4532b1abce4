import type { ChatNode } from "../twitch-server/vod-folder";
import { Random } from "../synth-vod/random";
import type { StreamSpec } from "./conditions";
import type { ChatCategory } from "./lines";
import { PALETTE_B, type ChatVocabulary } from "./palette";
import type { Timeline } from "./timeline";

export interface ChatEventTruth {
  moment_id: string;
  kind: string;
  /** First and last message offsets. */
  start: number;
  end: number;
  messages: number;
  distinct_accounts: number;
  emote_only: boolean;
  /** Reactions: the lag this moment's burst was planned with (the stream's lag ± 2 s). */
  lag: number | null;
}

export interface ChatLogTruth {
  total_messages: number;
  base_rate_per_second: number;
  lag_seconds: number;
  jitter_seconds: number;
  events: ChatEventTruth[];
  /** Accounts that first appeared in a raid (never seen in chat before it). */
  raid_accounts: string[];
  spam_accounts: string[];
  /** Messages per category, over the whole log. */
  categories: Partial<Record<ChatCategory, number>>;
}

const ADJECTIVES = ["salty", "cozy", "sneaky", "lucky", "grumpy", "swift", "chill", "mighty", "tiny", "sleepy", "rusty", "noisy", "happy", "dark", "frosty", "wild"];
const NOUNS = ["otter", "gamer", "panda", "toast", "falcon", "pickle", "wizard", "noodle", "ghost", "tiger", "muffin", "knight", "llama", "rocket", "cactus", "moose"];

/** Readable, distinct logins: viewer index -> "cozyotter_137". */
export function viewerLogin(index: number): string {
  const a = ADJECTIVES[index % ADJECTIVES.length]!;
  const n = NOUNS[Math.floor(index / ADJECTIVES.length) % NOUNS.length]!;
  return `${a}${n}${Math.floor(index / (ADJECTIVES.length * NOUNS.length))}_${(index * 37) % 100}`;
}

function fragmentsOf(text: string, emotes: Record<string, string>): ChatNode["message"]["fragments"] {
  const fragments: ChatNode["message"]["fragments"] = [];
  let pending = "";
  let position = 0;
  const words = text.split(" ");
  words.forEach((word, i) => {
    const emoteID = emotes[word];
    const sep = i < words.length - 1 ? " " : "";
    if (emoteID) {
      if (pending) fragments.push({ text: pending, emote: null });
      pending = "";
      fragments.push({ text: word, emote: { id: `${emoteID};${position};${position + word.length - 1}`, emoteID, from: position } });
      pending = sep;
    } else pending += word + sep;
    position += word.length + sep.length;
  });
  if (pending.trim()) fragments.push({ text: pending, emote: null });
  return fragments;
}

/** Background chat: mostly talk among viewers and questions; greetings and a few reactions without a cause. */
const background = (v: ChatVocabulary): [ChatCategory, readonly string[], number][] => [
  ["chatter", v.chatter, 0.45],
  ["question", v.questions, 0.17],
  ["greeting", v.greetings, 0.13],
  ["reaction", v.reactions, 0.1],
  ["emote_reaction", v.emoteReactions, 0.15],
];

/**
 * Chat as the replay returns it. Background talk at the stream's rate from regulars and passers-by (a chat
 * drifting ±30 % from one stretch to the next); each moment's reaction `lag` s after its peak, front-loaded, each
 * message with its own delay; raids from accounts never seen before; a looping account; bots pasting promotion.
 */
export function generateChat(spec: StreamSpec, timeline: Timeline, duration: number, createdAt: string, v: ChatVocabulary = PALETTE_B.chat): { comments: ChatNode[]; truth: ChatLogTruth } {
  const BACKGROUND = background(v);
  const rng = new Random(spec.seed * 613 + 11);
  const base = Date.parse(createdAt);
  const regulars = Math.max(30, Math.round(spec.chatRate * 150));
  let nextFresh = regulars;
  const fresh = () => nextFresh++;
  const regular = () => Math.floor(regulars * rng.next() ** 2);
  const categories: ChatLogTruth["categories"] = {};
  const comments: ChatNode[] = [];
  const add = (t: number, viewer: number | string, text: string, category: ChatCategory) => {
    if (t < 0 || t >= duration) return false;
    const login = typeof viewer === "string" ? viewer : viewerLogin(viewer);
    comments.push({
      id: `b${spec.seed}-${comments.length.toString(36)}`,
      commenter: { id: String(500000 + (typeof viewer === "number" ? viewer : 900000 + comments.length)), login, displayName: login },
      contentOffsetSeconds: Math.floor(t),
      createdAt: new Date(base + t * 1000).toISOString(),
      message: { fragments: fragmentsOf(text, v.globalEmotes), userBadges: [], userColor: rng.next() < 0.4 ? "#9146FF" : null },
    });
    categories[category] = (categories[category] ?? 0) + 1;
    return true;
  };

  const level = drift(spec.seed, duration);
  const top = spec.chatRate * 1.3;
  for (let t = rng.exponential(top); t < duration; t += rng.exponential(top)) {
    if (rng.next() * 1.3 > level(t)) continue;
    let r = rng.next();
    const [category, lines] = BACKGROUND.find(([, , share]) => (r -= share) < 0) ?? BACKGROUND[0]!;
    add(t, rng.next() < 0.8 ? regular() : fresh(), rng.pick(lines), category);
  }

  const events: ChatEventTruth[] = [];
  const raidAccounts: string[] = [];
  const spamAccounts: string[] = [];
  for (const m of timeline.moments) {
    if (!m.chat) continue;
    const before = comments.length;
    const who = new Set<string>();
    const post = (t: number, viewer: number | string, text: string, category: ChatCategory) => {
      if (add(t, viewer, text, category)) who.add(comments.at(-1)!.commenter!.login);
    };
    const c = m.chat;
    if (c.kind === "reaction") {
      let posted = 0;
      while (posted < c.messages) {
        const viewer = rng.next() < 0.4 ? regular() : fresh();
        // A viewer sends one to three messages of the same reaction.
        const repeat = rng.next() < 0.25 ? rng.int(2, 3) : 1;
        for (let k = 0; k < repeat && posted < c.messages; k++, posted++) {
          const t = c.start + (c.end - c.start) * rng.next() ** 1.7 + gaussian(rng) * spec.jitterSeconds;
          const emote = c.emote_only || rng.next() < 0.3;
          post(Math.max(m.peak + 0.5, t), viewer, rng.pick(emote ? v.emoteReactions : v.reactions), emote ? "emote_reaction" : "reaction");
        }
      }
    } else if (c.kind === "greetings") {
      for (let k = 0; k < c.messages; k++) post(rng.range(c.start, c.end), rng.next() < 0.5 ? regular() : fresh(), rng.pick(v.greetings), "greeting");
    } else if (c.kind === "raid") {
      const raider = `${viewerLogin(rng.int(0, 255))}tv`;
      for (let k = 0; k < c.messages; k++) {
        const login = viewerLogin(fresh());
        raidAccounts.push(login);
        post(c.start + (c.end - c.start) * rng.next() ** 1.5, login, rng.pick(v.raidLines).replace("{raider}", raider), "raid");
        if (rng.next() < 0.25) post(rng.range(c.end, c.end + 20), login, rng.pick(v.greetings), "greeting");
      }
    } else if (c.kind === "spam_loop") {
      const login = viewerLogin(regular());
      spamAccounts.push(login);
      const line = rng.pick(v.loopLines);
      for (let t = c.start; t < c.end; t += rng.range(1.5, 4)) post(t, login, line, "spam_loop");
    } else if (c.kind === "spam_bots") {
      const bots = rng.int(4, 12);
      const main = rng.pick(v.promotionLines);
      for (let b = 0; b < bots; b++) {
        const login = `${rng.pick(NOUNS)}${rng.int(1000, 9999)}_${rng.pick(["promo", "x", "tv", "bot"])}`;
        spamAccounts.push(login);
        for (let k = rng.int(1, 3); k > 0; k--) post(rng.range(c.start, c.end), login, rng.next() < 0.7 ? main : rng.pick(v.promotionLines), "promotion");
      }
    }
    const mine = comments.slice(before);
    events.push({
      moment_id: m.id,
      kind: c.kind,
      start: Math.min(...mine.map((x) => x.contentOffsetSeconds)),
      end: Math.max(...mine.map((x) => x.contentOffsetSeconds)),
      messages: mine.length,
      distinct_accounts: who.size,
      emote_only: c.emote_only,
      lag: c.kind === "reaction" ? c.lag : null,
    });
  }
  comments.sort((a, b) => a.contentOffsetSeconds - b.contentOffsetSeconds || a.createdAt.localeCompare(b.createdAt));
  return {
    comments,
    truth: {
      total_messages: comments.length,
      base_rate_per_second: spec.chatRate,
      lag_seconds: spec.chatLag,
      jitter_seconds: spec.jitterSeconds,
      events,
      raid_accounts: raidAccounts,
      spam_accounts: spamAccounts,
      categories,
    },
  };
}

function gaussian(rng: Random): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

/** The background rate's factor: stretches of 40-120 s between 0.7 and 1.3. */
function drift(seed: number, duration: number): (t: number) => number {
  const rng = new Random(seed * 7 + 1);
  const edges: { end: number; level: number }[] = [];
  for (let t = 0; t < duration; ) edges.push({ end: (t += rng.range(40, 120)), level: rng.range(0.7, 1.3) });
  return (t) => edges.find((e) => t < e.end)?.level ?? 1;
}

