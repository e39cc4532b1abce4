import path from "node:path";
import { writeFile } from "node:fs/promises";
import type { RenderJob } from "../../../common/contract/render";
import { createTranscriber } from "../captions";
import type { RendererConfig } from "../config";
import { facecamRegionFromEnv } from "../render";
import { ByteCounter } from "../source";
import { artifactNames } from "./artifact-names";
import { buildManifest } from "./manifest";
import { JobProgress } from "./progress";
import { acquireSource } from "./stages/acquire";
import { chooseMoments } from "./stages/choose-moments";
import { fetchVideo } from "./stages/fetch-video";
import { renderOutputs } from "./stages/render-outputs";
import { transcribeRendered } from "./stages/transcribe";
import { writeTexts } from "./stages/write-texts";
import type { JobContext, JobResult } from "./types";

export interface RunStats {
  bytesDownloaded: { audio: number; video: number };
  stageSeconds: Record<string, number>;
}

/**
 * One job from VOD to uploaded files: resolve → audio + chat → analysis and selection → covering video
 * segments → captions → titles → encodes → uploads → manifest. Stages never look at the whole video; cost
 * grows with what is rendered, not with the VOD's length.
 */
export async function runRenderJob(job: RenderJob, ctx: JobContext, config: Pick<RendererConfig, "downloadConcurrency" | "maxVideoBytesPerJob" | "encodeConcurrency" | "env">, stats?: RunStats): Promise<JobResult> {
  const request = job.request;
  const progress = new JobProgress(ctx.reporter);
  const audioBytes = new ByteCounter();
  const videoBytes = new ByteCounter();
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      timings[name] = (performance.now() - t0) / 1000;
    }
  };

  const source = await timed("acquire", () => acquireSource(job, ctx, progress, audioBytes, config.downloadConcurrency));
  const chosen = await timed("analyse_select", () => chooseMoments(request, source.audioPath, source.comments, source.durationSeconds, ctx, progress));
  const video = await timed("download_video", () =>
    fetchVideo(request, chosen, source.media.videoPlaylist, source.durationSeconds, ctx, progress, videoBytes, { concurrency: config.downloadConcurrency, maxBytes: config.maxVideoBytesPerJob }),
  );
  const language = request.stream_language ?? job.vod.language ?? source.media.probe.language ?? null;
  const transcripts = await timed("transcribe", () =>
    transcribeRendered(video.plan, video.clips, createTranscriber(config.env, ctx.fetchImpl), language ?? "en", request.burn_captions, ctx, progress),
  );
  const texts = await timed("metadata", () => writeTexts(job, video.plan, video.chosen, transcripts, source.comments, language, ctx, progress, config.env));
  const artifacts = await timed("render", () =>
    renderOutputs(request, video.plan, video.clips, transcripts, texts.texts, ctx, progress, { encodeConcurrency: config.encodeConcurrency, facecam: facecamRegionFromEnv(config.env) }),
  );

  progress.report("uploading", 0.5);
  const warnings = [...source.warnings, ...transcripts.warnings, ...texts.warnings];
  const metadataPath = path.join(ctx.workDir, artifactNames.metadata);
  await writeFile(metadataPath, JSON.stringify(texts.document, null, 2));
  const { size_bytes: metaSize } = await ctx.uploader.put(artifactNames.metadata, metadataPath, "application/json", ctx.signal);
  artifacts.push({ name: artifactNames.metadata, kind: "metadata", content_type: "application/json", size_bytes: metaSize, run_name: null, index: null, title: "Titles, descriptions, tags and stories", duration_seconds: null, tags: null });

  const highlights = Object.values(video.chosen.momentsByProfile).flatMap((moments) =>
    (moments ?? []).map((m) => ({ profile: m.profile, moment: m, story: texts.texts.moments.get(m)?.story ?? "", title: texts.texts.moments.get(m)?.title ?? "" })),
  );
  progress.report("finalising", 0);
  const manifest = buildManifest({ sourceDurationSeconds: source.durationSeconds, highlights, artifacts, warnings });
  const manifestPath = path.join(ctx.workDir, artifactNames.manifest);
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  const { size_bytes: manifestSize } = await ctx.uploader.put(artifactNames.manifest, manifestPath, "application/json", ctx.signal);
  artifacts.push({ name: artifactNames.manifest, kind: "manifest", content_type: "application/json", size_bytes: manifestSize, run_name: null, index: null, title: "Manifest", duration_seconds: null, tags: null });

  if (stats) {
    stats.bytesDownloaded = { audio: audioBytes.total, video: videoBytes.total };
    stats.stageSeconds = timings;
  }
  ctx.log.info("job rendered", { timings, audio_bytes: audioBytes.total, video_bytes: videoBytes.total, artifacts: artifacts.length });
  return { manifest, artifacts };
}
