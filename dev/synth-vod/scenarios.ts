import type { SyntheticVodOptions } from "./generate";
import type { MomentKind, MomentRequest, SetupStyle, Span } from "./plan";
import { Random } from "./random";

/**
 * Streams for the highlight evaluation, harder than the default plan: every kind of moment (hype,
 * streamer-only excitement, audience-only chat reactions, loud game noise, chat spam from one or a few accounts)
 * close together, setups of 6-35 s marked by talk, a rising build-up, a scene cut or nothing, chat lagging 5-15 s,
 * the streamer's reaction lasting 4-14 s, and one condition per stream: a typical chat, a busy chat in waves, a
 * small chat, loud game audio, or long quiet stretches. The seed decides everything.
 */
/**
 * Bumped whenever the generator's media for these scenarios changes in a way the parameter hash does not see
 * (the mix itself); evaluations keep their streams in a folder named after it.
 */
export const SCENARIO_VERSION = 2;

export interface ScenarioVariant {
  name: "typical" | "busy_chat" | "small_chat" | "loud_game" | "long_quiet";
  chatRate: number;
  chatWaves: number;
  gameLevel: number;
  /** Messages in a reaction burst. */
  burst: [number, number];
}

export const SCENARIO_VARIANTS: readonly ScenarioVariant[] = [
  { name: "typical", chatRate: 0.5, chatWaves: 0.5, gameLevel: 1, burst: [40, 110] },
  { name: "busy_chat", chatRate: 4, chatWaves: 1, gameLevel: 1, burst: [90, 220] },
  { name: "small_chat", chatRate: 0.1, chatWaves: 0, gameLevel: 1, burst: [10, 25] },
  { name: "loud_game", chatRate: 0.5, chatWaves: 0.5, gameLevel: 8, burst: [40, 110] },
  { name: "long_quiet", chatRate: 0.5, chatWaves: 0.5, gameLevel: 1, burst: [40, 110] },
];

export interface Scenario {
  seed: number;
  variant: ScenarioVariant;
  options: Omit<SyntheticVodOptions, "root" | "vodId">;
}

const SETUP_STYLES: readonly SetupStyle[] = ["talk", "rise", "scene", "fixed"];

/** The kinds of one stream, in a seeded order. */
function kindsFor(rng: Random): MomentKind[] {
  const kinds: MomentKind[] = [];
  const add = (k: MomentKind, n: number) => {
    for (let i = 0; i < n; i++) kinds.push(k);
  };
  add("hype", rng.int(2, 3));
  add("streamer_only", rng.int(2, 3));
  add("audience_only", rng.int(2, 3));
  add("game_noise", 2);
  add("chat_only", 2);
  return rng.shuffle(kinds);
}

/** How long a moment keeps the stream busy after its peak (its shouting, its chat, its spam). */
function busyAfter(r: MomentRequest): { audio: number; chat: number } {
  const audio = r.kind === "chat_only" || r.kind === "audience_only" ? 0 : (r.reactionSeconds ?? 6);
  const chat = r.kind === "chat_only" ? (r.chatSeconds ?? 15) : r.kind === "hype" || r.kind === "audience_only" ? (r.chatLag ?? 12) + 18 : 0;
  return { audio, chat };
}

export function evalScenario(seed: number): Scenario {
  const rng = new Random(seed * 7919 + 13);
  const variant = SCENARIO_VARIANTS[seed % SCENARIO_VARIANTS.length]!;
  const duration = 1200 + 60 * rng.int(0, 10);
  const kinds = kindsFor(rng);
  const quietCount = variant.name === "long_quiet" ? 2 : 0;
  const quietLengths = Array.from({ length: quietCount }, () => rng.int(150, 240));
  // Which gaps between moments hold a long quiet stretch.
  const quietAfter = new Set(Array.from({ length: quietCount }, () => rng.int(0, kinds.length - 1)));

  const moments: MomentRequest[] = [];
  const quiet: Span[] = [];
  let audioFree = 30;
  let chatFree = 0;
  kinds.forEach((kind, i) => {
    const setupStyle: SetupStyle = kind === "chat_only" || kind === "game_noise" ? "fixed" : rng.pick(SETUP_STYLES);
    const setupSeconds = kind === "chat_only" ? 0 : kind === "game_noise" ? 3 : rng.int(6, 35);
    const req: MomentRequest = {
      kind,
      peak: 0,
      id: `${kind}-${i + 1}`,
      setupSeconds,
      setupStyle,
      chatLag: rng.int(5, 15),
      reactionSeconds: kind === "game_noise" ? rng.int(3, 8) : rng.int(4, 14),
      intensity: kind === "game_noise" ? rng.range(0.7, 1) : rng.range(0.6, 1),
      chatMessages:
        kind === "chat_only" ? rng.int(20, 45) : Math.round(rng.range(variant.burst[0], variant.burst[1])),
      spamAccounts: kind === "chat_only" ? (moments.some((m) => m.kind === "chat_only") ? rng.int(2, 3) : 1) : undefined,
      chatSeconds: kind === "chat_only" ? rng.int(20, 40) : undefined,
    };
    // Close together a third of the time (the next build-up starts right after the last reaction).
    const gap = rng.next() < 0.35 ? rng.range(2, 8) : rng.range(20, 90);
    const b = busyAfter(req);
    const chatStart = kind === "chat_only" ? 0 : req.chatLag!;
    // The peak: after the previous reaction plus the gap and this setup; chat bursts never overlap.
    let peak = Math.max(audioFree + gap + setupSeconds + 1, b.chat > 0 ? chatFree + 3 - chatStart : 0);
    if (quietAfter.has(i - 1) && quiet.length < quietCount) {
      const len = quietLengths[quiet.length]!;
      quiet.push({ start: Math.round(audioFree + 3), end: Math.round(audioFree + 3 + len) });
      peak = Math.max(peak, audioFree + len + 8 + setupSeconds);
    }
    req.peak = Math.round(peak);
    moments.push(req);
    audioFree = req.peak + Math.max(b.audio, 10);
    if (b.chat > 0) chatFree = req.peak + b.chat;
  });
  const last = Math.max(audioFree, chatFree) + 20;
  return {
    seed,
    variant,
    options: {
      durationSeconds: Math.max(duration, Math.ceil(last / 10) * 10),
      seed,
      moments,
      chatRate: variant.chatRate,
      chatWaves: variant.chatWaves,
      gameLevel: variant.gameLevel,
      ...(quiet.length > 0 ? { quiet } : {}),
      media: "audio",
    },
  };
}
