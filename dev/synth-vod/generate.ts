import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { VideoFile } from "../twitch-server/vod-folder";
import { encodeAudioTrack } from "./audio-track";
import { buildOnce, exists, hashOf, synthCacheRoot } from "./cache-dir";
import { generateChatLog, type ChatTruth } from "./chat-log";
import { packageRenditions, type SegmentInfo } from "./package-hls";
import { CALM_SENTENCES, EXCITED_SENTENCES } from "./phrases";
import { SEGMENT_SECONDS, placeSpeech, planTimeline, type MomentKind, type MomentRequest, type ScenePlan, type SetupStyle, type Span } from "./plan";
import { synthesizeSpeech, type SpeechClip } from "./speech";
import { ensureTemplates, facecamRect, type FacecamCorner, type Rect } from "./video-templates";

export interface SyntheticVodOptions {
  /** Folder of VOD folders (what the local Twitch server serves). */
  root: string;
  vodId: string;
  durationSeconds: number;
  /** Planted moments; default: one every ~2 minutes, with loud-only and chat-only distractors. */
  moments?: MomentRequest[];
  seed?: number;
  title?: string;
  streamerLogin?: string;
  streamerName?: string;
  gameName?: string;
  createdAt?: string;
  language?: string;
  /** Source rendition size; 1280x720 30 fps like a typical Twitch source. Smaller is faster for tests. */
  width?: number;
  height?: number;
  fps?: number;
  crf?: number;
  facecamCorner?: FacecamCorner;
  /** Segment indices served as N-muted.ts with silent audio (DMCA muting). */
  mutedSegments?: number[];
  /** Background chat messages per second. */
  chatRate?: number;
  /** Mono by default: encoding stereo AAC doubles the slowest step of building long VODs. */
  audioChannels?: 1 | 2;
  audioBitrateKbps?: number;
  /** Merged into video.json (e.g. {subscriber_only: true} for a VOD that has media but is restricted). */
  access?: VideoFile["access"];
  /** Stretches without talk; default: a few 15-25 s ones drawn from the seed. */
  quiet?: Span[];
  /** Game audio level under the talk: 1 (default) a quiet bed, 8 loud game audio. */
  gameLevel?: number;
  /** Background chat drifts in 30-90 s waves by up to this factor either way (default 0: steady). */
  chatWaves?: number;
  /**
   * "hls" (default): the full Twitch-shaped folder. "audio": only the audio track (`audio.flac`, lossless and
   * quick to encode), chat.json and truth.json, for evaluations that analyse audio and chat and render nothing.
   */
  media?: "hls" | "audio";
  /** Cache for templates and speech; default synthCacheRoot(). */
  cacheRoot?: string;
  /** Receives one line per finished step with its wall time (the benchmark prints them). */
  log?: (line: string) => void;
}

export interface MomentTruth {
  id: string;
  kind: MomentKind;
  setup_start: number;
  /** What marks the setup's start (absent in folders from before it was recorded: "fixed"). */
  setup_style?: SetupStyle;
  peak: number;
  end: number;
  loud_start: number | null;
  loud_end: number | null;
  chat_start: number | null;
  chat_end: number | null;
  chat_lag: number | null;
  /** chat_only: accounts posting the spam (null: the default dozen; absent in older folders). */
  spam_accounts?: number | null;
}

export interface SentenceTruth {
  text: string;
  start: number;
  end: number;
  loud: boolean;
  /** Inside a muted segment: present in the plan, silent in the media. */
  muted: boolean;
}

export interface SyntheticVodTruth {
  generator_version: number;
  params_hash: string;
  vod_id: string;
  duration_seconds: number;
  seed: number;
  video: { width: number; height: number; fps: number };
  /** Facecam rectangle in source-rendition pixels. */
  facecam: Rect & { corner: FacecamCorner };
  moments: MomentTruth[];
  sentences: SentenceTruth[];
  quiet: Span[];
  scenes: ScenePlan[];
  /** VOD seconds where the gameplay picture cuts to another scene. */
  scene_cuts: number[];
  muted_segments: number[];
  chat: ChatTruth;
  renditions: { chunked: SegmentInfo[]; audio_only: SegmentInfo[] };
  /** media "audio": the audio track's file name in the folder. */
  audio_file?: string;
}

const GENERATOR_VERSION = 1;

async function synthesizeAll(cacheRoot: string): Promise<{ calm: SpeechClip[]; excited: SpeechClip[] }> {
  const jobs = [
    ...CALM_SENTENCES.map((t) => ({ text: t, style: "calm" as const })),
    ...EXCITED_SENTENCES.map((t) => ({ text: t, style: "excited" as const })),
  ];
  const clips: SpeechClip[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < jobs.length) {
        const i = next++;
        clips[i] = await synthesizeSpeech(jobs[i]!.text, jobs[i]!.style, cacheRoot);
      }
    }),
  );
  return { calm: clips.filter((c) => c.style === "calm"), excited: clips.filter((c) => c.style === "excited") };
}

function normalize(o: SyntheticVodOptions) {
  return {
    vodId: o.vodId,
    durationSeconds: o.durationSeconds,
    moments: o.moments ?? null,
    seed: o.seed ?? 1,
    title: o.title ?? `Synthetic stream ${o.vodId}`,
    streamerLogin: o.streamerLogin ?? "synthstreamer",
    streamerName: o.streamerName ?? "SynthStreamer",
    gameName: o.gameName ?? "Synthetic Quest",
    createdAt: o.createdAt ?? "2026-01-15T18:00:00Z",
    language: o.language ?? "en",
    width: o.width ?? 1280,
    height: o.height ?? 720,
    fps: o.fps ?? 30,
    crf: o.crf ?? 23,
    facecamCorner: o.facecamCorner ?? ("top-left" as FacecamCorner),
    mutedSegments: [...new Set(o.mutedSegments ?? [])].sort((a, b) => a - b),
    chatRate: o.chatRate ?? 0.4,
    audioChannels: o.audioChannels ?? 1,
    audioBitrateKbps: o.audioBitrateKbps ?? 160,
    access: o.access ?? {},
    // Options added later enter the parameter hash only when given, so folders generated before keep theirs.
    ...(o.quiet ? { quiet: o.quiet } : {}),
    ...(o.gameLevel !== undefined && o.gameLevel !== 1 ? { gameLevel: o.gameLevel } : {}),
    ...(o.chatWaves ? { chatWaves: o.chatWaves } : {}),
    ...(o.media === "audio" ? { media: "audio" as const } : {}),
  };
}

/**
 * Writes a Twitch-shaped VOD folder (video.json, chat.json, chunked/ and audio_only/ HLS renditions,
 * truth.json) and returns what was planted in it. A folder already generated with the same parameters is reused.
 */
export async function generateSyntheticVod(options: SyntheticVodOptions): Promise<{ dir: string; truth: SyntheticVodTruth }> {
  const p = normalize(options);
  if (!/^\d+$/.test(p.vodId)) throw new Error(`vodId must be digits, got ${p.vodId}`);
  if (!(p.durationSeconds >= 1)) throw new Error("durationSeconds must be at least 1");
  const paramsHash = hashOf({ v: GENERATOR_VERSION, ...p });
  const dir = path.join(path.resolve(options.root), p.vodId);
  const truthFile = path.join(dir, "truth.json");
  if (await exists(truthFile)) {
    const existing = JSON.parse(await readFile(truthFile, "utf8")) as SyntheticVodTruth;
    if (existing.params_hash === paramsHash) return { dir, truth: existing };
    await rm(dir, { recursive: true, force: true });
  }
  const cacheRoot = options.cacheRoot ?? synthCacheRoot();
  let truth: SyntheticVodTruth | null = null;

  await buildOnce(dir, async (out) => {
    const began = Date.now();
    let last = began;
    const step = (name: string) => {
      const now = Date.now();
      options.log?.(`synth-vod ${p.vodId}: ${name} ${((now - last) / 1000).toFixed(1)} s`);
      last = now;
    };
    const work = path.join(out, "_work");
    await mkdir(work, { recursive: true });
    const plan = planTimeline(p.durationSeconds, p.seed, p.moments ?? undefined, p.quiet);
    const muted: Span[] = p.mutedSegments.map((i) => ({ start: i * SEGMENT_SECONDS, end: (i + 1) * SEGMENT_SECONDS }));
    const audioOnly = p.media === "audio";
    const audioFile = audioOnly ? path.join(out, "audio.flac") : path.join(work, "audio.m4a");

    const templatesReady = audioOnly
      ? null
      : ensureTemplates(cacheRoot, {
          width: p.width,
          height: p.height,
          fps: p.fps,
          facecamCorner: p.facecamCorner,
          crf: p.crf,
        });
    const speech = await synthesizeAll(cacheRoot);
    step("speech clips");
    const placements = placeSpeech(
      plan,
      speech.calm.map((c) => c.duration),
      speech.excited.map((c) => c.duration),
      p.seed,
    );
    await encodeAudioTrack(
      {
        duration: p.durationSeconds,
        seed: p.seed,
        placements,
        calm: speech.calm,
        excited: speech.excited,
        moments: plan.moments,
        quiet: plan.quiet,
        muted,
        scenes: plan.scenes,
        channels: p.audioChannels,
        bitrateKbps: p.audioBitrateKbps,
        gameLevel: p.gameLevel,
        codec: audioOnly ? "flac" : "aac",
      },
      audioFile,
    );
    step("audio track");
    const templates = await templatesReady;
    step("video templates (waited)");
    const renditions = templates
      ? await packageRenditions({
          outDir: out,
          workDir: work,
          duration: p.durationSeconds,
          scenes: plan.scenes,
          templates: templates.files,
          audioFile,
          mutedSegments: p.mutedSegments,
          createdAt: p.createdAt,
        })
      : { chunked: [], audio_only: [] };
    step("HLS renditions");

    const chat = generateChatLog({
      duration: p.durationSeconds,
      seed: p.seed,
      moments: plan.moments,
      createdAt: p.createdAt,
      baselineRate: p.chatRate,
      waves: p.chatWaves,
    });
    await writeFile(path.join(out, "chat.json"), JSON.stringify({ comments: chat.comments }));

    const videoBytes = renditions.chunked.reduce((s, x) => s + x.bytes, 0);
    const video: VideoFile = {
      id: p.vodId,
      title: p.title,
      lengthSeconds: Math.round(p.durationSeconds),
      createdAt: p.createdAt,
      status: "RECORDED",
      broadcastType: "ARCHIVE",
      description: `Synthetic VOD generated for tests (seed ${p.seed}).`,
      viewCount: 1234,
      language: p.language,
      owner: { id: "4200", login: p.streamerLogin, displayName: p.streamerName },
      game: { id: "4201", name: p.gameName, displayName: p.gameName },
      access: p.access,
      renditions: [
        {
          group_id: "chunked",
          name: `${p.height}p${p.fps}`,
          bandwidth: Math.round((videoBytes * 8) / p.durationSeconds),
          codecs: "avc1.64001F,mp4a.40.2",
          resolution: `${p.width}x${p.height}`,
          frame_rate: p.fps,
        },
        { group_id: "audio_only", name: "Audio Only", bandwidth: p.audioBitrateKbps * 1000, codecs: "mp4a.40.2" },
      ],
    };
    await writeFile(path.join(out, "video.json"), JSON.stringify(video, null, 2));

    const clipsOf = { calm: speech.calm, excited: speech.excited };
    const inMuted = (t: number) => muted.some((m) => t >= m.start && t < m.end);
    truth = {
      generator_version: GENERATOR_VERSION,
      params_hash: paramsHash,
      vod_id: p.vodId,
      duration_seconds: p.durationSeconds,
      seed: p.seed,
      video: { width: p.width, height: p.height, fps: p.fps },
      facecam: { ...(templates?.facecam ?? facecamRect({ width: p.width, height: p.height, facecamCorner: p.facecamCorner })), corner: p.facecamCorner },
      moments: plan.moments.map((m) => ({
        id: m.id,
        kind: m.kind,
        setup_start: m.setup_start,
        setup_style: m.setup_style,
        peak: m.peak,
        end: m.end,
        loud_start: m.loud?.start ?? null,
        loud_end: m.loud?.end ?? null,
        chat_start: m.chat?.start ?? null,
        chat_end: m.chat?.end ?? null,
        chat_lag: m.chat ? m.chat.lag : null,
        ...(m.spam_accounts !== null ? { spam_accounts: m.spam_accounts } : {}),
      })),
      sentences: placements.map((pl) => ({
        text: clipsOf[pl.style][pl.clip]!.text,
        start: Math.round(pl.start * 1000) / 1000,
        end: Math.round(pl.end * 1000) / 1000,
        loud: pl.style === "excited",
        muted: inMuted(pl.start) || inMuted(pl.end),
      })),
      quiet: plan.quiet,
      scenes: plan.scenes,
      scene_cuts: plan.scenes.slice(1).map((s) => s.start),
      muted_segments: p.mutedSegments,
      chat: chat.truth,
      renditions,
      ...(audioOnly ? { audio_file: "audio.flac" } : {}),
    };
    await rm(work, { recursive: true, force: true });
    await writeFile(path.join(out, "truth.json"), JSON.stringify(truth, null, 2));
    step("chat and metadata");
    options.log?.(`synth-vod ${p.vodId}: total ${((Date.now() - began) / 1000).toFixed(1)} s`);
  });

  if (truth) return { dir, truth };
  // Another process built the same folder first.
  return { dir, truth: JSON.parse(await readFile(truthFile, "utf8")) as SyntheticVodTruth };
}
