/**
 * Highlight quality on synthetic streams with planted moments (`npm run eval:highlights`).
 *
 * Each seed plans a 20-30 minute stream (dev/synth-vod/scenarios.ts): hype moments (the streamer shouts, chat
 * erupts 5-15 s later), streamer-only excitement (chat does not react), audience-only reactions (chat bursts
 * while the streamer stays calm), and distractors: loud game noise without speech or chat, and chat spam from one
 * account or a few; events close together, setups of 6-35 s marked by talk after a pause, a rising build-up, a
 * scene cut or nothing; one condition per stream (typical, busy chat in waves at 4 msg/s, small chat at
 * 0.1 msg/s, loud game audio, long quiet stretches). Only audio and chat are generated: the evaluation analyses
 * the audio file and the chat log as a job does (analyzeAudio, analyzeChat), runs selection per profile with its
 * clip edges heard (hearingEdges, as a job hears them), then
 * snaps to the planted scene cuts as the job does once it has the video (refineMoments), and scores against
 * truth.json, which the selection never sees.
 *
 * Seeds come in two fixed sets: tuning seeds (what the selection's constants were tuned on) and held-out seeds
 * (never looked at while tuning). The figures that count are the held-out ones.
 *
 * Per profile and budget ("tight": a 180 s reel, 4-6 clips; "default": the profile's own target; "open": 1800 s):
 *   own recall   the profile's own kind found: audience -> audience-only moments, streamer -> streamer-only,
 *                balanced -> hype (open budget: audience/streamer also count hype; balanced every real kind)
 *   precision    clips holding a real moment's peak
 *   distractors  clips holding only a distractor (game noise, spam)
 *   setup        median seconds before the peak; for setups marked in the media (talk after a pause, a build-up,
 *                a scene cut) how many clips start on the marker ("found", metrics.ts SETUP_FOUND) and at or
 *                before it ("covered"); for unmarked setups (nothing says where they begin, so nothing can find
 *                them) only "covered"; per marker style in the JSON and printed below the table
 *   payoff       median seconds after the peak, for hype and audience-only moments
 *   mid-sentence clip starts/ends inside a sentence the streamer speaks
 * Baselines: chat rate alone and loudness alone, top-k peaks with a fixed 10 s + 20 s window, k = the clips the
 * matching profile chose on that stream (tight), or the number of real moments (open).
 * A weight sweep shows run_overrides moving the choice: audience_weight 0..1 (streamer_weight = 1 - it).
 *
 * Options: --split held-out|tuning|both (default both), --tuning-seeds 1,...,20, --held-out-seeds 201,...,205,
 * --root DIR, --out FILE (JSON), --bench-hours H (times the audio analysis over H hours of the first stream's
 * audio, looped).
 *
 * --source a (default: the streams above, dev/synth-vod) or b (a second, independent generator,
 * dev/synth-streams-b: see highlight-eval/source-b.ts; its own seeds, the same --*-seeds/--root/--out options,
 * --split tuning by default (its held-out seeds only with an explicit --split held-out or both), and --no-titles
 * to skip the job's text writer), or c (source b's plans with flite voices and other sounds and words;
 * --voices flat: every voice on one pitch; --mix compressed: the mix through a broadcast compressor; --sounds loud:
 * game sounds louder than the streamer; --moments none: nothing to find, only the distractors; --levels drift:
 * the streamer's and the game's levels wandering over the stream); --emotes text (sources
 * b and c): the chat's emotes as bare words with no fragment marked, as a replay that marks none carries them.
 */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ProfileTuning } from "../common/contract/normalized-request";
import type { RunProfile } from "../common/contract/enums";
import { generateSyntheticVod, synthCacheRoot, type MomentKind, type SyntheticVodTruth } from "../dev/synth-vod";
import { evalScenario, SCENARIO_VERSION, type Scenario } from "../dev/synth-vod/scenarios";
import type { ChatFile } from "../dev/twitch-server";
import { analyzeAudio } from "../render-container/src/analysis/analyze-audio";
import { analyzeChat } from "../render-container/src/analysis/chat-signals";
import { withVoiceActivity } from "../render-container/src/analysis/voice-activity";
import type { AudioAnalysis, ChatCommentInput, ChatSignals } from "../render-container/src/analysis/types";
import { refineMoments } from "../render-container/src/selection/refine-moments";
import { selectProfileMoments } from "../render-container/src/selection/select-moments";
import { hearingEdges } from "../render-container/src/pipeline/stages/hear-edges";
import type { Moment } from "../render-container/src/selection/types";
import { PROFILE_DEFAULTS } from "../worker/src/domain/profile-defaults";
import { chatRateSignal, loudnessSignal, topPeaks } from "./highlight-eval/baselines";
import { emotesAsTextOf, runSourceB, sourceOfOptions, VARIANT_OPTIONS, variantsGiven } from "./highlight-eval/source-b";
import { coversSetup, foundSetup, isMarked, median, newTally, ratio, recallOf, scoreClips, SETUP_FOUND, type Clip, type Tally } from "./highlight-eval/metrics";
import { isUsageError, UsageError } from "./highlight-eval/usage-error";

const PROFILES: RunProfile[] = ["balanced", "audience", "streamer"];
const PARAMS = { min_highlight_duration: 20, max_highlight_duration: 60 };
const BUDGETS = { tight: 180, default: null, open: 1800 } as const;
type Budget = keyof typeof BUDGETS;

/** Seeds 1-5 were the first tuning set; 6-20 were added for the spam, sentence and setup rules of issue 13. */
export const TUNING_SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
/**
 * Never looked at while tuning. (101-105 were the first held-out set; their figures were read once, midway
 * through the work of issue 13, so they were replaced by a fresh set for the reported figures.)
 */
export const HELD_OUT_SEEDS = [201, 202, 203, 204, 205];

/** What each profile is for, under a tight budget and with an open one. */
const OWN_TIGHT: Record<RunProfile, MomentKind[]> = {
  balanced: ["hype"],
  audience: ["audience_only"],
  streamer: ["streamer_only"],
};
const OWN_OPEN: Record<RunProfile, MomentKind[]> = {
  balanced: ["hype", "streamer_only", "audience_only"],
  audience: ["hype", "audience_only"],
  streamer: ["hype", "streamer_only"],
};
const SWEEP = [0, 0.2, 0.35, 0.5, 0.65, 0.8, 1];

interface Stream {
  seed: number;
  vodId: string;
  scenario: Scenario;
  truth: SyntheticVodTruth;
  audio: AudioAnalysis;
  comments: ChatCommentInput[];
  chat: ChatSignals;
  /** Removes the kept PCM (the clip edges are heard in it while the stream is evaluated). */
  dispose: () => Promise<void>;
}

function commentsOf(file: ChatFile): ChatCommentInput[] {
  return file.comments.map((n) => ({
    offset_seconds: n.contentOffsetSeconds,
    commenter_login: n.commenter?.login ?? null,
    text: n.message.fragments.map((f) => f.text).join(""),
    emote_count: n.message.fragments.filter((f) => f.emote !== null).length,
  }));
}

async function loadStream(root: string, seed: number, log: (l: string) => void): Promise<Stream & { analysisSeconds: number }> {
  const scenario = evalScenario(seed);
  const vodId = String(910000000 + seed);
  const t0 = Date.now();
  const { dir, truth } = await generateSyntheticVod({ root, vodId, ...scenario.options });
  const t1 = Date.now();
  const comments = commentsOf(JSON.parse(await readFile(path.join(dir, "chat.json"), "utf8")) as ChatFile);
  // As a job does: the PCM kept for the voice-activity model, which listens to the loud stretches.
  const pcmDir = await mkdtemp(path.join(os.tmpdir(), "eval-pcm-"));
  const analysed = await analyzeAudio(path.join(dir, truth.audio_file ?? "audio.flac"), { durationSeconds: truth.duration_seconds, keepPcm: { file: path.join(pcmDir, "pcm.s16"), startSeconds: 0 } });
  const audio = (await withVoiceActivity(analysed)).audio;
  const dispose = () => rm(pcmDir, { recursive: true, force: true });
  const t2 = Date.now();
  const kinds = truth.moments.map((m) => `${m.kind}@${m.peak}`).join(" ");
  log(`seed ${seed} (${scenario.variant.name}, ${truth.duration_seconds} s): generated ${((t1 - t0) / 1000).toFixed(1)} s, analysed ${((t2 - t1) / 1000).toFixed(1)} s: ${kinds}`);
  return { seed, vodId, scenario, truth, audio, comments, chat: analyzeChat(comments, truth.duration_seconds), dispose, analysisSeconds: (t2 - t1) / 1000 };
}

/** Selection as a job runs it (with its clip edges heard: hearingEdges), then the snap to scene cuts found on the downloaded video. */
async function choose(s: Stream, profile: RunProfile, tuning: ProfileTuning): Promise<Moment[]> {
  const d = s.truth.duration_seconds;
  const select = (audio: AudioAnalysis) => selectProfileMoments({ audio, chat: s.chat, durationSeconds: d, tuning, params: PARAMS, manual: [], profile }).moments;
  const { chosen } = await hearingEdges(s.audio, d, select, (ms) => ms.flatMap((m) => [m.start, m.end]));
  return refineMoments(chosen, s.truth.scene_cuts, { minDuration: PARAMS.min_highlight_duration, maxDuration: PARAMS.max_highlight_duration, durationSeconds: d });
}

function tuningFor(profile: RunProfile, budget: Budget): ProfileTuning {
  const base = PROFILE_DEFAULTS[profile];
  const target = BUDGETS[budget];
  return target === null ? base : { ...base, target_duration_seconds: target };
}

const f2 = (x: number | null) => (x === null ? "-" : x.toFixed(2));
const f1 = (x: number | null) => (x === null ? "-" : x.toFixed(1));

interface Row {
  run: string;
  budget: Budget | "sweep";
  clips: number;
  clips_per_vod: string;
  mean_clip_seconds: number | null;
  own_recall: number | null;
  own_kinds: string;
  recall_all_real: number | null;
  precision: number | null;
  distractor_clips: number;
  setup_median_seconds: number | null;
  setup_shortfall_median: number | null;
  /** Marked setups (talk, build-up, scene cut): clips starting on the marker, and at or before it. */
  setup_found_marked: string;
  setup_covered_marked: string;
  /** Marked setups covered but not found: median seconds the clip starts before the marker. */
  setup_early_median: number | null;
  /** Unmarked setups (nothing in the stream says where they begin): clips starting at or before them. */
  setup_covered_unmarked: string;
  setup_by_style: Record<string, string>;
  payoff_median_hype: number | null;
  payoff_median_audience: number | null;
  payoff_median_streamer: number | null;
  mid_sentence_cuts: string;
  found: Partial<Record<MomentKind, string>>;
  examples: string[];
}

function rowOf(run: string, budget: Row["budget"], t: Tally, own: MomentKind[]): Row {
  const byStyle: Record<string, string> = {};
  for (const style of ["talk", "rise", "scene", "fixed"]) {
    const ls = t.lead.filter((l) => l.style === style);
    if (ls.length === 0) continue;
    byStyle[style] = style === "fixed" ? `covered ${ls.filter(coversSetup).length}/${ls.length}` : `found ${ls.filter(foundSetup).length}/${ls.length}, covered ${ls.filter(coversSetup).length}/${ls.length}`;
  }
  const marked = t.lead.filter(isMarked);
  const unmarked = t.lead.filter((l) => !isMarked(l));
  const payoff = (k: MomentKind) => median(t.payoff.filter((p) => p.kind === k).map((p) => p.after));
  const found: Row["found"] = {};
  for (const k of Object.keys(t.planted) as MomentKind[]) found[k] = `${t.found[k] ?? 0}/${t.planted[k]}`;
  return {
    run,
    budget,
    clips: t.clips,
    clips_per_vod: t.clipsPerVod.length ? `${Math.min(...t.clipsPerVod)}-${Math.max(...t.clipsPerVod)}` : "-",
    mean_clip_seconds: ratio(t.clipSeconds, t.clips),
    own_recall: recallOf(t, own),
    own_kinds: own.join("+"),
    recall_all_real: recallOf(t, ["hype", "streamer_only", "audience_only"]),
    precision: ratio(t.relevantClips, t.clips),
    distractor_clips: t.distractorClips,
    setup_median_seconds: median(t.lead.map((l) => l.lead)),
    setup_shortfall_median: median(t.lead.map((l) => Math.max(0, l.needed - l.lead))),
    setup_found_marked: `${marked.filter(foundSetup).length}/${marked.length}`,
    setup_covered_marked: `${marked.filter(coversSetup).length}/${marked.length}`,
    setup_early_median: median(marked.filter((l) => coversSetup(l) && !foundSetup(l)).map((l) => l.lead - l.needed)),
    setup_covered_unmarked: `${unmarked.filter(coversSetup).length}/${unmarked.length}`,
    setup_by_style: byStyle,
    payoff_median_hype: payoff("hype"),
    payoff_median_audience: payoff("audience_only"),
    payoff_median_streamer: payoff("streamer_only"),
    mid_sentence_cuts: `${t.midSentence}/${t.ends}`,
    found,
    examples: [...t.distractorExamples.slice(0, 3), ...t.midSentenceExamples.slice(0, 3)],
  };
}

async function evaluate(streams: readonly Stream[]): Promise<{ rows: Row[]; sweep: { audience_weight: number; audience_only: string; streamer_only: string; hype: string }[] }> {
  const tallies = new Map<string, { t: Tally; budget: Budget; own: MomentKind[] }>();
  const tally = (run: string, budget: Budget, own: MomentKind[]) => {
    const key = `${run}|${budget}`;
    if (!tallies.has(key)) tallies.set(key, { t: newTally(), budget, own });
    return tallies.get(key)!.t;
  };
  const sweep = SWEEP.map((w) => ({ w, t: newTally() }));
  for (const s of streams) {
    const d = s.truth.duration_seconds;
    const seconds = s.audio.loudnessAboveBaselineDb.length;
    const chatRate = chatRateSignal(s.comments, seconds);
    const loud = loudnessSignal(s.audio);
    const realCount = s.truth.moments.filter((m) => ["hype", "streamer_only", "audience_only"].includes(m.kind)).length;
    for (const budget of Object.keys(BUDGETS) as Budget[]) {
      for (const profile of PROFILES) {
        const own = budget === "open" ? OWN_OPEN[profile] : OWN_TIGHT[profile];
        const clips: Clip[] = await choose(s, profile, tuningFor(profile, budget));
        scoreClips(tally(profile, budget, own), s.vodId, clips, s.truth);
        if (budget === "tight" && profile !== "balanced") {
          // The matching baseline with as many clips as the profile chose on this stream.
          const [name, signal] = profile === "audience" ? ["baseline: chat rate", chatRate] as const : ["baseline: loudness", loud] as const;
          scoreClips(tally(`${name} (k as ${profile})`, budget, OWN_TIGHT[profile]), s.vodId, topPeaks(signal, clips.length, d), s.truth);
        }
      }
      if (budget === "open") {
        scoreClips(tally("baseline: chat rate", budget, OWN_OPEN.audience), s.vodId, topPeaks(chatRate, realCount, d), s.truth);
        scoreClips(tally("baseline: loudness", budget, OWN_OPEN.streamer), s.vodId, topPeaks(loud, realCount, d), s.truth);
      }
    }
    for (const { w, t } of sweep) {
      const tuning = { ...PROFILE_DEFAULTS.balanced, audience_weight: w, streamer_weight: 1 - w, target_duration_seconds: BUDGETS.tight };
      scoreClips(t, s.vodId, await choose(s, "balanced", tuning), s.truth);
    }
  }
  const rows = [...tallies.entries()].map(([key, v]) => rowOf(key.split("|")[0]!, v.budget, v.t, v.own));
  const frac = (t: Tally, k: MomentKind) => `${t.found[k] ?? 0}/${t.planted[k] ?? 0}`;
  return {
    rows,
    sweep: sweep.map(({ w, t }) => ({ audience_weight: w, audience_only: frac(t, "audience_only"), streamer_only: frac(t, "streamer_only"), hype: frac(t, "hype") })),
  };
}

function printTable(rows: Row[]): void {
  const header = ["run", "budget", "clips/vod", "len s", "own recall", "all real", "precision", "distractor", "setup s", "marked: found", "covered", "unmarked: covered", "payoff hype", "payoff aud", "mid-sentence"];
  const cells = rows.map((r) => [
    r.run, r.budget, r.clips_per_vod, f1(r.mean_clip_seconds), `${f2(r.own_recall)} (${r.own_kinds})`, f2(r.recall_all_real), f2(r.precision),
    String(r.distractor_clips), f1(r.setup_median_seconds), r.setup_found_marked, r.setup_covered_marked, r.setup_covered_unmarked, f1(r.payoff_median_hype), f1(r.payoff_median_audience), r.mid_sentence_cuts,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(widths[i]!)).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(line(c));
}

/** The issue's targets, checked on one split's rows. */
function targets(rows: Row[]): Record<string, boolean> {
  const get = (run: string, budget: Budget) => rows.find((r) => r.run === run && r.budget === budget);
  const mine = rows.filter((r) => PROFILES.includes(r.run as RunProfile));
  const tight = (p: RunProfile) => get(p, "tight");
  const beats = (p: RunProfile, base: string) => (tight(p)?.own_recall ?? 0) > (get(`${base} (k as ${p})`, "tight")?.own_recall ?? 1);
  return {
    precision_ge_0_9_tight_and_default: mine.filter((r) => r.budget !== "open").every((r) => (r.precision ?? 1) >= 0.9),
    no_distractor_tight_and_default: mine.filter((r) => r.budget !== "open").every((r) => r.distractor_clips === 0),
    audience_own_recall_tight_ge_0_5: (tight("audience")?.own_recall ?? 0) >= 0.5,
    audience_beats_chat_rate_baseline: beats("audience", "baseline: chat rate"),
    streamer_own_recall_tight_ge_0_5: (tight("streamer")?.own_recall ?? 0) >= 0.5,
    streamer_beats_loudness_baseline: beats("streamer", "baseline: loudness"),
    open_recall_ge_0_9: mine.filter((r) => r.budget === "open").every((r) => (r.own_recall ?? 0) >= 0.9),
    open_precision_ge_0_8: mine.filter((r) => r.budget === "open").every((r) => (r.precision ?? 1) >= 0.8),
    open_no_distractor: mine.filter((r) => r.budget === "open").every((r) => r.distractor_clips === 0),
    payoff_median_ge_8_hype_and_audience: mine.every((r) => (r.payoff_median_hype ?? 99) >= 8 && (r.payoff_median_audience ?? 99) >= 8),
    no_mid_sentence_cut: mine.every((r) => r.mid_sentence_cuts.startsWith("0/")),
  };
}

/** Reads VmHWM (peak RSS) and CPU ticks of a running process from /proc; null where /proc is unavailable. */
function procSample(pid: number): { hwm: number; cpu: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of /proc/pid/stat, in clock ticks (100 per second on Linux).
    return { cpu: (Number(fields[11]) + Number(fields[12])) / 100, hwm: Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024 };
  } catch {
    return null;
  }
}

async function benchAnalysis(file: string, seconds: number, hours: number) {
  const loops = Math.max(1, Math.ceil((hours * 3600) / seconds));
  const audioSeconds = loops * seconds;
  let last: { hwm: number; cpu: number } | null = null;
  let sampler: NodeJS.Timeout | undefined;
  const pcmDir = await mkdtemp(path.join(os.tmpdir(), "bench-pcm-"));
  const t0 = Date.now();
  const analysed = await analyzeAudio(file, {
    durationSeconds: audioSeconds,
    inputOptions: ["-stream_loop", String(loops - 1)],
    keepPcm: { file: path.join(pcmDir, "pcm.s16"), startSeconds: 0 },
    onSpawn: (pid) => {
      sampler = setInterval(() => (last = procSample(pid) ?? last), 100);
    },
  });
  clearInterval(sampler);
  const t1 = Date.now();
  // The voice-activity model on the loud stretches, as a job runs it after the analysis pass.
  const cpu0 = process.cpuUsage();
  const voiced = await withVoiceActivity(analysed);
  const cpu = process.cpuUsage(cpu0);
  const t2 = Date.now();
  await rm(pcmDir, { recursive: true, force: true });
  const wall = (t2 - t0) / 1000;
  const sample = last as { hwm: number; cpu: number } | null;
  return {
    audio_hours: Number((audioSeconds / 3600).toFixed(2)),
    wall_seconds: Number(wall.toFixed(1)),
    x_realtime: Math.round(audioSeconds / wall),
    x_realtime_per_ffmpeg_cpu: sample && sample.cpu > 0 ? Math.round(audioSeconds / sample.cpu) : null,
    ffmpeg_peak_rss_mb: sample ? Math.round(sample.hwm / 1e6) : null,
    analysis_pass_wall_seconds: Number(((t1 - t0) / 1000).toFixed(1)),
    voice_model: {
      wall_seconds: Number(((t2 - t1) / 1000).toFixed(2)),
      cpu_seconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
      measured_seconds: voiced.measuredSeconds,
      measured_share: Number((voiced.measuredSeconds / audioSeconds).toFixed(3)),
      share_of_analysis_wall: Number(((t2 - t1) / (t2 - t0)).toFixed(3)),
      ...(voiced.warning ? { warning: voiced.warning } : {}),
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      split: { type: "string" },
      "tuning-seeds": { type: "string" },
      "held-out-seeds": { type: "string" },
      root: { type: "string" },
      out: { type: "string" },
      "bench-hours": { type: "string" },
      source: { type: "string", default: "a" },
      "no-titles": { type: "boolean", default: false },
      // --voices, --mix, --sounds, --moments, --levels: source c's variants (C_VARIANTS in highlight-eval/source-b.ts).
      ...Object.fromEntries(VARIANT_OPTIONS.map((o) => [o, { type: "string" as const }])),
      emotes: { type: "string" },
    },
  });
  const seedsOf = (s: string) => s.split(",").map((x) => Number(x.trim())).filter((x) => Number.isInteger(x) && x > 0);
  if (values.source === "b" || values.source === "c") {
    const given = (s: string | undefined) => (s === undefined ? undefined : seedsOf(s));
    // Source b's held-out seeds are read once, after tuning: only an explicit --split held-out|both reads them.
    const source = sourceOfOptions(values.source, variantsGiven(values));
    return runSourceB({ source, split: values.split ?? "tuning", tuningSeeds: given(values["tuning-seeds"]), heldOutSeeds: given(values["held-out-seeds"]), root: values.root, out: values.out, titles: !values["no-titles"], emotesAsText: emotesAsTextOf(values.source, values.emotes) });
  }
  emotesAsTextOf(values.source ?? "a", values.emotes);
  if (values.source !== "a") throw new UsageError(`--source must be a, b or c, got ${values.source}`);
  // Any variant option names a variant of source c: this throws the message that says so.
  if (Object.keys(variantsGiven(values)).length > 0) sourceOfOptions("a", variantsGiven(values));
  values.split ??= "both";
  values["tuning-seeds"] ??= TUNING_SEEDS.join(",");
  values["held-out-seeds"] ??= HELD_OUT_SEEDS.join(",");
  values.root ??= path.join(synthCacheRoot(), `eval-streams-v${SCENARIO_VERSION}`);
  const splits: { name: "tuning" | "held-out"; seeds: number[] }[] = [];
  if (values.split !== "held-out") splits.push({ name: "tuning", seeds: seedsOf(values["tuning-seeds"]!) });
  if (values.split !== "tuning") splits.push({ name: "held-out", seeds: seedsOf(values["held-out-seeds"]!) });
  const overlap = splits.length === 2 ? splits[0]!.seeds.filter((s) => splits[1]!.seeds.includes(s)) : [];
  if (overlap.length > 0) throw new UsageError(`seeds ${overlap.join(",")} are in both splits; held-out seeds must be unseen`);
  const root = path.resolve(values.root!);
  await mkdir(root, { recursive: true });

  const began = Date.now();
  const results: Record<string, unknown> = {};
  let analysed = 0;
  let analysisSeconds = 0;
  let firstAudio: { file: string; seconds: number } | null = null;
  for (const split of splits) {
    const streams: Stream[] = [];
    for (const seed of split.seeds) {
      const s = await loadStream(root, seed, (l) => console.error(l));
      streams.push(s);
      analysed += s.truth.duration_seconds;
      analysisSeconds += s.analysisSeconds;
      firstAudio ??= { file: path.join(root, s.vodId, s.truth.audio_file ?? "audio.flac"), seconds: s.truth.duration_seconds };
    }
    const { rows, sweep } = await evaluate(streams).finally(() => Promise.all(streams.map((s) => s.dispose())));
    const planted = streams.flatMap((s) => s.truth.moments);
    const count = (k: MomentKind) => planted.filter((m) => m.kind === k).length;
    console.log(
      `\n== ${split.name} seeds ${split.seeds.join(",")}: ${streams.length} streams, ${(streams.reduce((a, s) => a + s.truth.duration_seconds, 0) / 60).toFixed(0)} min; ` +
        `planted: ${count("hype")} hype, ${count("streamer_only")} streamer-only, ${count("audience_only")} audience-only, ` +
        `${count("game_noise")} game noise, ${count("chat_only")} spam (${planted.filter((m) => m.kind === "chat_only" && m.spam_accounts === 1).length} from one account)`,
    );
    printTable(rows);
    console.log(
      `setups: "found" = a marked setup (talk after a pause, a build-up, a scene cut) with the clip starting on its marker ` +
        `(${SETUP_FOUND.early} s before to ${SETUP_FOUND.late} s after); "covered" = starting at or before it; an unmarked setup ` +
        `(nothing in audio, chat or picture says where it begins) cannot be found, only covered.`,
    );
    for (const r of rows.filter((x) => PROFILES.includes(x.run as RunProfile))) {
      const early = r.setup_early_median === null ? "" : `; covered-not-found clips start a median ${f1(r.setup_early_median)} s before the marker`;
      console.log(`  setups ${r.run} (${r.budget}): ${Object.entries(r.setup_by_style).map(([k, v]) => `${k} ${v}`).join("; ")}${early}`);
    }
    console.log(`weight sweep (tight budget, streamer_weight = 1 - audience_weight): ${sweep.map((x) => `${x.audience_weight}: aud ${x.audience_only} str ${x.streamer_only} hype ${x.hype}`).join(" | ")}`);
    for (const r of rows) for (const e of r.examples) console.log(`  ${r.run} (${r.budget}): ${e}`);
    const aims = targets(rows);
    console.log(`targets (${split.name}): ${Object.entries(aims).map(([k, v]) => `${k}=${v ? "yes" : "NO"}`).join(", ")}`);
    results[split.name] = { seeds: split.seeds, variants: streams.map((s) => `${s.seed}:${s.scenario.variant.name}`), rows, sweep, targets: aims };
  }
  console.log(`\naudio analysis ${(analysed / Math.max(0.001, analysisSeconds)).toFixed(0)}x realtime; whole run ${((Date.now() - began) / 1000).toFixed(0)} s`);
  let bench = null;
  if (values["bench-hours"] && firstAudio) {
    bench = await benchAnalysis(firstAudio.file, firstAudio.seconds, Number(values["bench-hours"]));
    console.log(`analysis benchmark: ${JSON.stringify(bench)}`);
  }
  if (values.out) await writeFile(values.out, JSON.stringify({ eval: "highlights", ...results, bench }, null, 2) + "\n");
}

main().catch((error: unknown) => {
  console.error(isUsageError(error) ? `eval:highlights: ${error.message}` : error);
  process.exitCode = 1;
});
