import type { JobPlan, RenderTaskRequest } from "../../../common/contract/job-plan";
import { createTranscriber, planCaptions } from "../captions";
import type { RendererConfig } from "../config";
import type { MetadataInput } from "../metadata";
import { ByteCounter } from "../source";
import { buildJobPlan } from "./build-plan";
import { jobLanguages } from "./languages";
import { JobProgress } from "./progress";
import { sideBySide } from "./side-by-side";
import { acquireSource } from "./stages/acquire";
import { decideFacecam, type FacecamDecided } from "./stages/decide-facecam";
import { selectMoments } from "./stages/select";
import { storyRanges, transcribeRanges, transcriptsFrom } from "./stages/transcribe";
import { writeTexts } from "./stages/write-texts";
import type { TaskRun } from "./task-run";
import type { JobContext } from "./types";

export type AnalysisConfig = Pick<RendererConfig, "downloadConcurrency" | "env"> & { splitAnalysisAboveSeconds?: number };

export interface AnalysisStats {
  /** CDN bytes: the audio rendition, fMP4 initialisation sections compared at format switches, the facecam sample. */
  bytesDownloaded: { audio: number; video: number; facecam: number };
  stageSeconds: Record<string, number>;
  /** What was fetched to find the facecam (null: nothing, no split short or FACECAM_REGION set). */
  facecamSample: FacecamDecided["sample"];
  /** What the titles and stories were written from, to check them against it (undefined until the analysis ends). */
  metadataInput?: MetadataInput;
}

/**
 * The job's analysis task: everything up to the encodes, and no more video than the facecam needs. Resolves the
 * VOD, reads the chat while the audio rendition downloads and is analysed, selects each profile's moments and the
 * shorts (no_highlights_found / vod_format_unsupported before any video segment is fetched), transcribes the
 * words the titles and stories are written from (around each reel moment's and short's peak; the shorts' captions
 * are their own tasks' work) and writes the texts; beside that, when a short is split, finds the facecam on a few
 * segments of the smallest video rendition. Returns the job's plan: one render task per output piece.
 */
export async function runAnalysisTask(req: RenderTaskRequest, ctx: JobContext, config: AnalysisConfig, stats?: AnalysisStats): Promise<JobPlan> {
  const request = req.request;
  const run: TaskRun = { job: req, ctx, progress: new JobProgress(ctx.reporter), env: config.env, downloadConcurrency: config.downloadConcurrency };
  const bytes = { audio: new ByteCounter(), video: new ByteCounter(), facecam: new ByteCounter() };
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      timings[name] = (performance.now() - t0) / 1000;
    }
  };

  const source = await timed("acquire_analyse", () => acquireSource(run, bytes.audio, { splitAboveSeconds: config.splitAnalysisAboveSeconds }));
  const selection = await timed("select", () => selectMoments(run, source, bytes.video));

  const languages = jobLanguages(request, [req.vod.language, source.media.probe.language]);
  const language = languages.stream ?? "en";
  const transcriber = createTranscriber(config.env, ctx.fetchImpl, req.ai);
  const captionPlan = planCaptions(transcriber, language, request.burn_captions);
  // The texts come from the audio on disk (CPU), the facecam from a few small video segments (network): side by side.
  const [written, facecam] = await sideBySide(
    ctx.signal,
    async (signal) => {
      const branch = { ...ctx, signal };
      const words = await timed("transcribe", () =>
        transcribeRanges({ ...run, ctx: branch }, { ranges: storyRanges(selection.plan, transcriber.local), audio: source.audioParts, transcriber, language, captionPlan }),
      );
      const transcripts = transcriptsFrom(words, captionPlan);
      const texts = await timed("metadata", () => writeTexts({ job: req, plan: selection.plan, chosen: selection.chosen, transcripts, comments: source.comments, language: languages.metadata, localRecogniser: transcriber.local }, branch, run.progress, config.env));
      return { transcripts, texts };
    },
    (signal) => timed("facecam", () => decideFacecam({ ...run, ctx: { ...ctx, signal } }, { plan: selection.plan, chosen: selection.chosen, media: source.media }, bytes.facecam)),
  );

  const plan = buildJobPlan({
    job: req,
    source: { durationSeconds: source.durationSeconds, videoRendition: source.media.source.group_id, formatSwitches: selection.switches.map((s) => s.at), frameRate: source.media.source.frame_rate },
    languages: { stream: language, metadata: languages.metadata },
    captions: { burn: captionPlan.burn, language },
    chosen: selection.chosen,
    render: selection.plan,
    texts: written.texts,
    facecam: facecam?.choice ?? null,
    comments: source.comments,
    warnings: [...source.warnings, ...(selection.chosen.warnings ?? []), ...written.transcripts.warnings, ...written.texts.warnings],
  });
  if (stats) {
    stats.bytesDownloaded = { audio: bytes.audio.total, video: bytes.video.total, facecam: bytes.facecam.total };
    stats.stageSeconds = timings;
    stats.facecamSample = facecam?.sample ?? null;
    stats.metadataInput = written.texts.input;
  }
  ctx.log.info("job planned", { timings, audio_bytes: bytes.audio.total, facecam_bytes: bytes.facecam.total, tasks: plan.tasks.length, facecam: plan.facecam });
  return plan;
}
