import path from "node:path";
import { rm } from "node:fs/promises";
import { fetchMediaPlaylist, type MediaPlaylist, type MediaSegment, type Variant } from "../../../../common/twitch";
import { chooseFacecamRegion, DEFAULT_FACECAM_REGION, FACECAM_DETECTION as DETECT, parseFacecamRegion, type FacecamChoice } from "../../render";
import { downloadCoveringSegments, type ByteCounter, type ClipSource, type ResolvedVodMedia, type TimeRange } from "../../source";
import type { NormalizedParameters } from "../../../../common/contract/normalized-request";
import type { RenderPlan } from "../render-plan";
import type { TaskRun } from "../task-run";
import type { Chosen } from "./choose-moments";

/**
 * How the analysis finds the facecam of split shorts without the job's video (each render task downloads its own
 * later). The detector looks at about 30 grey keyframes 320 px wide (FACECAM_DETECTION), so it needs neither the
 * source's resolution nor much of it: a few 10 s segments of the VOD's smallest video rendition (Twitch's 160p30,
 * a few hundred kB a segment with its audio, where a source segment weighs several MB), spread over the places the
 * job shows. Small is enough: on a 720p synthetic VOD the same three segments found its facecam with confidence 0.90 at
 * 284x160 and 0.88 at 640x360; spreading them matters more (six consecutive segments of one scene found nothing).
 */
export const FACECAM_SAMPLE = {
  /** Segments fetched: with a keyframe every 2 s (Twitch's), 6 segments give the detector its 30 keyframes. */
  segments: 6,
  /** A guard: the sample never needs more (6 segments of the source rendition at 1080p60 stay below it). */
  maxBytes: 64 * 1024 * 1024,
} as const;

export interface FacecamDecided {
  choice: FacecamChoice;
  /** What was fetched to find it; null when nothing was (FACECAM_REGION set). */
  sample: { rendition: string; segments: number; bytes: number } | null;
}

/** The video rendition the facecam is looked for in: the smallest the token allows (the chosen one if it is the only one). */
export function facecamRendition(media: Pick<ResolvedVodMedia, "videoVariants" | "source">): Variant {
  const video = media.videoVariants.length > 0 ? media.videoVariants : [media.source];
  return video.reduce((small, v) => (v.bandwidth < small.bandwidth ? v : small));
}

/**
 * Which segments of `playlist` to sample: those covering `ranges` (the places the job shows), at most `count`,
 * spread evenly over them in VOD order (keyframes minutes apart tell an overlay from gameplay far better than
 * consecutive ones, which often show the same scene).
 */
export function facecamSampleSegments(playlist: Pick<MediaPlaylist, "segments">, ranges: readonly TimeRange[], count: number = FACECAM_SAMPLE.segments): MediaSegment[] {
  const pool = playlist.segments.filter((s) => ranges.some((r) => s.start < r.end && s.start + s.duration > r.start));
  if (pool.length <= count) return pool;
  return Array.from({ length: count }, (_, k) => pool[Math.floor(((k + 0.5) * pool.length) / count)]!);
}

/**
 * Segments for a second look when the places the job shows held too few distinct keyframes (a static scene, a
 * short VOD): `count` more spread over the whole VOD, none already fetched. The overlay stays where it is for the
 * stream, so frames from elsewhere tell it from the gameplay as well as frames around the moments do.
 */
export function widerFacecamSample(playlist: Pick<MediaPlaylist, "segments">, fetched: readonly MediaSegment[], count: number = FACECAM_SAMPLE.segments): MediaSegment[] {
  const taken = new Set(fetched.map((s) => s.index));
  const rest = { segments: playlist.segments.filter((s) => !taken.has(s.index)) };
  return facecamSampleSegments(rest, [{ start: 0, end: Number.POSITIVE_INFINITY }], count);
}

/**
 * Whether the job shows anything that needs the facecam: split shorts (their facecam panel) or reels with chat on
 * screen (the chat keeps off the facecam: chat-overlay/placement.ts). Other jobs fetch nothing for it.
 */
export function facecamNeeded(request: { parameters: Pick<NormalizedParameters, "shorts_crop_mode" | "reel_chat_overlay"> }, plan: Pick<RenderPlan, "shorts" | "reels">): boolean {
  return (request.parameters.shorts_crop_mode === "split" && plan.shorts.length > 0) || (request.parameters.reel_chat_overlay && plan.reels.length > 0);
}

/**
 * The facecam region of the job's split shorts and its reels' chat (null when neither needs it: facecamNeeded). FACECAM_REGION, when set and
 * well-formed, wins and nothing is fetched; otherwise a few segments of the smallest video rendition around the
 * shorts and the chosen moments go through chooseFacecamRegion, and when those show too few distinct keyframes
 * to judge by (DETECT.minFrames), as many again from across the VOD (widerFacecamSample). Like the detection
 * itself, a failing fetch never fails the job: the shorts then use the documented default region. Bytes are
 * counted in `bytes`.
 */
export async function decideFacecam(run: TaskRun, what: { plan: Pick<RenderPlan, "shorts" | "reels">; chosen: Pick<Chosen, "momentsByProfile">; media: Pick<ResolvedVodMedia, "videoVariants" | "source" | "videoPlaylist"> }, bytes: ByteCounter): Promise<FacecamDecided | null> {
  const { job, ctx, progress } = run;
  if (!facecamNeeded(job.request, what.plan)) return null;
  const configured = parseFacecamRegion(run.env.FACECAM_REGION);
  if (configured) return { choice: await chooseFacecamRegion([], { configured }), sample: null };

  const started = performance.now();
  const rendition = facecamRendition(what.media);
  const dir = path.join(ctx.workDir, "facecam");
  const before = bytes.total;
  let segments = 0;
  progress.report("downloading_video", 0);
  try {
    const playlist = rendition === what.media.source ? what.media.videoPlaylist : await fetchMediaPlaylist({ fetch: ctx.fetchImpl, signal: ctx.signal }, rendition.url);
    const shown = [...what.plan.shorts.map((s) => s.moment), ...Object.values(what.chosen.momentsByProfile).flatMap((ms) => ms ?? [])];
    const clips: ClipSource[] = [];
    const fetchSegments = async (picked: readonly MediaSegment[], folder: string) => {
      segments += picked.length;
      // The middle of each segment: one range per segment, so each is fetched alone (neighbours share a file).
      const ranges = picked.map((s) => ({ start: s.start + s.duration / 4, end: s.start + (3 * s.duration) / 4 }));
      clips.push(
        ...(await downloadCoveringSegments(playlist, ranges, path.join(dir, folder), {
          padSeconds: 0,
          concurrency: run.downloadConcurrency,
          signal: ctx.signal,
          counter: bytes,
          fetch: ctx.fetchImpl,
          maxBytes: FACECAM_SAMPLE.maxBytes,
          onProgress: progress.reporter("downloading_video"),
        })),
      );
    };
    const first = facecamSampleSegments(playlist, shown);
    await fetchSegments(first, "shown");
    let decided = await chooseFacecamRegion(clips, { configured: null, signal: ctx.signal });
    const wider = decided.found === "default" && decided.frames < DETECT.minFrames ? widerFacecamSample(playlist, first) : [];
    if (wider.length > 0) {
      await fetchSegments(wider, "wider");
      decided = await chooseFacecamRegion(clips, { configured: null, signal: ctx.signal });
    }
    const { analysis, ...choice } = decided;
    const sample = { rendition: rendition.group_id, segments, bytes: bytes.total - before };
    ctx.log.info("facecam region", { ...choice, ...sample, widened: wider.length > 0, candidate: analysis?.best?.region ?? null, runner_up: analysis?.runnerUp?.region ?? null, ms: Math.round(performance.now() - started) });
    return { choice, sample };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.log.warn("facecam sample could not be fetched; the default region is used", { error: String(err), rendition: rendition.group_id });
    const reason = `sample could not be fetched: ${String((err as Error)?.message ?? err).slice(0, 200)}`;
    return { choice: { region: DEFAULT_FACECAM_REGION, found: "default", confidence: 0, frames: 0, reason }, sample: { rendition: rendition.group_id, segments, bytes: bytes.total - before } };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
