import { Random } from "./random";

export type MomentKind = "hype" | "loud_only" | "chat_only";

export interface MomentRequest {
  kind: MomentKind;
  /** VOD second of the reaction's climax (for chat_only: start of the spam). */
  peak: number;
  id?: string;
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
  peak: number;
  end: number;
  /** Excited shouting over noise and tones; null for chat_only. */
  loud: Span | null;
  /** Chat burst; for hype it lags the peak by 5-12 s, as real chat does. Null for loud_only. */
  chat: (Span & { lag: number }) | null;
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
  if (req.kind === "chat_only") {
    return { id, kind: req.kind, setup_start: peak, peak, end: peak + 15, loud: null, chat: { start: peak, end: peak + 15, lag: 0 } };
  }
  const loud = { start: peak - 1, end: peak + 6 };
  const lag = req.kind === "hype" ? rng.int(5, 12) : 0;
  return {
    id,
    kind: req.kind,
    setup_start: Math.max(0, peak - 20),
    peak,
    end: peak + 10,
    loud,
    chat: req.kind === "hype" ? { start: peak + lag, end: peak + lag + 18, lag } : null,
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

export function planTimeline(duration: number, seed: number, requested?: MomentRequest[]): TimelinePlan {
  const rng = new Random(seed);
  const requests = (requested ?? defaultMoments(duration, rng)).slice().sort((a, b) => a.peak - b.peak);
  const moments = requests.map((r, i) => planMoment(r, i, rng));
  return { duration, moments, quiet: planQuiet(duration, moments, rng), scenes: planScenes(duration, rng) };
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
  const blocked: Span[] = [...plan.quiet, ...plan.moments.flatMap((m) => (m.loud ? [m.loud] : []))].sort(
    (a, b) => a.start - b.start,
  );
  for (const m of plan.moments) {
    if (!m.loud) continue;
    let t = m.loud.start + 0.1;
    while (t < m.loud.end - 0.5) {
      const clip = rng.int(0, excitedDurations.length - 1);
      placements.push({ style: "excited", clip, start: t, end: t + excitedDurations[clip]! });
      t += excitedDurations[clip]! + 0.15;
    }
  }
  let t = 0.8;
  while (t < plan.duration - 1) {
    const hit = blocked.find((b) => t >= b.start - 0.3 && t < b.end);
    if (hit) {
      t = hit.end + 0.6;
      continue;
    }
    const clip = rng.int(0, calmDurations.length - 1);
    const end = t + calmDurations[clip]!;
    const next = blocked.find((b) => b.start >= t && b.start < end + 0.3);
    if (end > plan.duration - 0.2 || next) {
      t = next ? next.end + 0.6 : plan.duration;
      continue;
    }
    placements.push({ style: "calm", clip, start: t, end });
    t = end + (rng.next() < 0.15 ? rng.range(3, 6) : rng.range(0.4, 1.8));
  }
  return placements.sort((a, b) => a.start - b.start);
}
