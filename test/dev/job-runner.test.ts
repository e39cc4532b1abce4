import { mkdtemp, readdir, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Manifest, type RenderJob, type RenderStage } from "../../common/contract/render";
import { generateSyntheticVod, synthCacheRoot, type SyntheticVodTruth } from "../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../dev/twitch-server";
import { parseSrt } from "../../render-container/src/captions";
import { probeMedia } from "../../render-container/src/ffmpeg/probe";
import { silentLogger } from "../../render-container/src/log";
import { runJobInProcess } from "../../dev/job-runner/in-process";
import { localRenderJob } from "../../dev/render-cli/local-job";
import { removeScratchUnlessFailed } from "../support/scratch-dirs";

/**
 * The job runner (dev/job-runner: the analysis task, the plan's render tasks, the finalising step, each task run
 * by the renderer's own task code) on a short synthetic VOD served by the local Twitch-compatible server: real
 * downloads, real analysis, real FFmpeg encodes, real pocketsphinx. Outputs are checked with ffprobe and by parsing.
 */
let root: string;
let twitch: TwitchServer;
let truth: SyntheticVodTruth;
const VOD_ID = "900000321";

beforeAll(async () => {
  // Generated once and kept in the synthetic VOD cache (same options, same folder), as the other tests' VODs are.
  root = path.join(synthCacheRoot(), "job-runner-vods");
  ({ truth } = await generateSyntheticVod({ root, vodId: VOD_ID, durationSeconds: 150, seed: 11, width: 640, height: 360, moments: [{ kind: "hype", peak: 70 }], mutedSegments: [13] }));
  twitch = await startTwitchServer({ root });
});
/** Every job's output and work folder (a job's files: about 10 MB each). */
const scratch: string[] = [];
afterAll(async ({}, suite) => {
  await twitch?.close();
  await removeScratchUnlessFailed(suite, scratch);
});

const jobFor = (body: Record<string, unknown>): Promise<RenderJob> => localRenderJob(body, { twitch, jobId: "job_pipeline" });

/** Runs a job in this process; every task's progress lands in `progress`, in the order reported. */
async function run(job: RenderJob, out?: string) {
  out ??= await mkdtemp(path.join(os.tmpdir(), "pipeline-out-"));
  const work = await mkdtemp(path.join(os.tmpdir(), "pipeline-work-"));
  scratch.push(out, work);
  const progress: { task: string; stage: RenderStage; fraction: number }[] = [];
  twitch.stats.reset();
  const result = await runJobInProcess(job, {
    // The recogniser's accurate search alone (POCKETSPHINX_CROSS_CHECK=0, an operator's setting), half the
    // recogniser CPU of the default: what this file proves of captions (an .srt listed, well-formed, on the
    // short's clock) holds for whatever words are heard. The default's cross-check is proven where it is the
    // subject (test/renderer/captions) and run by the pipeline tests (analyse-task, analysis-reuse, render-task).
    settings: { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 2, env: { POCKETSPHINX_CROSS_CHECK: "0" } },
    outDir: out,
    workDir: work,
    log: silentLogger,
    onProgress: (task, stage, fraction) => void progress.push({ task, stage, fraction }),
  });
  return { result, out, progress, served: [...twitch.stats.segmentsServed] };
}

describe("a job run by the job runner on a synthetic VOD", () => {
  let ran: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    const job = await jobFor({
      vod_url: `https://www.twitch.tv/videos/${VOD_ID}`,
      num_shorts: 1,
      final_video_length_minutes: 1,
      streamer_name: "Synthia",
      parameters: { min_highlight_duration: 20, max_highlight_duration: 25, cold_open_enabled: true, cold_open_max_clips: 2, shorts_crop_mode: "split", shorts_facecam_frame_enabled: true, shorts_facecam_frame_color: "violet" },
    });
    ran = await run(job);
  }, 600_000);

  it("finds the planted moment and keeps a lead-in before its peak", () => {
    const planted = truth.moments.find((m) => m.kind === "hype")!;
    const found = ran.result.manifest.highlights.find((h) => h.start <= planted.peak && h.end >= planted.peak);
    expect(found, JSON.stringify(ran.result.manifest.highlights)).toBeDefined();
    // max_highlight_duration is 25 s here, so the clip cannot hold the whole setup; it must not start at the peak.
    expect(found!.start).toBeLessThanOrEqual(planted.peak - 5);
    expect(found!.story.length).toBeGreaterThan(10);
    expect(found!.signals?.reasons.length).toBeGreaterThan(0);
  });

  it("writes a manifest of the documented shape that matches the files", async () => {
    const manifest = Manifest.parse(JSON.parse(await readFile(path.join(ran.out, "manifest.json"), "utf8")));
    expect(manifest.summary.total_shorts).toBe(1);
    expect(manifest.shorts_count).toBe(1);
    expect(manifest.summary.total_videos).toBe(2);
    expect(manifest.summary.source_vod_duration_seconds).toBeCloseTo(150, 0);
    for (const group of Object.values(manifest.artifacts.assets)) expect(Array.isArray(group)).toBe(true);
    expect(manifest.artifacts.assets.compilation[0].name).toBe("reel-balanced.mp4");
    // Segment 13 (130-140 s) is served muted, as Twitch does for DMCA parts: said, not hidden.
    expect(manifest.warnings.some((w) => /muted/.test(w))).toBe(true);
    // One planted moment cannot fill a 60 s reel: the selection says so and why, in the manifest.
    expect(manifest.warnings.some((w) => /balanced reel runs \d+ s of its 60 s target/.test(w))).toBe(true);
    // The stored analysis (for re-cuts) sits beside the deliverables in the job's folder; it is none of them.
    const files = (await readdir(ran.out)).filter((f) => f !== "analysis.json.gz" && !f.endsWith(".heard.json")).sort();
    expect(await readdir(ran.out)).toContain("analysis.json.gz");
    expect(files).toEqual(["manifest.json", "metadata.json", "reel-balanced.edl", "reel-balanced.jpg", "reel-balanced.mp4", "reel-balanced.otio", "short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
    expect(ran.result.artifacts.map((a) => a.name).sort()).toEqual(files);
  });

  it("gives each video what its deliverable needs: generated title, measured length, size, run_name or index and tags", async () => {
    const reel = ran.result.artifacts.find((a) => a.kind === "reel")!;
    expect(reel).toMatchObject({ name: "reel-balanced.mp4", run_name: "balanced", content_type: "video/mp4" });
    expect(reel.title?.length).toBeGreaterThan(5);
    expect(reel.size_bytes).toBe((await stat(path.join(ran.out, reel.name))).size);
    expect(reel.duration_seconds).toBeCloseTo((await probeMedia(path.join(ran.out, reel.name))).durationSeconds, 1);
    const short = ran.result.artifacts.find((a) => a.kind === "short")!;
    expect(short).toMatchObject({ name: "short-01.mp4", index: 1 });
    expect(short.title?.length).toBeGreaterThan(5);
    expect(short.tags?.length).toBeGreaterThan(0);
    // Descriptions carry the streamer's name and channel link, in the stream's language (English here).
    const metadata = JSON.parse(await readFile(path.join(ran.out, "metadata.json"), "utf8")) as { language: string; shorts: { description: string }[] };
    expect(metadata.language).toBe("en");
    expect(metadata.shorts[0]!.description).toContain("Synthia");
    expect(metadata.shorts[0]!.description).toMatch(/https:\/\/www\.twitch\.tv\//);
  });

  it("lists each moment once in metadata.json, though its short was cut from the reel's moment", async () => {
    const metadata = JSON.parse(await readFile(path.join(ran.out, "metadata.json"), "utf8")) as { moments: { title: string; start: number; end: number }[] };
    const stretches = metadata.moments.map((m) => `${m.start}-${m.end}`);
    expect(metadata.moments.length).toBeGreaterThan(0);
    expect(new Set(stretches).size).toBe(stretches.length);
    expect(new Set(metadata.moments.map((m) => m.title)).size).toBe(metadata.moments.length);
  });

  it("renders a 1080x1920 short with audio, as long as planned", async () => {
    const info = await probeMedia(path.join(ran.out, "short-01.mp4"));
    expect(info.video).toMatchObject({ width: 1080, height: 1920 });
    expect(info.audio).toBeTruthy();
    const short = ran.result.artifacts.find((a) => a.name === "short-01.mp4")!;
    const moment = ran.result.manifest.artifacts.assets.shorts[0];
    expect(info.durationSeconds).toBeCloseTo(short.duration_seconds!, 1);
    expect(moment.duration_seconds).toBeCloseTo(info.durationSeconds, 1);
  });

  it("renders the reel as teaser + moments", async () => {
    const info = await probeMedia(path.join(ran.out, "reel-balanced.mp4"));
    // Reels keep a 1280x720 canvas whatever the source rendition.
    expect(info.video).toMatchObject({ width: 1280, height: 720 });
    expect(info.audio).toBeTruthy();
    const reelMoments = ran.result.manifest.highlights.filter((h) => h.run_name === "balanced");
    const planned = reelMoments.reduce((s, h) => s + h.duration, 0);
    // Teaser: cold_open_max_clips snippets of cold_open_snippet_duration (3 s default), at most one per moment.
    const teaser = Math.min(2, reelMoments.length) * 3;
    expect(info.durationSeconds).toBeGreaterThan(planned + teaser - 1);
    expect(info.durationSeconds).toBeLessThan(planned + teaser + 1);
  });

  it("writes an .srt sidecar for the short: listed with its size, its cues in order, inside the short", async () => {
    // What the recogniser makes of the synthetic speech varies from run to run (and under load), so this checks
    // what holds for every run: the file is there as the short's captions, and whatever cues it holds are
    // well-formed and on the short's own clock. Recognition itself is measured by `npm run eval:captions`.
    const srt = ran.result.artifacts.find((a) => a.kind === "captions")!;
    expect(srt).toMatchObject({ name: "short-01.srt", index: 1, content_type: "application/x-subrip" });
    expect(srt.size_bytes).toBe((await stat(path.join(ran.out, srt.name))).size);
    const cues = parseSrt(await readFile(path.join(ran.out, srt.name), "utf8"));
    const length = (await probeMedia(path.join(ran.out, "short-01.mp4"))).durationSeconds;
    for (const [i, cue] of cues.entries()) {
      expect(cue.text.trim().length, JSON.stringify(cue)).toBeGreaterThan(0);
      expect(cue.start, JSON.stringify(cue)).toBeGreaterThanOrEqual(0);
      expect(cue.end, JSON.stringify(cue)).toBeGreaterThan(cue.start);
      expect(cue.end, JSON.stringify(cue)).toBeLessThanOrEqual(length + 0.05);
      if (i > 0) expect(cue.start, JSON.stringify(cues)).toBeGreaterThanOrEqual(cues[i - 1]!.end);
    }
  });

  it("downloads the audio rendition and only the video segments that cover the moments", () => {
    const audioTotal = truth.renditions.audio_only.reduce((s, x) => s + x.bytes, 0);
    expect(ran.result.bytesDownloaded.audio).toBe(audioTotal);
    expect(ran.result.bytesDownloaded.video).toBeGreaterThan(0);
    // Tasks whose stretches share a segment each fetch it (their own downloads): what the VOD served, once per
    // segment, is the covering video and not the whole rendition.
    const video = new Set(ran.served.filter((p) => p.includes("/chunked/")).map((p) => p.split("/").pop()!));
    expect(video.size).toBeGreaterThan(0);
    expect(video.size).toBeLessThan(truth.renditions.chunked.length);
    for (const file of video) expect(truth.renditions.chunked.some((x) => x.file === file), file).toBe(true);
  });

  it("runs the analysis before any render task, and each task's progress only forwards through its stages", () => {
    const first = (task: string) => ran.progress.findIndex((p) => p.task === task);
    const analysisEnd = ran.progress.findLastIndex((p) => p.task === "analyse");
    for (const t of ran.result.plan.tasks) expect(first(t.id), t.id).toBeGreaterThan(analysisEnd);
    for (const task of new Set(ran.progress.map((p) => p.task))) {
      const fractions = ran.progress.filter((p) => p.task === task).map((p) => p.fraction);
      expect(fractions, task).toEqual([...fractions].sort((a, b) => a - b));
    }
    const seen = new Set(ran.progress.map((s) => s.stage));
    for (const stage of ["resolving", "downloading_audio", "analysing", "downloading_video", "transcribing", "rendering_reels", "rendering_shorts"] as const) expect(seen.has(stage), stage).toBe(true);
  });

  it("runs each reel's join after its moments, and deletes the reel parts once the reel is joined", () => {
    for (const join of ran.result.tasks.filter((t) => t.kind === "reel_join")) {
      const spec = ran.result.plan.tasks.find((t) => t.id === join.id)!;
      if (spec.kind !== "reel_join") throw new Error(spec.kind);
      for (const dep of spec.depends_on) expect(ran.result.tasks.find((t) => t.id === dep)!.end, dep).toBeLessThanOrEqual(join.start);
    }
    expect(ran.result.tasks.some((t) => t.kind === "reel_join")).toBe(true);
  });
});

describe("a shorts-only job", () => {
  it("renders the shorts without a reel, even where the profile's other moments were never downloaded", async () => {
    // Two planted moments, one short: the profile's second moment is reported but its video never fetched.
    await generateSyntheticVod({ root, vodId: "900000323", durationSeconds: 150, seed: 13, width: 640, height: 360, moments: [{ kind: "hype", peak: 40 }, { kind: "hype", peak: 115 }] });
    const job = await jobFor({
      vod_url: "https://www.twitch.tv/videos/900000323",
      compilation_enabled: false,
      final_video_length_minutes: 0,
      num_shorts: 1,
      parameters: { max_highlight_duration: 20, shorts_crop_mode: "fit" },
    });
    const { result, out, progress } = await run(job);
    expect((await readdir(out)).sort()).toEqual(["analysis.json.gz", "manifest.json", "metadata.json", "short-01.heard.json", "short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
    expect(progress.map((s) => s.stage)).not.toContain("rendering_reels");
    expect(result.manifest.summary).toMatchObject({ total_videos: 1, total_shorts: 1 });
    expect(result.manifest.artifacts.assets.compilation).toEqual([]);
    expect(result.manifest.highlights.length).toBeGreaterThanOrEqual(2);
    const info = await probeMedia(path.join(out, "short-01.mp4"));
    expect(info.video).toMatchObject({ width: 1080, height: 1920 });
  }, 600_000);
});

describe("job runner failures", () => {
  it("fails with no_highlights_found, before any video is downloaded, when nothing beats highlight_min_score", async () => {
    const job = await jobFor({ vod_url: `https://www.twitch.tv/videos/${VOD_ID}`, num_shorts: 1, run_overrides: { balanced: { highlight_min_score: 1 } } });
    twitch.stats.reset();
    const err = await run(job).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe("no_highlights_found");
    expect((err as Error).message).toMatch(/highlight_min_score/);
    expect(twitch.stats.segmentsServed.filter((p) => p.includes("/chunked/"))).toEqual([]);
  });

  it("fails with a clear job error when the VOD disappears before rendering", async () => {
    const job = await jobFor({ vod_url: `https://www.twitch.tv/videos/${VOD_ID}`, num_shorts: 1 });
    job.vod.vod_id = "900000399";
    job.request.vod_id = "900000399";
    const err = await run(job).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { code?: string }).code).toBe("vod_deleted");
    expect((err as Error).message).toMatch(/deleted|expired|exist/i);
  });
});
