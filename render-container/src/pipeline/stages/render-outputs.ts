import path from "node:path";
import { writeFile } from "node:fs/promises";
import type { RunProfile } from "../../../../common/contract/enums";
import type { NormalizedJobRequest } from "../../../../common/contract/normalized-request";
import type { ArtifactRef } from "../../../../common/contract/render";
import { formatSrt } from "../../captions";
import { chooseFacecamRegion, DEFAULT_FACECAM_REGION, makeThumbnail, renderReel, renderShort, type FacecamChoice, type RelativeRect } from "../../render";
import { mapLimit } from "../../render/pool";
import { probeMedia } from "../../ffmpeg/probe";
import type { Moment } from "../../selection/types";
import type { ClipSource } from "../../source";
import { artifactNames } from "../artifact-names";
import type { JobProgress } from "../progress";
import type { RenderPlan } from "../render-plan";
import type { JobContext } from "../types";
import { clipFor } from "./fetch-video";
import { reelOptions, shortOptions } from "./render-options";
import type { Transcripts } from "./transcribe";

export interface TextFor {
  title: string;
  description: string;
  tags: string[];
}

export interface Texts {
  reels: Partial<Record<RunProfile, TextFor>>;
  /** By 1-based short index. */
  shorts: Record<number, TextFor>;
  /** Per moment: one-line story and a title (reel title cards, manifest). */
  moments: Map<Moment, { story: string; title: string }>;
}

export interface RenderedOutputs {
  artifacts: ArtifactRef[];
  /** The facecam region the split shorts used and how it was found; null when no short was split. */
  facecam: FacecamChoice | null;
}

/**
 * Encodes every deliverable and uploads each file as soon as it exists, so uploads overlap encoding and a
 * cancelled job leaves nothing half-written behind in the work folder. When shorts are split, the facecam is
 * looked for in the downloaded clips while the reels encode (`facecam`: the FACECAM_REGION setting, which wins,
 * or null to detect).
 */
export async function renderOutputs(request: NormalizedJobRequest, plan: RenderPlan, clips: readonly ClipSource[], transcripts: Transcripts, texts: Texts, ctx: JobContext, progress: JobProgress, opts: { encodeConcurrency: number; facecam: RelativeRect | null }): Promise<RenderedOutputs> {
  const artifacts: ArtifactRef[] = [];
  const outDir = path.join(ctx.workDir, "out");
  const upload = async (ref: Omit<ArtifactRef, "size_bytes">, file: string) => {
    const { size_bytes } = await ctx.uploader.put(ref.name, file, ref.content_type, ctx.signal);
    artifacts.push({ ...ref, size_bytes });
  };
  const p = request.parameters;
  const reelSeconds = plan.reels.reduce((s, r) => s + [...r.moments, ...r.coldOpen].reduce((a, m) => a + (m.end - m.start), 0), 0);
  const shortSeconds = plan.shorts.reduce((s, x) => s + (x.moment.end - x.moment.start), 0);
  progress.planEncodes(reelSeconds, shortSeconds);

  // Once per job, beside the reel encodes: a few low-resolution keyframes of the downloaded clips.
  const split = p.shorts_crop_mode === "split" && plan.shorts.length > 0;
  const stopFacecam = new AbortController();
  const facecamStarted = performance.now();
  const facecamPending = split
    ? chooseFacecamRegion(clips, { configured: opts.facecam, signal: AbortSignal.any([ctx.signal, stopFacecam.signal]) }).then((choice) => ({ choice, ms: Math.round(performance.now() - facecamStarted) }))
    : null;
  // Awaited before the shorts; a reel failing first stops it and must not leave it rejected and unobserved.
  facecamPending?.catch(() => {});

  // Reels, one after another (each already encodes two pieces at a time).
  let reelDone = 0;
  try {
    for (const reel of plan.reels) {
      const name = artifactNames.reel(reel.profile);
      const file = path.join(outDir, name);
      const seconds = [...reel.moments, ...reel.coldOpen].reduce((a, m) => a + (m.end - m.start), 0);
      const video = await renderReel({
        ...reelOptions(reel, clips, texts, p),
        out: file,
        signal: ctx.signal,
        concurrency: opts.encodeConcurrency,
        onProgress: (f) => progress.report("rendering_reels", (reelDone + f * seconds) / (reelSeconds || 1)),
      });
      reelDone += seconds;
      const text = texts.reels[reel.profile];
      await upload({ name, kind: "reel", content_type: "video/mp4", run_name: reel.profile, index: null, title: text?.title ?? null, duration_seconds: video.duration_seconds, tags: text?.tags ?? null }, video.path);
      const thumbAt = reel.coldOpen.length > 0 ? 1 : Math.max(0, reel.moments[0].peak - reel.moments[0].start);
      const thumb = await makeThumbnail(video.path, thumbAt, path.join(outDir, artifactNames.reelThumbnail(reel.profile)), { signal: ctx.signal });
      await upload({ name: artifactNames.reelThumbnail(reel.profile), kind: "thumbnail", content_type: "image/jpeg", run_name: reel.profile, index: null, title: text?.title ?? null, duration_seconds: null, tags: null }, thumb.path);
    }
  } catch (err) {
    // Its FFmpeg processes are gone before the job settles (the work folder is deleted after).
    stopFacecam.abort();
    await facecamPending?.catch(() => {});
    throw err;
  }
  // A shorts-only job never shows a reel stage.
  if (plan.reels.length > 0) progress.report("rendering_reels", 1);

  let facecam: FacecamChoice | null = null;
  if (facecamPending) {
    const { choice: { analysis, ...choice }, ms } = await facecamPending;
    facecam = choice;
    ctx.log.info("facecam region", { ...choice, candidate: analysis?.best?.region ?? null, runner_up: analysis?.runnerUp?.region ?? null, ms });
  }

  // Shorts, encodeConcurrency at a time; each short's file trio is uploaded as it finishes.
  const shortFractions = new Array<number>(plan.shorts.length).fill(0);
  const reportShorts = () => progress.report("rendering_shorts", shortFractions.reduce((a, b, i) => a + b * (plan.shorts[i].moment.end - plan.shorts[i].moment.start), 0) / (shortSeconds || 1));
  await mapLimit(
    plan.shorts,
    opts.encodeConcurrency,
    async (short, i, signal) => {
      const m = short.moment;
      const clip = clipFor(clips, m.start, m.end);
      const text = texts.shorts[short.index];
      const cues = transcripts.cuesFor(m.start, m.end);
      const info = await probeMedia(clip.path, { signal });
      const source = { width: info.video?.width ?? 1280, height: info.video?.height ?? 720 };
      const name = artifactNames.short(short.index);
      const video = await renderShort({
        ...shortOptions(short, clip, source, texts, transcripts, p, facecam?.region ?? DEFAULT_FACECAM_REGION),
        out: path.join(outDir, name),
        signal,
        onProgress: (f) => {
          shortFractions[i] = f;
          reportShorts();
        },
      });
      shortFractions[i] = 1;
      reportShorts();
      const common = { run_name: m.profile, index: short.index, title: text?.title ?? null, duration_seconds: video.duration_seconds };
      await upload({ ...common, name, kind: "short", content_type: "video/mp4", tags: text?.tags ?? [] }, video.path);
      // The sidecar exists for every short, also when nothing intelligible was said (then it is empty).
      const srtPath = path.join(outDir, artifactNames.shortCaptions(short.index));
      await writeFile(srtPath, formatSrt(cues));
      await upload({ ...common, name: artifactNames.shortCaptions(short.index), kind: "captions", content_type: "application/x-subrip", tags: null }, srtPath);
      const thumb = await makeThumbnail(video.path, Math.min(video.duration_seconds / 2, Math.max(0, m.peak - m.start)), path.join(outDir, artifactNames.shortThumbnail(short.index)), { signal });
      await upload({ ...common, name: artifactNames.shortThumbnail(short.index), kind: "thumbnail", content_type: "image/jpeg", duration_seconds: null, tags: null }, thumb.path);
    },
    ctx.signal,
  );
  progress.report("rendering_shorts", 1);
  return { artifacts, facecam };
}
