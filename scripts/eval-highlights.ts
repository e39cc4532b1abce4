/**
 * Highlight quality on synthetic VODs with planted moments (`npm run eval:highlights`).
 *
 * Generates (or reuses) VODs from dev/synth-vod: hype moments (the streamer shouts, chat erupts 5-12 s later),
 * and distractors: loud_only (shouting chat ignores) and chat_only (copy-paste spam over a calm stream).
 * Reads them the way a job does (chat replay over the local Twitch server's GQL, audio analysis of the
 * audio_only HLS rendition over HTTP), runs selection per profile with the service's default tuning, plus two
 * naive baselines (chat rate only, loudness only), and scores everything against truth.json. The selector never
 * sees truth.json.
 *
 * Metrics, per profile / baseline, summed over VODs:
 *   recall@k    hype moments whose peak lies in one of the k best-scored clips (k = hype moments in the VOD)
 *   recall      hype moments inside any clip
 *   precision   clips that contain a moment of a kind the profile is meant to surface: hype for all; chat_only
 *               too for `audience` (chat is its signal), loud_only too for `streamer` (voice is its signal)
 *               and for every profile without chat (audio is then all there is)
 *   strict      clips that contain a hype moment
 *   loud/chat   share of loud_only / chat_only distractors that made it into a clip
 *   setup       clips containing a hype or loud_only moment that start at or before its setup_start
 *
 * Profiles run three times: with their default target length; "(open)" with the longest reel the API allows;
 * "(no chat)" as if the chat replay could not be read.
 *
 * Options: --vods N (default 4: typical, small-channel, busy-chat and DMCA-muted variants), --duration S (default 1200), --root DIR, --out FILE (JSON), --seed N.
 *
 * --bench-hours H additionally times the audio analysis over H hours of audio (the first VOD's audio_only
 * playlist looped with -stream_loop, read from disk) and prints speed, ffmpeg CPU time and peak memory.
 */
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import type { RunProfile } from "../common/contract/enums";
import { fetchChatReplay } from "../common/twitch/chat-replay";
import { generateSyntheticVod, synthCacheRoot, type SyntheticVodTruth } from "../dev/synth-vod";
import { startTwitchServer } from "../dev/twitch-server";
import { analyzeAudio } from "../render-container/src/analysis/analyze-audio";
import { analyzeChat } from "../render-container/src/analysis/chat-signals";
import { movingAverage } from "../render-container/src/analysis/stats";
import type { AudioAnalysis, ChatCommentInput } from "../render-container/src/analysis/types";
import { selectMoments } from "../render-container/src/selection/select-moments";
import { PROFILE_DEFAULTS } from "../worker/src/domain/profile-defaults";

const PROFILES: RunProfile[] = ["balanced", "audience", "streamer"];
const PARAMS = { min_highlight_duration: 20, max_highlight_duration: 60 };
/**
 * A second pass with the longest reel the API allows: with no length pressure, every moment above the
 * profile's highlight_min_score gets in, which shows what each profile accepts (and whether it takes junk).
 */
const OPEN_TARGET_SECONDS = 1800;

interface Variant {
  label: string;
  /** Background chat messages per second. */
  chatRate: number;
  mutedSegments?: number[];
}

/** VOD i uses variant i mod 4: conditions a real stream varies in. */
const VARIANTS: Variant[] = [
  { label: "typical chat 0.4 msg/s", chatRate: 0.4 },
  { label: "small channel 0.1 msg/s", chatRate: 0.1 },
  { label: "busy chat 2 msg/s", chatRate: 2 },
  { label: "DMCA-muted segments", chatRate: 0.4, mutedSegments: [3, 4, 40, 41, 80] },
];
type MomentTruth = SyntheticVodTruth["moments"][number];
type Kind = MomentTruth["kind"];

interface Clip {
  start: number;
  end: number;
  score: number;
}

interface Tally {
  vods: number;
  clips: number;
  clipSeconds: number;
  hype: number;
  hypeTopK: number;
  hypeAny: number;
  relevantClips: number;
  hypeClips: number;
  loudOnly: number;
  loudOnlyCaught: number;
  chatOnly: number;
  chatOnlyCaught: number;
  setupClips: number;
  setupOk: number;
  late: string[];
}

const RELEVANT: Record<string, Kind[]> = {
  balanced: ["hype"],
  audience: ["hype", "chat_only"],
  streamer: ["hype", "loud_only"],
  "no chat": ["hype", "loud_only"],
  "baseline:chat_rate": ["hype"],
  "baseline:loudness": ["hype"],
};

const contains = (c: Clip, t: number) => c.start <= t && t < c.end;

function newTally(): Tally {
  return {
    vods: 0, clips: 0, clipSeconds: 0, hype: 0, hypeTopK: 0, hypeAny: 0, relevantClips: 0, hypeClips: 0,
    loudOnly: 0, loudOnlyCaught: 0, chatOnly: 0, chatOnlyCaught: 0, setupClips: 0, setupOk: 0, late: [],
  };
}

function score(t: Tally, kindOf: string, vodId: string, clips: Clip[], moments: MomentTruth[]): void {
  const hype = moments.filter((m) => m.kind === "hype");
  const topK = [...clips].sort((a, b) => b.score - a.score).slice(0, hype.length);
  t.vods++;
  t.clips += clips.length;
  t.clipSeconds += clips.reduce((s, c) => s + (c.end - c.start), 0);
  t.hype += hype.length;
  t.hypeTopK += hype.filter((m) => topK.some((c) => contains(c, m.peak))).length;
  t.hypeAny += hype.filter((m) => clips.some((c) => contains(c, m.peak))).length;
  for (const c of clips) {
    const inside = moments.filter((m) => contains(c, m.peak));
    if (inside.some((m) => RELEVANT[kindOf]!.includes(m.kind))) t.relevantClips++;
    if (inside.some((m) => m.kind === "hype")) t.hypeClips++;
    for (const m of inside.filter((x) => x.kind !== "chat_only")) {
      t.setupClips++;
      if (c.start <= m.setup_start) t.setupOk++;
      else t.late.push(`${vodId}/${m.id} starts ${(c.start - m.setup_start).toFixed(1)} s after setup`);
    }
  }
  for (const m of moments.filter((x) => x.kind === "loud_only")) {
    t.loudOnly++;
    if (clips.some((c) => contains(c, m.peak))) t.loudOnlyCaught++;
  }
  for (const m of moments.filter((x) => x.kind === "chat_only")) {
    t.chatOnly++;
    if (clips.some((c) => contains(c, m.peak))) t.chatOnlyCaught++;
  }
}

/**
 * The naive approach: rank seconds by one raw signal, take the top peaks 60 s apart until the reel is full,
 * each as a fixed window around the peak. No threshold, no setup logic, no lag correction.
 */
function naiveBaseline(signal: number[], targetSeconds: number, before: number, after: number, duration: number): Clip[] {
  const order = signal.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const clips: Clip[] = [];
  let used = 0;
  for (const [v, i] of order) {
    if (used + before + after > targetSeconds) break;
    if (clips.some((c) => Math.abs(i + 0.5 - (c.start + before)) < 60)) continue;
    const start = Math.max(0, i + 0.5 - before);
    const clip = { start, end: Math.min(duration, start + before + after), score: v };
    clips.push(clip);
    used += clip.end - clip.start;
  }
  return clips.sort((a, b) => a.start - b.start);
}

function chatRatePerSecond(comments: readonly ChatCommentInput[], seconds: number): number[] {
  const counts = new Array<number>(seconds).fill(0);
  for (const c of comments) {
    const s = Math.floor(c.offset_seconds);
    if (s >= 0 && s < seconds) counts[s]!++;
  }
  return movingAverage(counts, 2);
}

interface BenchResult {
  audio_hours: number;
  wall_seconds: number;
  x_realtime: number;
  /** Audio seconds per second of ffmpeg CPU time: the speed on an idle core, whatever else the machine runs. */
  x_realtime_per_ffmpeg_cpu: number | null;
  ffmpeg_peak_rss_mb: number | null;
  node_peak_rss_mb: number;
  loud_seconds_found: number;
}

/** Reads VmHWM (peak RSS) and CPU ticks of a running process from /proc; null where /proc is unavailable. */
function procSample(pid: number): { hwm: number; cpu: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of /proc/pid/stat, in clock ticks (100 per second on Linux).
    const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    return { hwm, cpu };
  } catch {
    return null;
  }
}

async function benchAnalysis(playlist: string, vodSeconds: number, hours: number): Promise<BenchResult> {
  const loops = Math.max(1, Math.ceil((hours * 3600) / vodSeconds));
  const audioSeconds = loops * vodSeconds;
  let last: { hwm: number; cpu: number } | null = null;
  let sampler: NodeJS.Timeout | undefined;
  let nodePeak = process.memoryUsage().rss;
  const selfSampler = setInterval(() => (nodePeak = Math.max(nodePeak, process.memoryUsage().rss)), 200);
  const t0 = Date.now();
  const audio = await analyzeAudio(playlist, {
    durationSeconds: audioSeconds,
    inputOptions: ["-stream_loop", String(loops - 1)],
    onSpawn: (pid) => {
      sampler = setInterval(() => (last = procSample(pid) ?? last), 100);
    },
  });
  const wall = (Date.now() - t0) / 1000;
  clearInterval(sampler);
  clearInterval(selfSampler);
  const sample = last as { hwm: number; cpu: number } | null;
  return {
    audio_hours: Number((audioSeconds / 3600).toFixed(2)),
    wall_seconds: Number(wall.toFixed(1)),
    x_realtime: Math.round(audioSeconds / wall),
    x_realtime_per_ffmpeg_cpu: sample && sample.cpu > 0 ? Math.round(audioSeconds / sample.cpu) : null,
    ffmpeg_peak_rss_mb: sample ? Math.round(sample.hwm / 1e6) : null,
    node_peak_rss_mb: Math.round(nodePeak / 1e6),
    loud_seconds_found: audio.loudnessAboveBaselineDb.filter((d) => d > 10).length,
  };
}

const pct = (a: number, b: number) => (b > 0 ? a / b : 1);
const f2 = (x: number) => x.toFixed(2);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      vods: { type: "string", default: "4" },
      duration: { type: "string", default: "1200" },
      seed: { type: "string", default: "101" },
      root: { type: "string", default: path.join(synthCacheRoot(), "eval-vods") },
      out: { type: "string" },
      "bench-hours": { type: "string" },
    },
  });
  const count = Math.max(1, Number(values.vods));
  const duration = Math.max(150, Number(values.duration));
  const seed0 = Number(values.seed);
  const root = path.resolve(values.root!);
  await mkdir(root, { recursive: true });

  const vods: { vodId: string; truth: SyntheticVodTruth; variant: Variant }[] = [];
  for (let i = 0; i < count; i++) {
    const vodId = String(900000200 + i);
    const variant = VARIANTS[i % VARIANTS.length]!;
    const t0 = Date.now();
    const { truth } = await generateSyntheticVod({
      root, vodId, durationSeconds: duration, seed: seed0 + i, width: 320, height: 180, fps: 10,
      chatRate: variant.chatRate, mutedSegments: variant.mutedSegments,
    });
    console.error(`vod ${vodId} (${variant.label}, seed ${seed0 + i}) ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${truth.moments.map((m) => `${m.kind}@${m.peak}`).join(" ")}`);
    vods.push({ vodId, truth, variant });
  }

  const server = await startTwitchServer({ root });
  const tallies = new Map<string, Tally>();
  const tally = (name: string) => tallies.get(name) ?? tallies.set(name, newTally()).get(name)!;
  let audioSeconds = 0;
  let audioWall = 0;
  try {
    for (const { vodId, truth, variant } of vods) {
      const d = truth.duration_seconds;
      const chat = await fetchChatReplay({ gqlUrl: server.gqlUrl }, vodId, d);
      if (!chat.complete) console.error(`vod ${vodId}: chat incomplete: ${chat.warnings.join("; ")}`);
      const t0 = Date.now();
      const audio: AudioAnalysis = await analyzeAudio(`${server.url}/media/${vodId}/audio_only/index-dvr.m3u8`, { durationSeconds: d });
      audioWall += (Date.now() - t0) / 1000;
      audioSeconds += d;
      const chatSignals = analyzeChat(chat.comments, d);

      const perVod: string[] = [];
      for (const profile of PROFILES) {
        const hype = truth.moments.filter((m) => m.kind === "hype");
        const own = selectMoments({ audio, chat: chatSignals, durationSeconds: d, tuning: PROFILE_DEFAULTS[profile], params: PARAMS, manual: [], profile });
        perVod.push(`${profile} ${hype.filter((m) => own.some((c) => contains(c, m.peak))).length}/${hype.length}`);
        // Chat replay unavailable (Twitch refused it): the same VOD scored on audio alone.
        const deaf = selectMoments({ audio, chat: null, durationSeconds: d, tuning: PROFILE_DEFAULTS[profile], params: PARAMS, manual: [], profile });
        score(tally(`${profile} (no chat)`), "no chat", vodId, deaf, truth.moments);
        for (const open of [false, true]) {
          const tuning = { ...PROFILE_DEFAULTS[profile], ...(open ? { target_duration_seconds: OPEN_TARGET_SECONDS } : {}) };
          const moments = selectMoments({ audio, chat: chatSignals, durationSeconds: d, tuning, params: PARAMS, manual: [], profile });
          score(tally(open ? `${profile} (open)` : profile), profile, vodId, moments, truth.moments);
        }
      }
      console.error(`vod ${vodId} (${variant.label}): hype found ${perVod.join(", ")}`);
      const target = PROFILE_DEFAULTS.balanced.target_duration_seconds;
      const seconds = audio.loudnessAboveBaselineDb.length;
      score(tally("baseline:chat_rate"), "baseline:chat_rate", vodId, naiveBaseline(chatRatePerSecond(chat.comments, seconds), target, 10, 20, d), truth.moments);
      score(tally("baseline:loudness"), "baseline:loudness", vodId, naiveBaseline(movingAverage(audio.loudnessAboveBaselineDb, 1), target, 10, 20, d), truth.moments);
    }
  } finally {
    await server.close();
  }

  const order = [
    ...PROFILES,
    ...PROFILES.map((p) => `${p} (open)`),
    ...PROFILES.map((p) => `${p} (no chat)`),
    "baseline:chat_rate",
    "baseline:loudness",
  ];
  const rows = order.filter((n) => tallies.has(n)).map((name) => [name, tallies.get(name)!] as const).map(([name, t]) => ({
    name,
    vods: t.vods,
    clips: t.clips,
    mean_clip_seconds: Number((t.clipSeconds / Math.max(1, t.clips)).toFixed(1)),
    recall_at_k: Number(f2(pct(t.hypeTopK, t.hype))),
    recall: Number(f2(pct(t.hypeAny, t.hype))),
    precision: Number(f2(pct(t.relevantClips, t.clips))),
    strict_precision: Number(f2(pct(t.hypeClips, t.clips))),
    loud_only_caught: Number(f2(pct(t.loudOnlyCaught, t.loudOnly))),
    chat_only_caught: Number(f2(pct(t.chatOnlyCaught, t.chatOnly))),
    setup_ok: `${t.setupOk}/${t.setupClips}`,
    every_clip_starts_before_setup: t.setupOk === t.setupClips,
    late_examples: t.late.slice(0, 3),
  }));

  const header = ["profile", "clips", "len s", "recall@k", "recall", "precision", "strict", "loud_only", "chat_only", "setup ok"];
  const table = rows.map((r) => [
    r.name, String(r.clips), String(r.mean_clip_seconds), f2(r.recall_at_k), f2(r.recall), f2(r.precision), f2(r.strict_precision),
    f2(r.loud_only_caught), f2(r.chat_only_caught), `${r.setup_ok}${r.every_clip_starts_before_setup ? "" : " !"}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  const hypeTotal = vods.reduce((s, v) => s + v.truth.moments.filter((m) => m.kind === "hype").length, 0);
  console.log(`Highlight evaluation: ${vods.length} synthetic VODs x ${duration} s, ${hypeTotal} hype moments, distractors: ` +
    `${vods.reduce((s, v) => s + v.truth.moments.filter((m) => m.kind !== "hype").length, 0)}`);
  console.log(`Audio analysis: ${(audioSeconds / audioWall).toFixed(0)}x realtime over HTTP HLS (${audioWall.toFixed(1)} s for ${audioSeconds} s)`);
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of table) console.log(line(r));
  for (const r of rows) for (const l of r.late_examples) console.log(`  ${r.name}: ${l}`);

  const mine = rows.filter((r) => PROFILES.some((p) => r.name === p || r.name === `${p} (open)`));
  const row = (name: string) => rows.find((r) => r.name === name);
  const aims = {
    recall_ge_0_9: mine.every((r) => r.recall >= 0.9),
    precision_ge_0_8: mine.every((r) => r.precision >= 0.8),
    audience_prefers_chat: (row("audience (open)")?.chat_only_caught ?? 0) > (row("streamer (open)")?.chat_only_caught ?? 0),
    streamer_prefers_voice: (row("streamer (open)")?.loud_only_caught ?? 0) > (row("audience (open)")?.loud_only_caught ?? 0),
    balanced_skips_distractors: (row("balanced (open)")?.strict_precision ?? 0) >= 0.8,
    setup_always_included: mine.every((r) => r.every_clip_starts_before_setup),
  };
  console.log(`Aims: ${Object.entries(aims).map(([k, v]) => `${k}=${v ? "yes" : "NO"}`).join(", ")}`);

  let bench: BenchResult | null = null;
  if (values["bench-hours"]) {
    const first = vods[0]!;
    bench = await benchAnalysis(path.join(root, first.vodId, "audio_only", "index-dvr.m3u8"), first.truth.duration_seconds, Number(values["bench-hours"]));
    console.log(
      `Analysis benchmark: ${bench.audio_hours} h of audio in ${bench.wall_seconds} s = ${bench.x_realtime}x realtime ` +
        `(${bench.x_realtime_per_ffmpeg_cpu ?? "?"}x per ffmpeg CPU second), peak RSS ffmpeg ${bench.ffmpeg_peak_rss_mb ?? "?"} MB, ` +
        `node ${bench.node_peak_rss_mb} MB`,
    );
  }

  const result = {
    eval: "highlights",
    vods: vods.length,
    duration_seconds: duration,
    audio_x_realtime: Number((audioSeconds / audioWall).toFixed(0)),
    rows,
    aims,
    bench,
  };
  if (values.out) await writeFile(values.out, JSON.stringify(result, null, 2) + "\n");
  console.log(JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
