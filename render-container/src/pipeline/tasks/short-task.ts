import path from "node:path";
import { writeFile } from "node:fs/promises";
import type { ShortTask, TaskResult } from "../../../../common/contract/job-plan";
import type { ArtifactRef } from "../../../../common/contract/render";
import { HANDOFF_CONTENT_TYPES } from "../../../../common/handoff/names";
import { createTranscriber, formatSrt, heardLanguage, planCaptions, shortTranscript } from "../../captions";
import { TWITCH_EMOTE_CDN } from "../../chat-overlay/emotes";
import { probeMedia } from "../../ffmpeg/probe";
import { DEFAULT_FACECAM_REGION, makeThumbnail, renderShort } from "../../render";
import type { Moment } from "../../selection/types";
import { artifactNames } from "../../../../common/plan/artifact-names";
import { clipFor, refineShort } from "./clips";
import { shortWords, type ShortWords } from "./short-speech";
import { keepHeardWords } from "../reuse/heard-words";
import { shortOptions } from "../stages/render-options";
import { TaskProgress } from "../task-progress";
import { clipRanges, downloadTaskVideo, planMoment, taskVideo, type RenderTaskRun, type TaskVideo } from "./task-source";

/**
 * One vertical short: nudges its start to a nearby scene cut (automatic shorts), transcribes its own range from
 * its downloaded video (or takes the words the plan carries for it: short-speech.ts), renders it with the plan's
 * facecam region and its title, and uploads the video, its .srt sidecar, its transcript and its thumbnail.
 */
export async function runShortTask(run: RenderTaskRun, task: ShortTask, shared?: TaskVideo): Promise<Extract<TaskResult, { kind: "short" }>> {
  const { ctx, plan, req } = run;
  const progress = new TaskProgress(
    {
      resolving: { stage: "resolving", from: 0, to: 0.02 },
      downloading: { stage: "downloading_video", from: 0.02, to: 0.15 },
      // Finding scene cuts on the downloaded video finishes preparing it; "rendering_shorts" is the encode alone.
      snapping: { stage: "downloading_video", from: 0.15, to: 0.18 },
      transcribing: { stage: "transcribing", from: 0.18, to: 0.35 },
      encoding: { stage: "rendering_shorts", from: 0.35, to: 0.93 },
      uploading: { stage: "uploading", from: 0.93, to: 1 },
    },
    ctx.progress,
  );
  const m = planMoment(plan, task.moment_id);
  // In a group the video is already here (shared with the group's other members); alone, the task fetches its own.
  const fetched = shared ?? taskVideo(await downloadTaskVideo(run, clipRanges(task), (step, f) => progress.report(step, f)), ctx.signal);
  progress.report("downloading", 1);
  const clip = clipFor(fetched.clips, task.start, task.end);

  progress.report("snapping", 0);
  const placed = task.snap ? refineShort({ start: task.start, end: task.end, peak: task.peak }, await fetched.sceneCuts(), clip, m.pauses) : { start: task.start, end: task.end, peak: task.peak };
  progress.report("snapping", 1);

  const transcriber = createTranscriber(run.config.env, ctx.fetchImpl, req.ai);
  const captionPlan = planCaptions(transcriber, plan.captions.language, plan.captions.burn);
  const speech: ShortWords = captionPlan.transcribe
    ? await shortWords(run, transcriber, { clip, range: placed, chatProfanity: m.chat_profanity, planned: task.speech }, (f) => progress.report("transcribing", f))
    : { cues: [], heard: [], shown: [], warning: null, from: "transcribed" };
  if (speech.from === "plan") ctx.log.info("captions from the analysis' words", { short: task.index, words: speech.heard.length });
  const { cues, warning } = speech;
  progress.report("transcribing", 1);

  const info = await probeMedia(clip.path, { signal: ctx.signal });
  const source = { width: info.video?.width ?? 1280, height: info.video?.height ?? 720 };
  const moment: Moment = { start: placed.start, end: placed.end, peak: task.peak, score: m.score, profile: m.profile, source: m.source, label: m.label, signals: m.signals };
  const name = artifactNames.short(task.index);
  const chatWarnings: string[] = [];
  const outDir = path.join(ctx.workDir, "out");
  const video = await renderShort({
    ...shortOptions({
      short: { index: task.index, moment },
      clip,
      source,
      // The plan already said whether the title is flashed (null when shorts_title_card_enabled is false).
      texts: { shorts: task.title_text === null ? {} : { [task.index]: { title: task.title_text, description: task.description, tags: task.tags } } },
      transcripts: { burn: captionPlan.burn, cuesFor: () => cues },
      parameters: req.request.parameters,
      facecam: plan.facecam ?? DEFAULT_FACECAM_REGION,
    }),
    captionLook: req.request.parameters.caption_style,
    chat: task.chat && req.request.parameters.chat_overlay !== "off"
      ? {
          lines: task.chat,
          style: req.request.parameters.chat_overlay,
          emoteBase: run.config.emoteBaseUrl ?? run.config.env.TWITCH_EMOTE_URL ?? TWITCH_EMOTE_CDN,
          fetch: ctx.fetchImpl,
          warn: (message) => {
            ctx.log.warn("chat overlay", { message, short: task.index });
            if (message.startsWith("chat not drawn")) chatWarnings.push(`Short ${task.index}: ${message}.`);
          },
          drawn: (summary) => ctx.log.info("chat overlay drawn", { short: task.index, style: req.request.parameters.chat_overlay, ...summary }),
        }
      : null,
    out: path.join(outDir, name),
    signal: ctx.signal,
    onProgress: progress.reporter("encoding"),
  });
  progress.report("encoding", 1);

  const artifacts: ArtifactRef[] = [];
  const upload = async (ref: Omit<ArtifactRef, "size_bytes">, file: string) => {
    const { size_bytes } = await ctx.uploader.put(ref.name, file, ref.content_type, ctx.signal);
    artifacts.push({ ...ref, size_bytes });
  };
  const common = { run_name: m.profile, index: task.index, title: task.title, duration_seconds: video.duration_seconds };
  await upload({ ...common, name, kind: "short", content_type: "video/mp4", tags: task.tags }, video.path);
  progress.report("uploading", 0.8);
  // The sidecar exists for every short, also when nothing intelligible was said (then it is empty).
  const srtPath = path.join(outDir, artifactNames.shortCaptions(task.index));
  await writeFile(srtPath, formatSrt(cues));
  await upload({ ...common, name: artifactNames.shortCaptions(task.index), kind: "captions", content_type: "application/x-subrip", tags: null }, srtPath);
  // The word-level transcript, for every short as the .srt: every heard word, the shown ones marked.
  const transcriptPath = path.join(outDir, artifactNames.shortTranscript(task.index));
  const transcript = shortTranscript({
    index: task.index,
    short: name,
    vodStart: placed.start,
    vodEnd: placed.end,
    language: heardLanguage(transcriber, plan.captions.language) ?? plan.captions.language,
    recogniser: transcriber.name,
    captionsBurned: captionPlan.burn,
    heard: speech.heard,
    shown: speech.shown,
    maskProfanity: req.request.parameters.mask_profanity,
    note: captionPlan.transcribe ? speech.warning : captionPlan.warning,
  });
  await writeFile(transcriptPath, `${JSON.stringify(transcript, null, 2)}\n`);
  await upload({ ...common, name: artifactNames.shortTranscript(task.index), kind: "transcript", content_type: HANDOFF_CONTENT_TYPES.transcript, tags: null }, transcriptPath);
  const thumb = await makeThumbnail(video.path, Math.min(video.duration_seconds / 2, Math.max(0, task.peak - placed.start)), path.join(outDir, artifactNames.shortThumbnail(task.index)), { signal: ctx.signal });
  await upload({ ...common, name: artifactNames.shortThumbnail(task.index), kind: "thumbnail", content_type: "image/jpeg", duration_seconds: null, tags: null }, thumb.path);
  // What it heard is kept for the account's later re-cuts of this VOD (a re-cut hears only what no short heard):
  // only a clean pass (a recogniser that warned may have heard part of the range), and only once the short itself
  // is stored, so a task cancelled or failed before that leaves nothing behind.
  if (captionPlan.transcribe && warning === null) {
    await keepHeardWords(ctx, { index: task.index, vodId: req.vod.vod_id, recogniser: transcriber.name, language: heardLanguage(transcriber, plan.captions.language) ?? plan.captions.language, range: placed, heard: speech.heard });
  }
  progress.report("uploading", 1);
  const warnings = [...(warning ? [warning] : []), ...chatWarnings];
  return { kind: "short", artifacts, moment: { id: task.moment_id, start: placed.start, end: placed.end }, ...(warnings.length ? { warnings } : {}) };
}
