import path from "node:path";
import { writeFile } from "node:fs/promises";
import type { RenderJob } from "../../../common/contract/render";
import { createTranscriber, planCaptions } from "../captions";
import type { RendererConfig } from "../config";
import { parseFacecamRegion } from "../render";
import { BOUNDARY_RULES } from "../selection";
import { ByteCounter, type TimeRange } from "../source";
import { artifactNames } from "./artifact-names";
import { splitAtSwitches } from "./format-switches";
import { buildManifest } from "./manifest";
import { jobLanguages } from "./languages";
import { JobProgress } from "./progress";
import { sideBySide } from "./side-by-side";
import { acquireSource } from "./stages/acquire";
import { fetchVideo } from "./stages/fetch-video";
import { renderOutputs } from "./stages/render-outputs";
import { selectMoments } from "./stages/select";
import { speechRanges, transcribeRanges, transcriptsFrom } from "./stages/transcribe";
import { writeTexts } from "./stages/write-texts";
import type { TaskRun } from "./task-run";
import type { JobContext, JobResult } from "./types";

export interface RunStats {
  bytesDownloaded: { audio: number; video: number };
  stageSeconds: Record<string, number>;
  /** When each stage ran, seconds from the job's start (stages overlap where the pipeline overlaps them). */
  stageWindows?: Record<string, { start: number; end: number }>;
}

/**
 * One job from VOD to uploaded files: resolve → chat ∥ audio analysed as it downloads → selection → covering
 * video segments ∥ captions from the audio → titles → encodes → uploads → manifest. Stages never look at the
 * whole video, and what can overlap does, so cost grows with what is rendered, not with the VOD's length.
 */
export async function runRenderJob(job: RenderJob, ctx: JobContext, config: Pick<RendererConfig, "downloadConcurrency" | "maxVideoBytesPerJob" | "encodeConcurrency" | "env"> & { splitAnalysisAboveSeconds?: number }, stats?: RunStats): Promise<JobResult> {
  const request = job.request;
  const progress = new JobProgress(ctx.reporter);
  const audioBytes = new ByteCounter();
  const videoBytes = new ByteCounter();
  const timings: Record<string, number> = {};
  const windows: Record<string, { start: number; end: number }> = {};
  const jobStart = performance.now();
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      const t1 = performance.now();
      timings[name] = (t1 - t0) / 1000;
      windows[name] = { start: (t0 - jobStart) / 1000, end: (t1 - jobStart) / 1000 };
    }
  };

  const source = await timed("acquire_analyse", () => acquireSource(job, ctx, progress, audioBytes, config.downloadConcurrency, { splitAboveSeconds: config.splitAnalysisAboveSeconds }));
  // Moments are kept off the places where an fMP4 video changes its media format before anything is planned.
  const run: TaskRun = { job, ctx, progress, env: config.env, downloadConcurrency: config.downloadConcurrency };
  const { chosen, switches, plan } = await timed("select", () => selectMoments(run, source, videoBytes));
  // Moments that touch at a switch stay two ranges: one file holds one initialisation section.
  const firstPlan = { ...plan, videoRanges: splitAtSwitches(plan.videoRanges, switches) };

  const languages = jobLanguages(request, [job.vod.language, source.media.probe.language]);
  const language = languages.stream;
  const transcriber = createTranscriber(config.env, ctx.fetchImpl);
  const captionPlan = planCaptions(transcriber, language ?? "en", request.burn_captions);
  // Captions are read from the audio rendition, so they are made while the video segments download; a failing
  // download stops them (and the job waits until both have stopped).
  const [video, early] = await sideBySide(
    ctx.signal,
    (signal) => timed("download_video", () =>
      fetchVideo(request, chosen, firstPlan, source.media.videoPlaylist, source.durationSeconds, { ...ctx, signal }, progress, videoBytes, { concurrency: config.downloadConcurrency, maxBytes: config.maxVideoBytesPerJob }),
    ),
    (signal) => timed("transcribe", () => transcribeRanges(padRanges(speechRanges(firstPlan, transcriber.local), BOUNDARY_RULES.cutToleranceSeconds, source.durationSeconds), source.audioParts, transcriber, language ?? "en", captionPlan, { ...ctx, signal }, progress)),
  );
  // Snapping to scene cuts moves an edge by at most the padding above; anything still missing is added here.
  const transcribed = await timed("transcribe_rest", () => transcribeRanges(speechRanges(video.plan, transcriber.local), source.audioParts, transcriber, language ?? "en", captionPlan, ctx, progress, early));
  const transcripts = transcriptsFrom(transcribed, captionPlan);
  const texts = await timed("metadata", () => writeTexts({ job, plan: video.plan, chosen: video.chosen, transcripts, comments: source.comments, language: languages.metadata }, ctx, progress, config.env));
  // FACECAM_REGION, when set (and well-formed), wins; otherwise split shorts look for the facecam in the video.
  const { artifacts, facecam } = await timed("render", () =>
    renderOutputs(request, video.plan, video.clips, transcripts, texts.texts, ctx, progress, { encodeConcurrency: config.encodeConcurrency, facecam: parseFacecamRegion(config.env.FACECAM_REGION) }),
  );

  progress.report("uploading", 0.5);
  const warnings = [...source.warnings, ...(chosen.warnings ?? []), ...transcripts.warnings, ...texts.warnings];
  const metadataPath = path.join(ctx.workDir, artifactNames.metadata);
  // metadata.json also says where split shorts took the facecam from (an additive key; the manifest keeps spec 2.9).
  const render = facecam ? { render: { facecam: { ...facecam.region, found: facecam.found, confidence: facecam.confidence } } } : {};
  await writeFile(metadataPath, JSON.stringify({ ...texts.document, ...render }, null, 2));
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
    stats.stageWindows = windows;
  }
  ctx.log.info("job rendered", { timings, audio_bytes: audioBytes.total, video_bytes: videoBytes.total, artifacts: artifacts.length });
  return { manifest, artifacts };
}

/** Ranges widened on both sides, within the VOD (the pieces overlapping after widening are fine to repeat). */
function padRanges(ranges: readonly TimeRange[], pad: number, durationSeconds: number): TimeRange[] {
  return ranges.map((r) => ({ start: Math.max(0, r.start - pad), end: Math.min(durationSeconds, r.end + pad) }));
}
