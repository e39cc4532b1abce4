import { Random } from "../synth-vod/random";
import type { StreamSpec } from "./conditions";
import type { Span, Timeline } from "./timeline";

export type Speaker = "streamer" | "guest";
export type LineSet = "streamer_talk" | "streamer_shouts" | "raid_thanks" | "guest_talk" | "guest_shouts";

export interface Utterance {
  speaker: Speaker;
  set: LineSet;
  line: number;
  start: number;
  end: number;
  shout: boolean;
  /** RMS level, dBFS (before the stream's master gain). */
  db: number;
}

/**
 * Who says what when: the streamer's shouts at each moment, calm talk with pauses everywhere else (silent while
 * the game or the music is loud on its own, talking on over a loud fight), a thank-you after a raid, and the
 * guest talking at times, over the streamer and over moments too.
 */
export function planTalk(spec: StreamSpec, timeline: Timeline, duration: number, lengths: Record<LineSet, number[]>): Utterance[] {
  const rng = new Random(spec.seed * 17 + 3);
  const out: Utterance[] = [];
  const say = (speaker: Speaker, set: LineSet, start: number, shout: boolean, db: number) => {
    const line = rng.int(0, lengths[set].length - 1);
    const u = { speaker, set, line, start, end: start + lengths[set][line]!, shout, db };
    out.push(u);
    return u;
  };
  const streamerBlocked: Span[] = [];
  const everyoneBlocked: Span[] = [];
  for (const m of timeline.moments) {
    if (m.shout) {
      let t = m.shout.start;
      do t = say("streamer", "streamer_shouts", t, true, m.shout.db + rng.range(-1.5, 1.5)).end + rng.range(0.1, 0.35);
      while (t < m.shout.end);
      streamerBlocked.push({ start: m.shout.start - 1, end: t });
      if (m.shout.guest) say("guest", "guest_shouts", m.shout.start + rng.range(0.4, 1.5), true, m.shout.db - rng.range(2, 5));
    }
    if (m.kind === "game_sounds" || m.kind === "music_swell") everyoneBlocked.push({ start: m.peak - 1.5, end: m.end });
    if (m.kind === "raid") {
      const u = say("streamer", "raid_thanks", m.peak + rng.range(4, 8), false, spec.voiceDb);
      streamerBlocked.push({ start: u.start - 0.8, end: u.end + 0.5 });
    }
  }
  const guestDb = spec.voiceDb - rng.range(2, 6);
  walk(rng, duration, [...streamerBlocked, ...everyoneBlocked], (t) => say("streamer", "streamer_talk", t, false, spec.voiceDb + rng.range(-2, 2)), lengths.streamer_talk, () => {
    const r = rng.next();
    return r < 0.7 ? rng.range(0.4, 1.5) : r < 0.92 ? rng.range(2, 5) : rng.range(8, 20);
  });
  if (spec.guestShare > 0) {
    const meanGap = (2.6 * (1 - spec.guestShare)) / spec.guestShare;
    const guestBlocked = [...everyoneBlocked, ...out.filter((u) => u.speaker === "guest").map((u) => ({ start: u.start - 0.5, end: u.end + 0.5 }))];
    walk(rng, duration, guestBlocked, (t) => say("guest", "guest_talk", t, false, guestDb + rng.range(-2, 2)), lengths.guest_talk, () => rng.exponential(1 / meanGap));
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Sentences one after another with `gap` between them, never running into a blocked span. */
function walk(rng: Random, duration: number, blocked: Span[], say: (t: number) => Utterance, lengths: number[], gap: () => number): void {
  const sorted = blocked.slice().sort((a, b) => a.start - b.start);
  const longest = Math.max(...lengths);
  let t = rng.range(0.5, 3);
  while (t < duration - longest - 1) {
    const hit = sorted.find((b) => t < b.end && t + longest + 0.3 > b.start);
    if (hit) {
      t = Math.max(t, hit.end) + rng.range(0.3, 1.2);
      continue;
    }
    t = say(t).end + gap();
  }
}
