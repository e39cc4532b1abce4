/**
 * `npm run eval:highlights -- --source b`: the evaluation on streams of the second generator
 * (dev/synth-streams-b), which varies what the first one holds fixed: the streamer shouting over loud game
 * sounds, a music bed, a guest's voice, chat lag from 2 to 30 s (one condition 14-24 s), small and huge chats,
 * emote-only reactions, raids, spam loops and bot networks, small talk, streams of two hours and more, voices and
 * loudness that differ per stream. Each stream runs through what a job runs (job-selection.ts) with the API's
 * defaults: each profile alone at its default budget, and the three profiles in one job with a 6-minute total.
 *
 * Per condition and overall, per run (profile or baseline):
 *   own recall    the run's own kind found: balanced -> hype; audience -> hype + audience-only (what chat
 *                 reacted to); streamer -> hype + streamer-only (what the streamer shouted at)
 *   precision     clips holding a real moment's peak
 *   empty         clips with nothing planted in them; "reaction" clips hold only chat's late reaction
 *   distractor    clips on a distractor (game sounds alone, a music swell, calm talk over a loud fight, a raid,
 *                 spam, the greeting wave)
 *   payoff        median seconds after the peak (hype and audience-only)
 *   mid-sentence  clip starts and ends inside a sentence of either speaker
 *   both strong   (balanced) the biggest hype moments found, beside a loudness baseline with as many clips
 *   short shouts  real moments whose shout lasts under 2.5 s found (an exclamation: the hardest to hear)
 *   titles        titles quoting small talk (a greeting, a question) or spam (a loop, promotion)
 * Baselines: chat rate and loudness, top-k peaks (10 s before, 20 s after), k = the clips the profile chose on
 * that stream.
 *
 * Tuning seeds 1-28 (four per condition; seed % 7 picks the condition; 1-7 were the first set, 8-28 were added
 * in session 9 so a rule is judged on more than one stream per condition; `--tuning-seeds 32,38,39,44,45,51,60,93`
 * is the late-chat tuning set of session 10, every stream's chat 28-30 s late) and held-out seeds 2801-2814 (two per
 * condition, not read yet; 101-107, 301-307, 501-514, 601-614, 701-714, 801-814, 901-914, 1001-1014, 1201-1214,
 * 1301-1314, 1401-1414, 1501-1514, 1601-1614, 1701-1714, 1801-1814, 1901-1914, 2001-2014, 2101-2114, 2201-2214, 2301-2314, 2401-2414, 2501-2514, 2601-2614 and 2701-2714 were earlier held-out sets, each read once after its session's tuning
 * and now spent; 1101-1114 was read for diagnosis).
 * The held-out seeds are read once, after tuning: `--source b` alone runs the tuning seeds; only an explicit
 * `--split held-out` (or `both`) reads the others.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { RunProfile } from "../../common/contract/enums";
import { CONDITIONS, generateStreamB, PALETTE_B, STREAMS_B_VERSION, type ChatVocabulary, type MomentKind, type Palette, type StreamTruthB } from "../../dev/synth-streams-b";
import { generateStreamC, generateStreamCCompressed, generateStreamCDrift, generateStreamCFlat, generateStreamCCalm, generateStreamCLoud, generateStreamCLoudnorm, PALETTE_C, PALETTE_C_CALM, PALETTE_C_COMPRESSED, PALETTE_C_DRIFT, PALETTE_C_FLAT, PALETTE_C_LOUD, PALETTE_C_LOUDNORM } from "../../dev/synth-streams-c";
import { synthCacheRoot } from "../../dev/synth-vod";
import type { ChatFile } from "../../dev/twitch-server";
import type { AudioAnalysis } from "../../render-container/src/analysis/types";
import type { ChatComment } from "../../common/twitch";
import { chatRateSignal, loudnessSignal, topPeaks } from "./baselines";
import { analyseLikeAJob, commentsFromNodes, runJobSelection, type JobOutcome } from "./job-selection";
import { newTallyB, quotedSmallTalk, recallB, scoreClipsB, type Clip, type TallyB } from "./score-b";
import { UsageError } from "./usage-error";

export const TUNING_SEEDS_B = Array.from({ length: 28 }, (_, i) => i + 1);
export const HELD_OUT_SEEDS_B = Array.from({ length: 14 }, (_, i) => 2801 + i);
/**
 * Source c (source b's plans with flite voices, other sounds, words and chat: dev/synth-streams-c) is a check of
 * what carries over, not material to tune on: seeds 101-114 were looked at first (session 13) and may be used
 * for diagnosis; 213-226 are held out (1-14 and 15-28 were read once in session 13, 29-42 in session 14, with
 * `--voices flat` too, 43-56 in session 15 with `--sounds loud` and `--mix loudnorm`, 57-70 in session 16 plain,
 * with `--mix loudnorm` and with `--mix compressed`, 71-84 in session 17 the same three, 85-98 in session 18 those
 * three, `--sounds loud`, `--voices flat` and `--emotes text`, 115-128 in session 19 plain, with `--levels drift`,
 * `--mix compressed`, `--mix loudnorm` and `--moments none`, 129-142 and 143-156 in session 20 the same five, 157-170 in session 21 the same five, 171-184 in session 22 those five and `--sounds loud` (read again in session 23 as a second tuning set), 185-198 in session 23 the same six, 199-212 in session 25 the same six: all spent, as the
 * variants share the plans).
 */
export const TUNING_SEEDS_C = Array.from({ length: 14 }, (_, i) => 101 + i);
export const HELD_OUT_SEEDS_C = Array.from({ length: 14 }, (_, i) => 213 + i);

/**
 * Variants of source c on its plans and seeds, each with its own VOD ids and folder, named by one option: every
 * voice on one pitch (`--voices flat`), the mix through a broadcast compressor (`--mix compressed`), the game
 * louder than the streamer (`--sounds loud`), nothing to find (`--moments none`), levels that wander over the
 * stream (`--levels drift`).
 */
export const C_VARIANTS = [
  { option: "voices", value: "flat", key: "c-flat", says: "every voice on one pitch" },
  { option: "mix", value: "compressed", key: "c-compressed", says: "the mix through a broadcast compressor" },
  { option: "mix", value: "loudnorm", key: "c-loudnorm", says: "the mix through FFmpeg's loudness normaliser" },
  { option: "sounds", value: "loud", key: "c-loud", says: "game sounds louder than the streamer" },
  { option: "moments", value: "none", key: "c-calm", says: "no moment to find, only the distractors" },
  { option: "levels", value: "drift", key: "c-drift", says: "the streamer's and the game's levels wandering over the stream" },
] as const;
export type VariantOption = (typeof C_VARIANTS)[number]["option"];
/** Every variant option (`--voices`, `--mix`, ...), each once: the command line's options are made from it. */
export const VARIANT_OPTIONS: VariantOption[] = [...new Set(C_VARIANTS.map((v) => v.option))];
/** The variant options a parsed command line gave, by name. */
export function variantsGiven(values: Partial<Record<string, unknown>>): Partial<Record<VariantOption, string>> {
  return Object.fromEntries(VARIANT_OPTIONS.flatMap((o) => (typeof values[o] === "string" ? [[o, values[o]]] : [])));
}
export type SourceKey = "b" | "c" | (typeof C_VARIANTS)[number]["key"];

/**
 * The source `--source` and the variant options (`--voices`, `--mix`, `--sounds`, `--moments`, `--levels`) name together (b, c, or one
 * variant of c), or an error saying which option is wrong and why: an unknown value, a variant of another source,
 * or two variants at once.
 */
export function sourceOfOptions(source: string, variants: Partial<Record<VariantOption, string>> = {}): SourceKey {
  const options = VARIANT_OPTIONS;
  const given = options.filter((o) => variants[o] !== undefined);
  for (const o of given) {
    const allowed = C_VARIANTS.filter((v) => v.option === o);
    if (!allowed.some((v) => v.value === variants[o])) throw new UsageError(`--${o} takes ${allowed.map((v) => `${v.value} (${v.says})`).join(" or ")}, got ${variants[o]}`);
  }
  const names = options.map((o) => `--${o}`).join(", ");
  if (given.length > 0 && source !== "c") throw new UsageError(`${names} are variants of source c, not of source ${source}`);
  if (source !== "b" && source !== "c") throw new UsageError(`--source must be b or c here, got ${source}`);
  if (given.length > 1) throw new UsageError(`${given.map((o) => `--${o}`).join(" and ")} are separate variants of source c: give one`);
  const o = given[0];
  return o ? C_VARIANTS.find((v) => v.option === o && v.value === variants[o])!.key : source;
}

/**
 * Whether `--emotes` asks for the chat's emotes as bare words (`text`), or an error saying why the value or the
 * source is wrong: only sources b and c have it (source a's chat is its own generator's, always marked).
 */
export function emotesAsTextOf(source: string, emotes: string | undefined): boolean {
  if (emotes === undefined) return false;
  if (source !== "b" && source !== "c") throw new UsageError(`--emotes is an option of sources b and c, not of source ${source}`);
  if (emotes !== "text") throw new UsageError(`--emotes takes text (the chat's emotes as bare words, no fragment marked), got ${emotes}`);
  return true;
}

export const SOURCES: Record<SourceKey, { palette: Palette; generate: typeof generateStreamB; vodBase: number; tuning: number[]; heldOut: number[] }> = {
  b: { palette: PALETTE_B, generate: generateStreamB, vodBase: 930000000, tuning: TUNING_SEEDS_B, heldOut: HELD_OUT_SEEDS_B },
  c: { palette: PALETTE_C, generate: generateStreamC, vodBase: 940000000, tuning: TUNING_SEEDS_C, heldOut: HELD_OUT_SEEDS_C },
  "c-flat": { palette: PALETTE_C_FLAT, generate: generateStreamCFlat, vodBase: 950000000, tuning: TUNING_SEEDS_C, heldOut: HELD_OUT_SEEDS_C },
  "c-compressed": { palette: PALETTE_C_COMPRESSED, generate: generateStreamCCompressed, vodBase: 960000000, tuning: TUNING_SEEDS_C, heldOut: HELD_OUT_SEEDS_C },
  "c-loudnorm": { palette: PALETTE_C_LOUDNORM, generate: generateStreamCLoudnorm, vodBase: 980000000, tuning: TUNING_SEEDS_C, heldOut: HELD_OUT_SEEDS_C },
  "c-calm": { palette: PALETTE_C_CALM, generate: generateStreamCCalm, vodBase: 990000000, tuning: TUNING_SEEDS_C, heldOut: HELD_OUT_SEEDS_C },
  "c-loud": { palette: PALETTE_C_LOUD, generate: generateStreamCLoud, vodBase: 970000000, tuning: TUNING_SEEDS_C, heldOut: HELD_OUT_SEEDS_C },
  "c-drift": { palette: PALETTE_C_DRIFT, generate: generateStreamCDrift, vodBase: 920000000, tuning: TUNING_SEEDS_C, heldOut: HELD_OUT_SEEDS_C },
};

const PROFILES: RunProfile[] = ["balanced", "audience", "streamer"];
const OWN: Record<RunProfile, MomentKind[]> = {
  balanced: ["hype"],
  audience: ["hype", "audience_only"],
  streamer: ["hype", "streamer_only"],
};
/** The outside check of issue 20 ran the three profiles in one job with a 6-minute total. */
const TOGETHER_MINUTES = 6;

interface StreamB {
  truth: StreamTruthB;
  audio: AudioAnalysis;
  comments: ChatComment[];
}

async function loadStream(source: SourceKey, root: string, seed: number, log: (l: string) => void, emotesAsText = false): Promise<StreamB & { dispose: () => Promise<void>; seconds: { generate: number; analyse: number } }> {
  const t0 = Date.now();
  const { dir, truth } = await SOURCES[source].generate({ root, vodId: String(SOURCES[source].vodBase + seed), seed, log });
  const t1 = Date.now();
  const comments = commentsFromNodes((JSON.parse(await readFile(path.join(dir, "chat.json"), "utf8")) as ChatFile).comments, { emotesAsText });
  const { audio, dispose } = await analyseLikeAJob(path.join(dir, truth.audio_file), truth.duration_seconds);
  const t2 = Date.now();
  log(`seed ${seed} (${truth.condition}, ${(truth.duration_seconds / 60).toFixed(0)} min, lag ${truth.chat.lag_seconds} s, ${truth.chat.base_rate_per_second.toFixed(2)} msg/s): generated ${((t1 - t0) / 1000).toFixed(1)} s, analysed ${((t2 - t1) / 1000).toFixed(1)} s`);
  return { truth, audio, comments, dispose, seconds: { generate: (t1 - t0) / 1000, analyse: (t2 - t1) / 1000 } };
}

interface RunTally {
  run: string;
  own: MomentKind[];
  t: TallyB;
  titles: number;
  distinct: Set<string>;
  titlesQuoting: string[];
}

type Tallies = Map<string, RunTally>;

function tallyOf(map: Tallies, run: string, own: MomentKind[]): RunTally {
  if (!map.has(run)) map.set(run, { run, own, t: newTallyB(), titles: 0, distinct: new Set(), titlesQuoting: [] });
  return map.get(run)!;
}

const clipsOf = (o: JobOutcome, p: RunProfile): Clip[] => (o.byProfile[p] ?? []).map((m) => ({ start: m.start, end: m.end }));

function countTitles(r: RunTally, o: JobOutcome, profile: RunProfile, vodId: string, chat: ChatVocabulary): void {
  for (const t of o.titles.filter((x) => x.profile === profile)) {
    r.titles++;
    r.distinct.add(t.title);
    const q = quotedSmallTalk(t.title, chat);
    if (q) r.titlesQuoting.push(`${vodId} ${q.category}: "${t.title}"`);
  }
}

/** Every run on one stream, tallied into `overall` and into the stream's condition. */
/** Jobs run, and what hearing their clip edges cost (printed at the end). */
const edgeCost = { jobs: 0, heardSeconds: 0, cpuSeconds: 0 };
const countEdges = (o: JobOutcome) => {
  edgeCost.jobs++;
  edgeCost.heardSeconds += o.edges.heardSeconds;
  edgeCost.cpuSeconds += o.edges.cpuSeconds;
};

async function evaluateStream(s: StreamB, into: Tallies[], withTitles: boolean): Promise<void> {
  const chat = SOURCES[s.truth.source].palette.chat;
  const d = s.truth.duration_seconds;
  const chatRate = chatRateSignal(s.comments, s.audio.loudnessAboveBaselineDb.length);
  const loud = loudnessSignal(s.audio);
  const stream = { vodId: s.truth.vod_id, title: `Ranked grind, seed ${s.truth.seed}`, streamer: "SourceBStreamer", game: "Arena Shooter", durationSeconds: d, audio: s.audio, comments: s.comments };
  const score = (run: string, own: MomentKind[], clips: Clip[]) => {
    for (const m of into) scoreClipsB(tallyOf(m, run, own).t, s.truth, clips);
  };
  const baselines = (label: string, own: MomentKind[], k: number) => {
    score(`  chat-rate top-k (k as ${label})`, own, topPeaks(chatRate, k, d));
    score(`  loudness top-k (k as ${label})`, own, topPeaks(loud, k, d));
  };
  for (const p of PROFILES) {
    const o = await runJobSelection(stream, { run_profiles: [p] }, withTitles);
    countEdges(o);
    const clips = clipsOf(o, p);
    score(p, OWN[p], clips);
    for (const m of into) countTitles(tallyOf(m, p, OWN[p]), o, p, s.truth.vod_id, chat);
    baselines(p, OWN[p], clips.length);
  }
  const together = await runJobSelection(stream, { run_profiles: PROFILES, final_video_length_minutes: TOGETHER_MINUTES }, withTitles);
  countEdges(together);
  for (const p of PROFILES) {
    const run = `${p} (3 profiles, ${TOGETHER_MINUTES} min)`;
    const clips = clipsOf(together, p);
    score(run, OWN[p], clips);
    for (const m of into) countTitles(tallyOf(m, run, OWN[p]), together, p, s.truth.vod_id, chat);
    baselines(`${p}, 3 profiles`, OWN[p], clips.length);
  }
}

const f2 = (x: number | null) => (x === null ? "-" : x.toFixed(2));
const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const frac = (a: number, b: number) => `${a}/${b}`;

export interface RowB {
  run: string;
  clips_per_stream: string;
  own_kinds: string;
  own_recall: string;
  own_recall_value: number | null;
  hype: string;
  streamer_only: string;
  audience_only: string;
  both_strong: string;
  /** Real moments with a shout under SHORT_SHOUT_SECONDS found (score-b.ts), whichever profile's kind they are. */
  short_shouts: string;
  precision: number | null;
  empty_clips: number;
  reaction_only_clips: number;
  distractor_clips: number;
  payoff_median: number | null;
  mid_sentence: string;
  /** Edges within NEAR_SPEECH (0.3 s) of a sentence, inside or out: how close the cuts sail. */
  near_speech: string;
  titles: string;
  titles_quoting_small_talk_or_spam: number;
  examples: string[];
}

function rowOf(r: RunTally): RowB {
  const t = r.t;
  const own = recallB(t, r.own);
  const k = (kind: MomentKind) => frac(t.found[kind] ?? 0, t.planted[kind] ?? 0);
  return {
    run: r.run,
    clips_per_stream: t.clipsPerStream.length ? `${Math.min(...t.clipsPerStream)}-${Math.max(...t.clipsPerStream)}` : "-",
    own_kinds: r.own.join("+"),
    own_recall: frac(own.found, own.planted),
    own_recall_value: own.planted ? own.found / own.planted : null,
    hype: k("hype"),
    streamer_only: k("streamer_only"),
    audience_only: k("audience_only"),
    both_strong: frac(t.bothStrongFound, t.bothStrongPlanted),
    short_shouts: frac(t.shortShoutFound, t.shortShoutPlanted),
    precision: t.clips ? t.realClips / t.clips : null,
    empty_clips: t.emptyClips,
    reaction_only_clips: t.reactionOnlyClips,
    distractor_clips: t.distractorClips,
    payoff_median: median(t.payoff),
    mid_sentence: frac(t.midSentence, t.ends),
    near_speech: frac(t.nearSpeech, t.ends),
    titles: r.run.startsWith(" ") ? "" : `${r.titles} (${r.distinct.size} distinct)`,
    titles_quoting_small_talk_or_spam: r.titlesQuoting.length,
    examples: [...t.examples.slice(0, 4), ...r.titlesQuoting.slice(0, 3)],
  };
}

function printRows(rows: RowB[]): void {
  const header = ["run", "clips/stream", "own recall", "hype", "str-only", "aud-only", "both strong", "short shouts", "precision", "empty", "reaction", "distractor", "payoff s", "mid-sentence", "titles", "quoting talk/spam"];
  const cells = rows.map((r) => [
    r.run, r.clips_per_stream, `${r.own_recall} ${f2(r.own_recall_value)} (${r.own_kinds})`, r.hype, r.streamer_only, r.audience_only, r.both_strong, r.short_shouts, f2(r.precision),
    String(r.empty_clips), String(r.reaction_only_clips), String(r.distractor_clips), r.payoff_median === null ? "-" : r.payoff_median.toFixed(1), r.mid_sentence,
    r.titles, r.titles ? String(r.titles_quoting_small_talk_or_spam) : "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(widths[i]!)).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(line(c));
}

/** The issue's targets on one split's overall rows. */
export function targetsB(rows: RowB[]): Record<string, boolean> {
  const get = (run: string) => rows.find((r) => r.run === run);
  const alone = PROFILES.map((p) => get(p)!).filter(Boolean);
  const together = PROFILES.map((p) => get(`${p} (3 profiles, ${TOGETHER_MINUTES} min)`)!).filter(Boolean);
  const balanced = get(`balanced (3 profiles, ${TOGETHER_MINUTES} min)`);
  const loudBase = get("  loudness top-k (k as balanced, 3 profiles)");
  const found = (r: RowB | undefined) => Number(r?.both_strong.split("/")[0] ?? 0);
  const mine = [...alone, ...together];
  return {
    // A stream with nothing to find (--moments none) has no own moment to miss.
    own_recall_ge_0_75_alone: alone.every((r) => r.own_recall_value === null || r.own_recall_value >= 0.75),
    precision_ge_0_9: mine.every((r) => (r.precision ?? 1) >= 0.9),
    no_empty_clip: mine.every((r) => r.empty_clips === 0 && r.reaction_only_clips === 0),
    no_distractor_clip: mine.every((r) => r.distractor_clips === 0),
    balanced_both_strong_ge_loudness_baseline: found(balanced) >= found(loudBase),
    payoff_median_ge_8: mine.every((r) => (r.payoff_median ?? 99) >= 8),
    no_mid_sentence_cut: mine.every((r) => r.mid_sentence.startsWith("0/")),
    no_title_quoting_small_talk_or_spam: mine.every((r) => r.titles_quoting_small_talk_or_spam === 0),
  };
}

export interface SourceBOptions {
  /** b, or c: source b's plans with other voices, sounds and words (c-flat, c-compressed: c's variants). */
  source: SourceKey;
  split: string;
  tuningSeeds?: number[];
  heldOutSeeds?: number[];
  root?: string;
  out?: string;
  /** Titles need the job's text writer: on by default, `--no-titles` skips them. */
  titles: boolean;
  /** `--emotes text`: the chat's emotes as bare words, no fragment marked (commentsFromNodes). */
  emotesAsText?: boolean;
}

export async function runSourceB(o: SourceBOptions): Promise<void> {
  const splits: { name: "tuning" | "held-out"; seeds: number[] }[] = [];
  const src = SOURCES[o.source];
  if (o.split !== "held-out") splits.push({ name: "tuning", seeds: o.tuningSeeds ?? src.tuning });
  if (o.split !== "tuning") splits.push({ name: "held-out", seeds: o.heldOutSeeds ?? src.heldOut });
  const overlap = splits.length === 2 ? splits[0]!.seeds.filter((s) => splits[1]!.seeds.includes(s)) : [];
  if (overlap.length > 0) throw new UsageError(`seeds ${overlap.join(",")} are in both splits; held-out seeds must be unseen`);
  const root = path.resolve(o.root ?? path.join(synthCacheRoot(), `eval-streams-${o.source}-v${STREAMS_B_VERSION}`));
  await mkdir(root, { recursive: true });
  const began = Date.now();
  const results: Record<string, unknown> = {};
  let audioSeconds = 0;
  let analyseSeconds = 0;
  let generateSeconds = 0;
  for (const split of splits) {
    const overall: Tallies = new Map();
    const byCondition = new Map<string, Tallies>();
    const streams: { seed: number; condition: string; minutes: number; lag: number; rate: number }[] = [];
    for (const seed of split.seeds) {
      const s = await loadStream(o.source, root, seed, (l) => console.error(l), o.emotesAsText);
      audioSeconds += s.truth.duration_seconds;
      analyseSeconds += s.seconds.analyse;
      generateSeconds += s.seconds.generate;
      if (!byCondition.has(s.truth.condition)) byCondition.set(s.truth.condition, new Map());
      try {
        await evaluateStream(s, [overall, byCondition.get(s.truth.condition)!], o.titles);
      } finally {
        await s.dispose();
      }
      streams.push({ seed, condition: s.truth.condition, minutes: Math.round(s.truth.duration_seconds / 60), lag: s.truth.chat.lag_seconds, rate: Number(s.truth.chat.base_rate_per_second.toFixed(2)) });
    }
    const conditions: Record<string, RowB[]> = {};
    for (const c of CONDITIONS) {
      const m = byCondition.get(c);
      if (!m) continue;
      const rows = [...m.values()].map(rowOf);
      conditions[c] = rows;
      const ss = streams.filter((x) => x.condition === c);
      console.log(`\n-- source ${o.source}, ${split.name}, condition ${c}: ${ss.map((x) => `seed ${x.seed} (${x.minutes} min, chat lag ${x.lag} s, ${x.rate} msg/s)`).join("; ")}`);
      printRows(rows);
    }
    const rows = [...overall.values()].map(rowOf);
    const planted = (k: MomentKind) => rows[0] ? Number(rows[0][k === "hype" ? "hype" : k === "streamer_only" ? "streamer_only" : "audience_only"].split("/")[1]) : 0;
    console.log(`\n== source ${o.source}${o.emotesAsText ? " (emotes as text)" : ""}, ${split.name} seeds ${split.seeds.join(",")}: ${streams.length} streams, ${streams.reduce((a, x) => a + x.minutes, 0)} min; planted ${planted("hype")} hype, ${planted("streamer_only")} streamer-only, ${planted("audience_only")} audience-only, and distractors`);
    printRows(rows);
    for (const r of rows.filter((x) => !x.run.startsWith(" "))) for (const e of r.examples) console.log(`  ${r.run}: ${e}`);
    const aims = targetsB(rows);
    console.log(`targets (source ${o.source}, ${split.name}): ${Object.entries(aims).map(([k, v]) => `${k}=${v ? "yes" : "NO"}`).join(", ")}`);
    results[split.name] = { seeds: split.seeds, streams, overall: rows, conditions, targets: aims };
  }
  console.log(`\nsource ${o.source}: ${(audioSeconds / 3600).toFixed(2)} h of audio; generation ${generateSeconds.toFixed(0)} s (a cached stream counts 0); job analysis ${(audioSeconds / Math.max(0.001, analyseSeconds)).toFixed(0)}x realtime; whole run ${((Date.now() - began) / 1000).toFixed(0)} s`);
  const perJob = (x: number) => x / Math.max(1, edgeCost.jobs);
  console.log(`clip edges heard: ${perJob(edgeCost.heardSeconds).toFixed(0)} s of audio per job, choosing (all rounds) ${perJob(edgeCost.cpuSeconds).toFixed(2)} CPU s per job, over ${edgeCost.jobs} jobs`);
  results.edges = { jobs: edgeCost.jobs, heard_seconds_per_job: perJob(edgeCost.heardSeconds), choosing_cpu_seconds_per_job: perJob(edgeCost.cpuSeconds) };
  if (o.out) await writeFile(o.out, JSON.stringify({ eval: "highlights", source: o.source, emotes: o.emotesAsText ? "text" : "marked", ...results }, null, 2) + "\n");
}
