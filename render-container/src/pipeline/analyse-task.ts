import type { JobPlan, RenderTaskRequest } from "../../../common/contract/job-plan";
import { createTranscriber, heardLanguage, planCaptions } from "../captions";
import type { RendererConfig } from "../config";
import type { MetadataInput } from "../metadata";
import { ByteCounter, type TimeRange } from "../source";
import { buildJobPlan } from "./build-plan";
import { jobLanguages } from "./languages";
import { JobProgress } from "./progress";
import { sideBySide } from "./side-by-side";
import { acquireSource } from "./stages/acquire";
import { decideFacecam, facecamNeeded, type FacecamDecided } from "./stages/decide-facecam";
import { selectMoments } from "./stages/select";
import { storyRanges, transcribeRanges, transcriptsFrom } from "./stages/transcribe";
import { writeTexts } from "./stages/write-texts";
import type { TaskRun } from "./task-run";
import type { JobContext } from "./types";
import { audioForRanges, reusableSource, reusedTranscripts } from "./reuse/reuse-source";
import { storeAnalysis, type StoredAnalysis } from "./reuse/stored-analysis";
import { concatHeard, halfDir, joinTranscribed, plannedSpeech, recutShortRange, rangesToHear, videoForShort, withKept, withoutRange } from "./reuse/recut-captions";
import { halvesAtPause, hearsInHalves, ownWords } from "./reuse/hear-in-halves";
import { fetchHeardWords } from "./reuse/heard-words";
import { planRecutJoin } from "./reuse/recut-join";
import { ANALYSIS_VERSION, type PlanAnalysis } from "../../../common/contract/analysis-reuse";
import type { AudioAnalysis } from "../analysis";

export type AnalysisConfig = Pick<RendererConfig, "downloadConcurrency" | "env"> & { splitAnalysisAboveSeconds?: number };

export interface AnalysisStats {
  /** CDN bytes: the audio rendition, fMP4 initialisation sections compared at format switches, the facecam sample. */
  bytesDownloaded: { audio: number; video: number; facecam: number };
  stageSeconds: Record<string, number>;
  /** What was fetched to find the facecam (null: nothing, no split short or FACECAM_REGION set). */
  facecamSample: FacecamDecided["sample"];
  /** What the titles and stories were written from, to check them against it (undefined until the analysis ends). */
  metadataInput?: MetadataInput;
  /** A re-cut's one short: earlier words kept, and the seconds heard (undefined: not a re-cut). */
  recutWords?: { kept: number; heardSeconds: number; keptFrom: { start: number; end: number } | null };
}

/**
 * The job's analysis task: everything up to the encodes, and no more video than the facecam needs. Resolves the
 * VOD, reads the chat while the audio rendition downloads and is analysed, selects each profile's moments and the
 * shorts (no_highlights_found / vod_format_unsupported before any video segment is fetched), transcribes the
 * words the titles and stories are written from (around each reel moment's and short's peak; the shorts' captions
 * are their own tasks' work) and writes the texts; beside that, when a short is split, finds the facecam on a few
 * segments of the smallest video rendition. Returns the job's plan: one render task per output piece.
 *
 * A full analysis also stores what it found about the whole VOD (reuse/stored-analysis.ts) for the account's later
 * jobs on it; a job given `reuse` starts from that stored analysis instead of the VOD's audio rendition and runs
 * the same stages on it (docs/TASK-MODEL.md, "Reusing an analysis").
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

  // A job reusing an earlier analysis of this VOD loads it instead of downloading and analysing the whole VOD;
  // when it cannot be used, the VOD is analysed as for any job (and the reason goes into the warnings).
  const reuse = req.reuse ? await timed("load_analysis", () => reusableSource(run, req.reuse!)) : null;
  if (reuse && !reuse.ok) ctx.log.warn("stored analysis not reused", { from_job_id: req.reuse!.from_job_id, why: reuse.why });
  const reused = reuse?.ok ? reuse : null;
  const source = reused ? reused.source : await timed("acquire_analyse", () => acquireSource(run, bytes.audio, { splitAboveSeconds: config.splitAnalysisAboveSeconds }));
  const selection = await timed("select", () => selectMoments(run, source, bytes.video));

  const languages = jobLanguages(request, [req.vod.language, source.media.probe.language]);
  const language = languages.stream ?? "en";
  const transcriber = createTranscriber(config.env, ctx.fetchImpl, req.ai);
  const captionPlan = planCaptions(transcriber, language, request.burn_captions);
  const ranges = storyRanges(selection.plan, transcriber.local);
  // A re-cut's one short is heard whole here, once, and its captions come from these words (reuse/recut-captions.ts).
  const recut = reused && captionPlan.transcribe ? recutShortRange(selection.plan) : null;
  const stored = reused ? reusedTranscripts(reused.stored, transcriber, language) : undefined;
  const done = recut ? withoutRange(stored, recut.range) : stored;
  // With a reused analysis only the ranges it did not transcribe need audio: their segments, not the rendition.
  const audio = reused ? (captionPlan.transcribe ? await timed("audio_for_new_ranges", () => audioForRanges(run, source, ranges, recut ? joinTranscribed(done, { words: [], covered: [recut.range], warnings: [] }) : done, bytes.audio)) : []) : source.audioParts;
  // Of the re-cut's short, only what no earlier short of the account heard is heard (reuse/recut-join.ts), from its
  // own video, as its task would hear it (reuse/recut-captions.ts).
  const earlier = recut && req.reuse?.heard?.length ? await timed("earlier_words", () => fetchHeardWords(req.reuse!.heard!, { vodId: req.vod.vod_id, recogniser: transcriber.name, language: heardLanguage(transcriber, language) ?? language }, ctx.fetchImpl, ctx.signal)) : [];
  const join = recut ? planRecutJoin(earlier, recut.range, selection.audio.pauses) : null;
  // Nothing heard there before: on 4 vCPU or more, heard as two halves side by side (reuse/hear-in-halves.ts).
  const halves = recut && !join && hearsInHalves(config.env) ? halvesAtPause(recut.range, selection.audio.pauses) : null;
  const pieces = join ?? halves;
  const toHear = recut ? rangesToHear(pieces, recut.range) : [];
  const shortVideo = toHear.length > 0 ? await timed("video_for_short", () => videoForShort(run, source, toHear, bytes.video)) : [];
  if (recut) ctx.log.info("re-cut words", { earlier_shorts: earlier.length, kept_from: join?.earlier ?? null, kept_words: join?.kept.length ?? 0, heard: toHear, in_halves: halves !== null });
  // The texts come from the audio on disk (CPU), the facecam from a few small video segments (network): side by side.
  const [written, facecam] = await sideBySide(
    ctx.signal,
    async (signal) => {
      const branch = { ...ctx, signal };
      const hear = (ranges: typeof toHear, workDir: string) => transcribeRanges({ ...run, ctx: { ...branch, workDir } }, { ranges, audio: shortVideo, transcriber, language, captionPlan, seekInput: false });
      // Halves overlap by their context, so each is heard on its own (merged, they would be the whole again) and keeps
      // only the words of its own part.
      const hearHalf = async (piece: { range: TimeRange; take: TimeRange }, i: number) => {
        const heard = await hear([piece.range], await halfDir(branch.workDir, i));
        return { ...heard, words: ownWords(piece, heard.words) };
      };
      const hearEdges = async () => (toHear.length === 0 ? { words: [], covered: [], warnings: [] } : halves ? concatHeard(await Promise.all(halves.hear.map(hearHalf))) : hear(toHear, branch.workDir));
      const heard = recut ? await timed("transcribe_short", async () => withKept(pieces, recut.range, await hearEdges())) : null;
      const words = await timed("transcribe", () => transcribeRanges({ ...run, ctx: branch }, { ranges, audio, transcriber, language, captionPlan, done: heard ? joinTranscribed(done, heard) : done }));
      const transcripts = transcriptsFrom(words, captionPlan);
      const texts = await timed("metadata", () => writeTexts({ job: req, plan: selection.plan, chosen: selection.chosen, transcripts, comments: source.comments, language: languages.metadata, localRecogniser: transcriber.local }, branch, run.progress, config.env));
      const speech = recut && heard ? plannedSpeech(heard, recut.range, transcriber.name) : null;
      return { transcripts, texts, words, speech: speech && recut ? new Map([[recut.index, speech]]) : undefined };
    },
    (signal) => {
      const stored = reused?.stored.facecam;
      // A facecam detected on this VOD's video stays where it was: no segment is fetched again (FACECAM_REGION wins).
      if (stored && !config.env.FACECAM_REGION && facecamNeeded(request, selection.plan)) return Promise.resolve({ choice: stored, sample: null } as FacecamDecided);
      return timed("facecam", () => decideFacecam({ ...run, ctx: { ...ctx, signal } }, { plan: selection.plan, chosen: selection.chosen, media: source.media }, bytes.facecam));
    },
  );

  const analysis = reused
    ? { reused_from: req.reuse!.from_job_id, stored: null }
    : {
        reused_from: null,
        stored: await timed("store_analysis", () =>
          keepAnalysis(ctx, {
            version: ANALYSIS_VERSION,
            vod_id: req.vod.vod_id,
            duration_seconds: source.durationSeconds,
            analysed_at: new Date().toISOString(),
            audio: withoutPcm(selection.audio),
            comments: source.comments,
            warnings: source.warnings,
            transcripts: { transcriber: transcriber.name, language, words: written.words.words, covered: written.words.covered },
            facecam: facecam?.choice.found === "detected" ? facecam.choice : null,
          }),
        ),
      };
  const notReused = reuse && !reuse.ok ? [`The earlier analysis of this VOD (job ${req.reuse!.from_job_id}) could not be used (${reuse.why}), so the VOD was analysed again; its processing credits stay waived.`] : [];
  const plan = buildJobPlan({
    job: req,
    source: { durationSeconds: source.durationSeconds, videoRendition: source.media.source.group_id, formatSwitches: selection.switches.map((s) => s.at), frameRate: source.media.source.frame_rate },
    languages: { stream: language, metadata: languages.metadata },
    captions: { burn: captionPlan.burn, language },
    chosen: selection.chosen,
    render: selection.plan,
    texts: written.texts,
    facecam: facecam?.choice ?? null,
    speech: written.speech,
    comments: source.comments,
    warnings: [...notReused, ...source.warnings, ...(selection.chosen.warnings ?? []), ...written.transcripts.warnings, ...written.texts.warnings],
    analysis,
  });
  if (stats) {
    stats.bytesDownloaded = { audio: bytes.audio.total, video: bytes.video.total, facecam: bytes.facecam.total };
    stats.stageSeconds = timings;
    stats.facecamSample = facecam?.sample ?? null;
    stats.metadataInput = written.texts.input;
    if (recut) stats.recutWords = { kept: join?.kept.length ?? 0, heardSeconds: toHear.reduce((s, r) => s + (r.end - r.start), 0), keptFrom: join?.earlier ?? null };
  }
  ctx.log.info("job planned", { reused_from: analysis.reused_from, stored_bytes: analysis.stored?.size_bytes ?? null, timings, audio_bytes: bytes.audio.total, facecam_bytes: bytes.facecam.total, tasks: plan.tasks.length, facecam: plan.facecam });
  return plan;
}

/** The signals without the kept PCM (files in this task's work folder, gone when it ends). */
function withoutPcm(audio: AudioAnalysis): StoredAnalysis["audio"] {
  const { pcm: _pcm, ...rest } = audio;
  return rest;
}

/** Stores the analysis for later jobs; a failure costs this job nothing (it is logged, and nothing is reused later). */
async function keepAnalysis(ctx: JobContext, a: StoredAnalysis): Promise<PlanAnalysis["stored"]> {
  try {
    return await storeAnalysis(a, ctx.workDir, (name, file, type) => ctx.uploader.put(name, file, type, ctx.signal));
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.log.warn("the analysis could not be stored for later jobs", { error: String(err) });
    return null;
  }
}
