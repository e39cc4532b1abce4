import { Random } from "../synth-vod/random";
import type { StreamSpec } from "./conditions";
import type { GameSoundKind } from "./game-sounds";

/**
 * Real moments a viewer wants to see:
 * - hype: the streamer shouts, often over a loud game sound (impact, gunfire, a victory sting), and chat erupts
 *   after the stream's lag; `both_strong` marks the biggest ones (a full shout and a large burst);
 * - streamer_only: the streamer's own excitement (a shout, sometimes over a game sound); chat does not react;
 * - audience_only: chat bursts after the lag while the streamer keeps talking calmly.
 * Distractors no profile should pick:
 * - game_sounds: loud game sounds with no speech and no chat reaction;
 * - music_swell: the music gets loud (a cutscene, a menu), no speech, no chat;
 * - calm_over_loud: a long loud fight while the streamer talks calmly over it;
 * - raid: a flood of new accounts pasting the raid message, the streamer thanks them calmly;
 * - spam_loop: one account posting the same line again and again;
 * - spam_bots: a bot network pasting promotion (followers for sale, links, "check my channel");
 * - greeting_wave: the stream's first minutes, chat saying hello.
 */
export type MomentKind =
  | "hype" | "streamer_only" | "audience_only"
  | "game_sounds" | "music_swell" | "calm_over_loud" | "raid" | "spam_loop" | "spam_bots" | "greeting_wave";

export const REAL_KINDS: readonly MomentKind[] = ["hype", "streamer_only", "audience_only"];

export type ChatEventKind = "reaction" | "raid" | "spam_loop" | "spam_bots" | "greetings";

export interface Span {
  start: number;
  end: number;
}

export interface PlannedMoment {
  id: string;
  kind: MomentKind;
  /** Where a good clip of it starts (its build-up); for distractors the start of the event. */
  setup_start: number;
  /** The climax: the game sound's onset and the shout, the thing chat reacts to, or the distractor's start. */
  peak: number;
  /** When the event is over on the stream (the shout and the sound; not chat's lagging reaction). */
  end: number;
  /** A game sound at the peak: several of them for game_sounds, a long burst of gunfire for calm_over_loud. */
  sound: { kind: GameSoundKind; at: number[]; db: number } | null;
  shout: (Span & { db: number; guest: boolean }) | null;
  /** The music swell (music_swell only). */
  swell: (Span & { db: number }) | null;
  chat: (Span & { kind: ChatEventKind; lag: number; messages: number; emote_only: boolean }) | null;
  both_strong: boolean;
}

export interface Timeline {
  moments: PlannedMoment[];
  /** Game sounds outside moments: the game going on at a moderate level. */
  ambientSounds: { kind: GameSoundKind; at: number; db: number }[];
}

function kindsFor(spec: StreamSpec, rng: Random): MomentKind[] {
  const n = spec.durationSeconds / 1500;
  const kinds: MomentKind[] = [];
  const add = (k: MomentKind, count: number) => {
    for (let i = 0; i < count; i++) kinds.push(k);
  };
  // A long stream is mostly ordinary play: about as many real moments as a short one (what a reel of the default
  // length can hold), spread over hours of talk, game and chat, with its distractors growing with its length.
  const real = Math.min(Math.max(n, 1), 1.3);
  add("hype", Math.round(rng.int(3, 4) * real));
  add("streamer_only", Math.round(rng.int(2, 3) * real));
  add("audience_only", Math.round(rng.int(2, 3) * real));
  add("game_sounds", Math.max(2, Math.round(2 * n)));
  add("calm_over_loud", Math.max(1, Math.round(n)));
  if (spec.music) add("music_swell", Math.max(1, Math.round(n)));
  if (spec.raid) add("raid", Math.max(1, Math.round(0.5 * n)));
  add("spam_loop", Math.max(1, Math.round(n)));
  add("spam_bots", Math.max(1, Math.round(n)));
  return rng.shuffle(kinds);
}

/** Burst size: a few messages in a small chat, hundreds in a huge one; `scale` ~1 for a big reaction. */
function burstMessages(spec: StreamSpec, rng: Random, scale: number): number {
  return Math.max(rng.int(5, 9), Math.round(spec.chatRate * 14 * rng.range(2.5, 5) * scale + rng.range(8, 25) * scale));
}

/** How long a spam or raid event keeps chat busy. */
const SPAM_LOOP_SECONDS: [number, number] = [40, 90];
const SPAM_BOTS_SECONDS: [number, number] = [12, 30];
const RAID_SECONDS: [number, number] = [10, 20];
/** Length of chat's reaction to one moment before its jitter (front-loaded inside it). */
export const REACTION_SECONDS = 14;

/**
 * Lays the moments out one after another, each after the previous one's sound, shout and chat are over (so every
 * burst belongs to one moment), with quiet stretches of game and talk between them.
 */
export function planTimeline(spec: StreamSpec, shoutSeconds: readonly [number, number] = [3, 9]): Timeline {
  const rng = new Random(spec.seed * 31 + 5);
  const kinds = kindsFor(spec, rng);
  const loud = () => spec.voiceDb + rng.range(3, 10);
  const moments: PlannedMoment[] = [];
  const greetEnd = rng.int(60, 110);
  moments.push({
    id: "greeting_wave-0", kind: "greeting_wave", setup_start: 0, peak: 5, end: greetEnd, sound: null, shout: null, swell: null, both_strong: false,
    chat: { kind: "greetings", start: 3, end: greetEnd, lag: 0, messages: Math.max(8, Math.round(spec.chatRate * 40 + rng.range(10, 30))), emote_only: false },
  });
  let free = greetEnd + rng.range(20, 60);
  kinds.forEach((kind, i) => {
    const id = `${kind}-${i + 1}`;
    const real = kind === "hype" || kind === "streamer_only" || kind === "audience_only";
    const setup = real ? rng.int(8, 25) : 2;
    const peak = Math.round(free + setup + (rng.next() < 0.3 ? rng.range(2, 8) : rng.range(15, 70)));
    const lag = Math.max(1, spec.chatLag + rng.range(-2, 2));
    const m: PlannedMoment = { id, kind, setup_start: peak - setup, peak, end: peak + 8, sound: null, shout: null, swell: null, chat: null, both_strong: false };
    if (kind === "hype" || kind === "streamer_only") {
      const big = kind === "hype" && rng.next() < 0.65;
      m.both_strong = big;
      const soundChance = kind === "hype" ? 0.8 : 0.5;
      if (rng.next() < soundChance) m.sound = { kind: rng.pick(["impact", "impact", "gunfire", "sting"] as const), at: [peak], db: loud() };
      const length = rng.range(...shoutSeconds);
      const shoutDb = spec.voiceDb + (big ? rng.range(9, 14) : rng.range(5, 10));
      m.shout = { start: peak + rng.range(0.1, 0.6), end: peak + length, db: shoutDb, guest: spec.guestShare > 0 && rng.next() < 0.4 };
      m.end = Math.max(peak + length, peak + 4) + 1;
      if (kind === "hype") {
        const messages = burstMessages(spec, rng, big ? 1 : 0.45);
        m.chat = { kind: "reaction", start: peak + lag, end: peak + lag + REACTION_SECONDS, lag, messages, emote_only: rng.next() < 0.3 };
      }
    } else if (kind === "audience_only") {
      const messages = burstMessages(spec, rng, rng.range(0.6, 1));
      m.chat = { kind: "reaction", start: peak + lag, end: peak + lag + REACTION_SECONDS, lag, messages, emote_only: rng.next() < 0.3 };
    } else if (kind === "game_sounds") {
      const count = rng.int(1, 4);
      const at = Array.from({ length: count }, (_, k) => peak + k * rng.range(1.5, 3.5));
      m.sound = { kind: rng.pick(["impact", "gunfire", "sting"] as const), at, db: spec.voiceDb + rng.range(5, 12) };
      m.end = at.at(-1)! + 4;
    } else if (kind === "calm_over_loud") {
      const length = rng.range(10, 20);
      const at: number[] = [];
      for (let t = peak; t < peak + length; t += rng.range(1.5, 3.5)) at.push(t);
      m.sound = { kind: "gunfire", at, db: spec.voiceDb + rng.range(2, 7) };
      m.end = peak + length + 3;
    } else if (kind === "music_swell") {
      const length = rng.range(8, 16);
      m.swell = { start: peak, end: peak + length, db: rng.range(14, 22) };
      m.end = peak + length + 1;
    } else if (kind === "raid") {
      const len = rng.range(...RAID_SECONDS);
      const messages = spec.condition === "huge_chat" ? rng.int(150, 400) : rng.int(25, 70);
      m.chat = { kind: "raid", start: peak, end: peak + len, lag: 0, messages, emote_only: false };
      m.end = peak + len;
    } else if (kind === "spam_loop" || kind === "spam_bots") {
      const len = rng.range(...(kind === "spam_loop" ? SPAM_LOOP_SECONDS : SPAM_BOTS_SECONDS));
      m.chat = { kind, start: peak, end: peak + len, lag: 0, messages: 0, emote_only: false };
      m.end = peak + len;
    }
    moments.push(m);
    // The next build-up starts once this moment's sound, shout and chat (with its jitter) are over.
    free = Math.max(m.end, m.chat ? m.chat.end + 3 * spec.jitterSeconds + 3 : 0) + rng.range(3, 20);
  });
  const ambientSounds: Timeline["ambientSounds"] = [];
  const busy = moments.map((m) => ({ start: m.setup_start - 5, end: m.end + 5 }));
  for (let t = rng.range(20, 60); t < Math.max(free, spec.durationSeconds) - 10; t += rng.range(25, 90)) {
    if (busy.some((b) => t > b.start && t < b.end)) continue;
    ambientSounds.push({ kind: rng.pick(["impact", "gunfire", "gunfire", "sting"] as const), at: t, db: spec.gameDb + rng.range(8, 14) });
  }
  return { moments, ambientSounds };
}

/** The stream runs at least its drawn length and past the last moment. */
export function streamLength(spec: StreamSpec, t: Timeline): number {
  const last = Math.max(...t.moments.map((m) => Math.max(m.end, m.chat?.end ?? 0)));
  return Math.max(spec.durationSeconds, Math.ceil((last + 45) / 10) * 10);
}

/**
 * The game louder than the streamer (`eval:highlights -- --sounds loud`): every shout of a real moment is made
 * under a game sound at its peak `overShoutDb` louder than the shout itself (a sound drawn where the plan had
 * none), and every fight talked over calmly is `calmFightOverTalkDb` over the talk. The plans otherwise keep
 * every draw, so seed n is seed n of its source with a louder game.
 */
/**
 * A stream with nothing to find (`eval:highlights -- --moments none`): the plan's real moments left out (no shout, no
 * chat reaction), its distractors, talk, game sounds and chat kept. Every clip a profile takes there is one too many.
 */
export function withoutRealMoments(timeline: Timeline): Timeline {
  return { ...timeline, moments: timeline.moments.filter((m) => !REAL_KINDS.includes(m.kind)) };
}

export interface LoudGame {
  overShoutDb: readonly [number, number];
  calmFightOverTalkDb: readonly [number, number];
}

export function louderGame(timeline: Timeline, spec: StreamSpec, loud: LoudGame): Timeline {
  const rng = new Random(spec.seed * 131 + 7);
  const moments = timeline.moments.map((m): PlannedMoment => {
    if (m.shout && (m.kind === "hype" || m.kind === "streamer_only")) {
      const kind = m.sound?.kind ?? rng.pick(["impact", "impact", "gunfire", "sting"] as const);
      return { ...m, sound: { kind, at: [m.peak], db: m.shout.db + rng.range(...loud.overShoutDb) } };
    }
    if (m.kind === "calm_over_loud" && m.sound) return { ...m, sound: { ...m.sound, db: spec.voiceDb + rng.range(...loud.calmFightOverTalkDb) } };
    return m;
  });
  return { ...timeline, moments };
}
