import path from "node:path";
import { fetchChatReplay, type ChatComment } from "../../../../common/twitch";
import type { AudioAnalysis } from "../../analysis";
import { resolveVodMedia, type ByteCounter, type ClipSource, type ResolvedVodMedia } from "../../source";
import { measuredLength } from "../../source/measured-length";
import { withVoiceActivity } from "../../analysis/voice-activity";
import { analyseWhileDownloading } from "../analyse-while-downloading";
import type { TaskRun } from "../task-run";

export interface Acquired {
  media: ResolvedVodMedia;
  durationSeconds: number;
  /** The audio-only rendition on disk, in parts with their VOD times (captions read from it). */
  audioParts: ClipSource[];
  audio: AudioAnalysis;
  comments: ChatComment[];
  warnings: string[];
}

/**
 * Resolves the VOD through Twitch's GQL + usher, then fetches the chat replay while the audio-only rendition
 * downloads and is analysed as it arrives (both cores). Only audio is downloaded here: the video comes later,
 * and only where moments were chosen.
 */
export async function acquireSource(run: Pick<TaskRun, "job" | "ctx" | "progress" | "downloadConcurrency">, bytes: ByteCounter, opts: { splitAboveSeconds?: number } = {}): Promise<Acquired> {
  const { job, ctx, progress, downloadConcurrency: concurrency } = run;
  const twitch = { gqlUrl: job.twitch.gql_url, usherUrl: job.twitch.usher_url, fetch: ctx.fetchImpl };
  progress.report("resolving", 0);
  const media = await resolveVodMedia(twitch, job.vod.vod_id);
  const durationSeconds = measuredLength(media.audioPlaylist);
  progress.report("resolving", 1);

  const warnings: string[] = [];
  const [audio, chat] = await Promise.all([
    analyseWhileDownloading(media.audioPlaylist, durationSeconds, path.join(ctx.workDir, "audio"), {
      parts: 2,
      concurrency,
      signal: ctx.signal,
      counter: bytes,
      fetch: ctx.fetchImpl,
      splitAboveSeconds: opts.splitAboveSeconds,
      onDownloadProgress: progress.reporter("downloading_audio"),
      onAnalysisProgress: progress.reporter("analysing"),
    }),
    fetchChatReplay(twitch, job.vod.vod_id, durationSeconds).catch((err: unknown) => ({
      comments: [] as ChatComment[],
      complete: false,
      warnings: [`Chat replay could not be read (${String((err as Error)?.message ?? err)}).`],
    })),
  ]);
  if (!chat.complete || chat.comments.length === 0) {
    warnings.push(...chat.warnings);
    warnings.push(
      chat.comments.length === 0
        ? "Chat replay unavailable: moments were scored on the streamer's audio only."
        : "Chat replay was only partly available: chat signals cover part of the VOD.",
    );
  }
  if (audio.muted_ranges.length > 0) {
    const seconds = audio.muted_ranges.reduce((sum, r) => sum + (r.end - r.start), 0);
    // Twitch serves DMCA-muted parts as silence: they score as quiet, so no moment is chosen for their audio.
    warnings.push(`${Math.round(seconds)} s of this VOD are muted by Twitch (${audio.muted_ranges.length} part(s)); those parts were scored as silence.`);
  }
  // Whether the loud stretches are the streamer's voice: the model reads the PCM the analysis kept.
  const voiced = await withVoiceActivity(audio.analysis, { signal: ctx.signal });
  if (voiced.warning) warnings.push(voiced.warning);
  ctx.log.info("source acquired", {
    duration_seconds: durationSeconds,
    audio_bytes: audio.bytes,
    comments: chat.comments.length,
    voice_activity: { measured_seconds: voiced.measuredSeconds, cpu_seconds: Math.round(voiced.seconds * 100) / 100, ...(voiced.warning ? { failed: true } : {}) },
  });
  return { media, durationSeconds, audioParts: audio.parts, audio: voiced.audio, comments: chat.comments, warnings };
}
