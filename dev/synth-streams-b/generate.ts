import { readdirSync, readFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildOnce, exists, hashOf, synthCacheRoot } from "../synth-vod/cache-dir";
import { Random } from "../synth-vod/random";
import { generateChat, type ChatLogTruth } from "./chat";
import { streamSpec, type StreamSpec } from "./conditions";
import type { GameSoundKind } from "./game-sounds";
import { mixToFlac, type Loop, type Placed } from "./mix";
import { PALETTE_B, type Palette } from "./palette";
import { gainFor, type Sound } from "./sox-clip";
import { drawDrift, driftGainAt, type DrawnDrift } from "./level-drift";
import { planTalk, type LineSet, type Speaker } from "./talk";
import { louderGame, planTimeline, REAL_KINDS, streamLength, withoutRealMoments, type MomentKind } from "./timeline";

/** Names the evaluation's stream folder; bumped when the streams change on purpose. */
export const STREAMS_B_VERSION = 2;

/**
 * The generator's own source is part of every stream's parameter hash: any change to what it plants regenerates
 * the cached streams instead of scoring stale ones against new truth.
 */
export function sourceHashOf(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts")).sort();
  return hashOf(files.map((f) => readFileSync(path.join(dir, f), "utf8")));
}
const SOURCE_HASH = sourceHashOf(path.dirname(fileURLToPath(import.meta.url)));

export interface MomentTruthB {
  id: string;
  kind: MomentKind;
  real: boolean;
  setup_start: number;
  peak: number;
  end: number;
  /** The biggest hype moments: a full shout (often over a game sound) and a large chat burst. */
  both_strong: boolean;
  sound: { kind: GameSoundKind; at: number[]; db: number } | null;
  shout: { start: number; end: number; db: number; guest_too: boolean } | null;
  swell: { start: number; end: number; db: number } | null;
  /** Its chat event as generated (see chat.events for the messages' first and last offsets). */
  chat: { kind: string; planned_start: number; planned_end: number; lag: number } | null;
}

export interface UtteranceTruth {
  speaker: Speaker;
  text: string;
  start: number;
  end: number;
  shout: boolean;
}

export interface StreamTruthB {
  source: Palette["source"];
  version: number;
  params_hash: string;
  vod_id: string;
  seed: number;
  condition: StreamSpec["condition"];
  duration_seconds: number;
  audio_file: string;
  spec: StreamSpec;
  /** The curves the levels followed (`--levels drift` only). */
  level_drift?: DrawnDrift;
  moments: MomentTruthB[];
  /** Every sentence either speaker says (a clip should not cut through any of them). */
  utterances: UtteranceTruth[];
  ambient_sounds: { kind: GameSoundKind; at: number; db: number }[];
  chat: ChatLogTruth;
}

export interface StreamBOptions {
  root: string;
  vodId: string;
  seed: number;
  /** A shorter stream than the seed's condition draws (tests); the moments that fit are kept. */
  durationSeconds?: number;
  cacheRoot?: string;
  log?: (line: string) => void;
  /** Voices, sounds and words (default: source b's own). */
  palette?: Palette;
  /** A hash of the palette's own source files, so a change to them regenerates its streams. */
  paletteHash?: string;
}

async function speakAll(spec: StreamSpec, palette: Palette, cacheRoot: string): Promise<Record<LineSet, Sound[]>> {
  const out = {} as Record<LineSet, Sound[]>;
  const LINES = palette.lines;
  for (const set of Object.keys(LINES) as LineSet[]) {
    const voice = set.startsWith("guest") ? spec.guest : spec.streamer;
    const shout = set.endsWith("shouts");
    out[set] = [];
    // Two at a time: the machine's other core mixes or analyses.
    for (let i = 0; i < LINES[set].length; i += 2) {
      out[set].push(...(await Promise.all(LINES[set].slice(i, i + 2).map((t) => palette.speak(voice, t, shout, cacheRoot)))));
    }
  }
  return out;
}

/**
 * Writes `<root>/<vodId>/` with audio.flac, chat.json (GQL comment nodes) and truth.json for one seed of source
 * b; a folder with the same parameter hash is reused.
 */
export async function generateStreamB(options: StreamBOptions): Promise<{ dir: string; truth: StreamTruthB }> {
  const palette = options.palette ?? PALETTE_B;
  const spec = streamSpec(options.seed, palette);
  if (options.durationSeconds) spec.durationSeconds = options.durationSeconds;
  const paramsHash = hashOf({ v: STREAMS_B_VERSION, source: SOURCE_HASH, palette: options.paletteHash ?? null, spec, vodId: options.vodId, short: options.durationSeconds ?? null });
  const dir = path.join(path.resolve(options.root), options.vodId);
  const truthFile = path.join(dir, "truth.json");
  if (await exists(truthFile)) {
    const existing = JSON.parse(await readFile(truthFile, "utf8")) as StreamTruthB;
    if (existing.params_hash === paramsHash) return { dir, truth: existing };
    await rm(dir, { recursive: true, force: true });
  }
  const cacheRoot = options.cacheRoot ?? synthCacheRoot();
  let truth: StreamTruthB | null = null;
  await buildOnce(dir, async (out) => {
    const began = Date.now();
    let timeline = planTimeline(spec, palette.shoutSeconds);
    if (palette.loudGame) timeline = louderGame(timeline, spec, palette.loudGame);
    if (palette.nothingToFind) timeline = withoutRealMoments(timeline);
    if (options.durationSeconds) {
      // A short test stream keeps the moments that end inside it.
      timeline = { moments: timeline.moments.filter((m) => Math.max(m.end, m.chat?.end ?? 0) + 20 < spec.durationSeconds), ambientSounds: timeline.ambientSounds.filter((s) => s.at + 5 < spec.durationSeconds) };
    }
    const duration = options.durationSeconds ?? streamLength(spec, timeline);
    const speech = await speakAll(spec, palette, cacheRoot);
    const lengths = Object.fromEntries(Object.entries(speech).map(([k, v]) => [k, v.map((s) => s.duration)])) as Record<LineSet, number[]>;
    const talk = planTalk(spec, timeline, duration, lengths);

    // Each moment's sound is drawn from its own seed, so no two moments (or streams) share one recording.
    const placed: Placed[] = [];
    const rng = new Random(spec.seed * 97 + 1);
    const sounds: { kind: GameSoundKind; at: number; db: number }[] = [
      ...timeline.moments.flatMap((m) => (m.sound ? m.sound.at.map((at) => ({ kind: m.sound!.kind, at, db: m.sound!.db })) : [])),
      ...timeline.ambientSounds,
    ];
    // Levels that wander (--levels drift): the streamer's microphone and the game, each on its own slow curve,
    // read at a sound's start (a sentence or a game sound is short beside a swing of minutes).
    const drift = palette.levelDrift ? drawDrift(spec.seed, palette.levelDrift) : null;
    for (const s of sounds) {
      const sound = await palette.gameSound(s.kind, new Random(rng.int(1, 1e9)), cacheRoot);
      placed.push({ sound, start: s.at, gain: gainFor(sound, s.db) * driftGainAt(drift?.game, s.at) });
    }
    for (const u of talk) {
      const sound = speech[u.set][u.line]!;
      const mic = u.speaker === "streamer" ? driftGainAt(drift?.voice, u.start) : 1;
      placed.push({ sound, start: u.start, gain: gainFor(sound, u.db) * mic });
    }
    const loops: Loop[] = [];
    const ambience = await palette.ambienceLoop(rng, cacheRoot);
    const ambienceGain = gainFor(ambience, spec.gameDb);
    loops.push({ sound: ambience, gainAt: (t) => ambienceGain * driftGainAt(drift?.game, t) });
    if (spec.music) {
      const music = await palette.musicLoop(rng, cacheRoot);
      const musicGain = gainFor(music, spec.musicDb);
      const swells = timeline.moments.flatMap((m) => (m.swell ? [m.swell] : []));
      loops.push({
        sound: music,
        gainAt: (t) => {
          const s = swells.find((w) => t >= w.start - 1 && t < w.end + 1);
          return (s ? musicGain * 10 ** (s.db / 20) : musicGain) * driftGainAt(drift?.game, t);
        },
      });
    }
    const step1 = Date.now();
    await mixToFlac(duration, placed, loops, 10 ** (spec.masterDb / 20), path.join(out, "audio.flac"), palette.masterFilter);
    const step2 = Date.now();
    const chat = generateChat(spec, timeline, duration, "2026-03-02T19:00:00Z", palette.chat);
    await writeFile(path.join(out, "chat.json"), JSON.stringify({ comments: chat.comments }));
    truth = {
      source: palette.source,
      version: STREAMS_B_VERSION,
      params_hash: paramsHash,
      vod_id: options.vodId,
      seed: spec.seed,
      condition: spec.condition,
      duration_seconds: duration,
      audio_file: "audio.flac",
      spec,
      ...(drift ? { level_drift: drift } : {}),
      moments: timeline.moments.map((m) => ({
        id: m.id,
        kind: m.kind,
        real: REAL_KINDS.includes(m.kind),
        setup_start: round(m.setup_start),
        peak: round(m.peak),
        end: round(m.end),
        both_strong: m.both_strong,
        sound: m.sound ? { kind: m.sound.kind, at: m.sound.at.map(round), db: round(m.sound.db + spec.masterDb) } : null,
        shout: m.shout ? { start: round(m.shout.start), end: round(m.shout.end), db: round(m.shout.db + spec.masterDb), guest_too: m.shout.guest } : null,
        swell: m.swell ? { start: round(m.swell.start), end: round(m.swell.end), db: round(m.swell.db) } : null,
        chat: m.chat ? { kind: m.chat.kind, planned_start: round(m.chat.start), planned_end: round(m.chat.end), lag: round(m.chat.lag) } : null,
      })),
      utterances: talk.map((u) => ({ speaker: u.speaker, text: palette.lines[u.set][u.line]!, start: round(u.start), end: round(u.end), shout: u.shout })),
      ambient_sounds: timeline.ambientSounds.map((s) => ({ kind: s.kind, at: round(s.at), db: round(s.db + spec.masterDb) })),
      chat: chat.truth,
    };
    await writeFile(path.join(out, "truth.json"), JSON.stringify(truth, null, 2));
    options.log?.(`synth-streams-${palette.source} ${options.vodId} (seed ${spec.seed}, ${spec.condition}, ${duration} s): sounds and speech ${((step1 - began) / 1000).toFixed(1)} s, mix ${((step2 - step1) / 1000).toFixed(1)} s`);
  });
  if (truth) return { dir, truth };
  return { dir, truth: JSON.parse(await readFile(truthFile, "utf8")) as StreamTruthB };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

