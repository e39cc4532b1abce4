import { Random } from "./random";

/**
 * - hype: the streamer shouts and chat erupts `chatLag` s later;
 * - loud_only / streamer_only (same media): the streamer's own excitement, chat does not react;
 * - audience_only: something chat reacts to (a burst of many viewers laughing, `chatLag` s later) while the
 *   streamer stays calm;
 * - chat_only: copy-paste spam from `spamAccounts` accounts (default 12), no event behind it (a distractor);
 * - game_noise: loud game audio (explosions, sirens) with no speech change and no chat reaction (a distractor).
 */
export type MomentKind = "hype" | "loud_only" | "chat_only" | "streamer_only" | "audience_only" | "game_noise";

/**
 * What marks the start of a moment's build-up in the media: "fixed" (the default: nothing, the setup is
 * `setupSeconds` before the peak by definition), "talk" (the streamer pauses, then talks into the moment),
 * "rise" (the game audio swells from there to the peak), "scene" (a scene cut; its time is rounded to a 10 s
 * segment boundary, where the video templates can cut).
 */
export type SetupStyle = "fixed" | "talk" | "rise" | "scene";

export interface MomentRequest {
  kind: MomentKind;
  /** VOD second of the reaction's climax (for chat_only: start of the spam). */
  peak: number;
  id?: string;
  /** Build-up before the peak, seconds (default 20). */
  setupSeconds?: number;
  setupStyle?: SetupStyle;
  /** Seconds chat takes to react (hype, audience_only); default 5-12 drawn from the seed. */
  chatLag?: number;
  /** How long the streamer's excited reaction lasts after the peak (hype, streamer_only, loud_only); default 6. */
  reactionSeconds?: number;
  /** Loudness of the shouting or game noise, 0..1 (default 1). */
  intensity?: number;
  /** Messages in chat's burst (hype, audience_only; default 70-110) or in the spam (chat_only; default 45-60). */
  chatMessages?: number;
  /** chat_only: accounts posting the spam (default 12); 1 is one account flooding chat. */
  spamAccounts?: number;
  /** chat_only: how long the spam lasts (default 15 s). */
  chatSeconds?: number;
}

export interface Span {
  start: number;
  end: number;
}

export interface PlannedMoment {
  id: string;
  kind: MomentKind;
  /** Where a good clip would start: the build-up before the climax. */
  setup_start: number;
  setup_style: SetupStyle;
  peak: number;
  end: number;
  /** Excited shouting over noise and tones (for game_noise: the noise alone); null for chat moments. */
  loud: Span | null;
  /** Chat burst; for hype it lags the peak by 5-12 s, as real chat does. Null for loud_only. */
  chat: (Span & { lag: number }) | null;
  intensity: number;
  /** Messages and posting accounts of the chat burst or spam (null: the generator's defaults). */
  chat_messages: number | null;
  spam_accounts: number | null;
}

export const SCENES = ["arena", "caves", "city", "space"] as const;
export type SceneName = (typeof SCENES)[number];

export interface ScenePlan extends Span {
  scene: SceneName;
}

export interface TimelinePlan {
  duration: number;
  moments: PlannedMoment[];
  quiet: Span[];
  /** Scene changes fall on 10-second template boundaries. */
  scenes: ScenePlan[];
}

export const SEGMENT_SECONDS = 10;

function defaultMoments(duration: number, rng: Random): MomentRequest[] {
  if (duration < 45) return [];
  if (duration < 150) return [{ kind: "hype", peak: Math.round(Math.min(duration * 0.45, duration - 33)) }];
  const slots = Math.max(1, Math.floor((duration - 30) / 120));
  const slot = (duration - 30) / slots;
  const kinds: MomentKind[] = new Array(slots).fill("hype");
  if (slots >= 3) {
    const distractors = Math.max(1, Math.round(slots / 6));
    const positions = rng.shuffle(Array.from({ length: slots - 1 }, (_, i) => i + 1));
    for (let k = 0; k < distractors; k++) kinds[positions[2 * k]!] = "loud_only";
    for (let k = 0; k < distractors; k++) kinds[positions[2 * k + 1]!] = "chat_only";
  }
  return kinds.map((kind, i) => {
    const from = 30 + i * slot + 22;
    const to = 30 + (i + 1) * slot - 36;
    return { kind, peak: Math.round(rng.range(from, Math.max(from, to))) };
  });
}

function planMoment(req: MomentRequest, index: number, rng: Random): PlannedMoment {
  const id = req.id ?? `m${index + 1}`;
  const peak = req.peak;
  const style = req.setupStyle ?? "fixed";
  const extra = {
    setup_style: style,
    intensity: req.intensity ?? 1,
    chat_messages: req.chatMessages ?? null,
    spam_accounts: req.spamAccounts ?? null,
  };
  if (req.kind === "chat_only") {
    const len = req.chatSeconds ?? 15;
    return { id, kind: req.kind, setup_start: peak, peak, end: peak + len, loud: null, chat: { start: peak, end: peak + len, lag: 0 }, ...extra };
  }
  let setup = Math.max(0, peak - (req.setupSeconds ?? 20));
  if (style === "scene") setup = Math.max(SEGMENT_SECONDS, Math.round(setup / SEGMENT_SECONDS) * SEGMENT_SECONDS);
  const reaction = req.reactionSeconds ?? 6;
  const loud = req.kind === "audience_only" ? null : { start: peak - 1, end: peak + reaction };
  const chats = req.kind === "hype" || req.kind === "audience_only";
  // The draw happens for hype only when no lag is given, so default plans stay what they were.
  const lag = chats ? (req.chatLag ?? rng.int(5, 12)) : 0;
  return {
    id,
    kind: req.kind,
    setup_start: setup,
    peak,
    end: peak + Math.max(10, reaction),
    loud,
    chat: chats ? { start: peak + lag, end: peak + lag + 18, lag } : null,
    ...extra,
  };
}

function busySpan(m: PlannedMoment): Span {
  return { start: m.setup_start - 2, end: Math.max(m.end, m.chat?.end ?? 0) + 2 };
}

function planQuiet(duration: number, moments: PlannedMoment[], rng: Random): Span[] {
  const busy = moments.map(busySpan).sort((a, b) => a.start - b.start);
  const gaps: Span[] = [];
  let cursor = 5;
  for (const b of busy) {
    if (b.start - cursor >= 30) gaps.push({ start: cursor, end: b.start });
    cursor = Math.max(cursor, b.end);
  }
  if (duration - 3 - cursor >= 30) gaps.push({ start: cursor, end: duration - 3 });
  const quiet: Span[] = [];
  gaps.forEach((gap, i) => {
    if (i > 0 && rng.next() > 0.45) return;
    const length = Math.min(rng.int(15, 25), gap.end - gap.start - 6);
    const start = Math.round(rng.range(gap.start + 3, gap.end - 3 - length));
    quiet.push({ start, end: start + length });
  });
  return quiet;
}

/**
 * Makes every "scene" setup a cut, and keeps other cuts out of the build-up and the reaction after it: the cut
 * is the one visible marker of where that moment's setup starts.
 */
function placeSetupCuts(scenes: ScenePlan[], moments: PlannedMoment[]): ScenePlan[] {
  const wanted = moments.filter((m) => m.setup_style === "scene").map((m) => m.setup_start);
  if (wanted.length === 0) return scenes;
  const keepOut = moments.filter((m) => m.setup_style === "scene").map((m) => ({ start: m.setup_start - SEGMENT_SECONDS, end: m.end + SEGMENT_SECONDS }));
  const cuts = new Set(scenes.slice(1).map((s) => s.start).filter((c) => !keepOut.some((k) => c > k.start && c < k.end)));
  for (const c of wanted) cuts.add(c);
  const duration = scenes.at(-1)!.end;
  const times = [0, ...[...cuts].filter((c) => c > 0 && c < duration).sort((a, b) => a - b), duration];
  const out: ScenePlan[] = [];
  for (let i = 0; i + 1 < times.length; i++) {
    // The scene after the previous one in the list: consecutive scenes always differ.
    const previous = out.at(-1)?.scene ?? SCENES[SCENES.length - 1]!;
    out.push({ start: times[i]!, end: times[i + 1]!, scene: SCENES[(SCENES.indexOf(previous) + 1) % SCENES.length]! });
  }
  return out;
}

function planScenes(duration: number, rng: Random): ScenePlan[] {
  const scenes: ScenePlan[] = [];
  let start = 0;
  let previous: SceneName | null = null;
  while (start < duration) {
    const length = SEGMENT_SECONDS * rng.int(3, 12);
    const choices = SCENES.filter((s) => s !== previous);
    const scene = rng.pick(choices);
    const end = Math.min(duration, start + length);
    scenes.push({ start, end, scene });
    previous = scene;
    start = end;
  }
  return scenes;
}

/** `quiet`: the stretches without talk (default: a few 15-25 s ones drawn from the seed between moments). */
export function planTimeline(duration: number, seed: number, requested?: MomentRequest[], quiet?: Span[]): TimelinePlan {
  const rng = new Random(seed);
  const requests = (requested ?? defaultMoments(duration, rng)).slice().sort((a, b) => a.peak - b.peak);
  const moments = requests.map((r, i) => planMoment(r, i, rng));
  const plannedQuiet = quiet ? quiet.map((q) => ({ ...q })) : planQuiet(duration, moments, rng);
  return { duration, moments, quiet: plannedQuiet, scenes: placeSetupCuts(planScenes(duration, rng), moments) };
}

export interface SpeechPlacement {
  style: "calm" | "excited";
  clip: number;
  start: number;
  end: number;
}

/**
 * Lays sentences along the timeline: calm talk everywhere except quiet stretches and loud bursts, excited
 * shouting back to back through each loud burst.
 */
export function placeSpeech(
  plan: TimelinePlan,
  calmDurations: number[],
  excitedDurations: number[],
  seed: number,
): SpeechPlacement[] {
  const rng = new Random(seed ^ 0x5bd1e995);
  const placements: SpeechPlacement[] = [];
  const shouts = plan.moments.filter((m) => m.loud && m.kind !== "game_noise");
  // A "talk" setup: the streamer pauses for 3 s, then starts talking exactly where the setup starts.
  const talkSetups = plan.moments.filter((m) => m.setup_style === "talk");
  const pauses = talkSetups.map((m) => ({ start: Math.max(0, m.setup_start - 3), end: m.setup_start, resume: true }));
  const blocked: (Span & { resume?: boolean })[] = [...plan.quiet, ...shouts.map((m) => m.loud!), ...pauses].sort((a, b) => a.start - b.start);
  for (const m of shouts) {
    let t = m.loud!.start + 0.1;
    while (t < m.loud!.end - 0.5) {
      const clip = rng.int(0, excitedDurations.length - 1);
      placements.push({ style: "excited", clip, start: t, end: t + excitedDurations[clip]! });
      t += excitedDurations[clip]! + 0.15;
    }
  }
  // Talk leading into a "talk" setup runs on without long pauses, so the pause before it is the one marker.
  const inTalkSetup = (t: number) => talkSetups.some((m) => t >= m.setup_start && t < m.peak);
  let t = 0.8;
  while (t < plan.duration - 1) {
    const hit = blocked.find((b) => t >= b.start - 0.3 && t < b.end);
    if (hit) {
      t = hit.end + (hit.resume ? 0 : 0.6);
      continue;
    }
    const clip = rng.int(0, calmDurations.length - 1);
    const end = t + calmDurations[clip]!;
    const next = blocked.find((b) => b.start >= t && b.start < end + 0.3);
    if (end > plan.duration - 0.2 || next) {
      t = next ? next.end + (next.resume ? 0 : 0.6) : plan.duration;
      continue;
    }
    placements.push({ style: "calm", clip, start: t, end });
    const gap = rng.next() < 0.15 ? rng.range(3, 6) : rng.range(0.4, 1.8);
    t = end + (inTalkSetup(end) ? Math.min(gap, rng.range(0.3, 0.8)) : gap);
  }
  return placements.sort((a, b) => a.start - b.start);
}
