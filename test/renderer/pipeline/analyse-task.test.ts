import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobPlan, RenderTaskRequest, unitTasks, type ReelMomentTask, type RenderTaskSpec } from "../../../common/contract/job-plan";
import { Manifest, type RenderJob, type RenderStage } from "../../../common/contract/render";
import { finaliseJob } from "../../../common/plan/finalise";
import { generateSyntheticVod, synthCacheRoot, writeLowRenditionVariant, type SyntheticVodTruth } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { storedAnalysisLink } from "../../../dev/job-runner/stored-analysis-link";
import { silentLogger } from "../../../render-container/src/log";
import { LocalDirUploader } from "../../../render-container/src/output/uploader";
import { runAnalysisTask, type AnalysisStats } from "../../../render-container/src/pipeline/analyse-task";
import { FACECAM_SAMPLE } from "../../../render-container/src/pipeline/stages/decide-facecam";
import type { MetadataOutput } from "../../../render-container/src/metadata/types";
import { allTexts, allowedWords, strayWords } from "../metadata/vocabulary";

/**
 * The analysis task on synthetic VODs served by the local Twitch server: real downloads, real audio analysis,
 * pocketsphinx and facecam detection on real segments. The plan it returns is checked against the request, the
 * VOD's truth and the server's record of what was fetched.
 */
const SOURCE_ID = "900000341";
/** The same VOD with a 160p30 rendition beside the source, as Twitch lists it. */
const WITH_160P_ID = "900000342";
let root: string;
let twitch: TwitchServer;
let truth: SyntheticVodTruth;

beforeAll(async () => {
  root = path.join(synthCacheRoot(), "analyse-task-vods");
  const generated = await generateSyntheticVod({
    root,
    vodId: SOURCE_ID,
    durationSeconds: 240,
    seed: 21,
    facecamCorner: "bottom-right",
    moments: [{ kind: "hype", peak: 45 }, { kind: "hype", peak: 120 }, { kind: "hype", peak: 200 }],
    mutedSegments: [22],
  });
  truth = generated.truth;
  // Reused while the source folder is (the variant is written after it, so it is newer).
  const variant = path.join(root, WITH_160P_ID);
  const made = await stat(path.join(variant, "video.json")).catch(() => null);
  if (!made || made.mtimeMs < (await stat(path.join(generated.dir, "truth.json"))).mtimeMs) {
    await writeLowRenditionVariant(generated.dir, variant, { groupId: "160p30", width: 284, height: 160, videoKbps: 230 });
  }
  twitch = await startTwitchServer({ root });
}, 600_000);
const scratch: string[] = [];
afterAll(async () => {
  await twitch?.close();
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

async function analyse(vodId: string, body: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, adjust: (job: RenderJob) => RenderJob = (job) => job) {
  const job = adjust(await localRenderJob({ vod_url: `https://www.twitch.tv/videos/${vodId}`, ...body }, { twitch, jobId: "job_analysis" }));
  const req = RenderTaskRequest.parse({ ...job, task: { id: "analyse", kind: "analyse", attempt: 1 }, plan: null });
  const work = await mkdtemp(path.join(os.tmpdir(), "analyse-work-"));
  const out = await mkdtemp(path.join(os.tmpdir(), "analyse-out-"));
  scratch.push(work, out);
  const stages: { stage: RenderStage; percent: number }[] = [];
  const stats: AnalysisStats = { bytesDownloaded: { audio: 0, video: 0, facecam: 0 }, stageSeconds: {}, facecamSample: null };
  twitch.stats.reset();
  const ctx = { signal: new AbortController().signal, workDir: work, reporter: { progress: (stage: RenderStage, percent: number) => stages.push({ stage, percent }) }, uploader: new LocalDirUploader(out), log: silentLogger, fetchImpl: fetch };
  const plan = await runAnalysisTask(req, ctx, { downloadConcurrency: 4, env }, stats);
  return { plan, stages, stats, served: [...twitch.stats.segmentsServed], out };
}

const segmentBytes = (vodId: string, group: string, served: readonly string[]) =>
  Promise.all(served.filter((s) => s.startsWith(`${vodId}/${group}/`)).map(async (s) => (await stat(path.join(root, s))).size)).then((sizes) => sizes.reduce((a, b) => a + b, 0));

const isMoment = (t: RenderTaskSpec): t is ReelMomentTask => t.kind === "reel_moment";

/** A job accepted while Twitch was unreachable carries the client's claim (vod_length_hours) as its length. */
const claimed = (seconds: number) => (job: RenderJob): RenderJob => ({ ...job, vod: { ...job.vod, duration_seconds: seconds } });

describe("the VOD length the analysis reports (the job is billed on it)", () => {
  it("fails the job when the playlist lists no media, rather than falling back to Twitch's metadata or the claim", async () => {
    // The same VOD as Twitch may list an archive: metadata length 0 and playlists without segments.
    const emptyId = "900000343";
    const dir = path.join(root, emptyId);
    scratch.push(dir);
    const video = JSON.parse(await readFile(path.join(root, SOURCE_ID, "video.json"), "utf8")) as { lengthSeconds: number; renditions: { group_id: string }[] };
    for (const r of video.renditions) {
      await mkdir(path.join(dir, r.group_id), { recursive: true });
      await writeFile(path.join(dir, r.group_id, "index-dvr.m3u8"), "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-ENDLIST\n");
    }
    await writeFile(path.join(dir, "video.json"), JSON.stringify({ ...video, id: emptyId, lengthSeconds: 0 }));
    const onEmptyVod = (job: RenderJob): RenderJob => claimed(1800)({ ...job, vod: { ...job.vod, vod_id: emptyId } });
    await expect(analyse(SOURCE_ID, { num_shorts: 1 }, {}, onEmptyVod)).rejects.toMatchObject({ name: "SourceError", code: "vod_segment_unavailable", message: expect.stringMatching(/lists no media/) });
  }, 600_000);
});

const FULL_JOB = {
  run_profiles: ["balanced", "audience"],
  final_video_length_minutes: 2,
  num_shorts: 2,
  streamer_name: "Synthia",
  manual_highlights: [{ start_seconds: 140, end_seconds: 162, label: "the manual one", run_profiles: ["balanced"] }],
  parameters: {
    min_highlight_duration: 20,
    max_highlight_duration: 30,
    cold_open_enabled: true,
    cold_open_max_clips: 2,
    reel_title_card_enabled: true,
    shorts_title_card_enabled: true,
    shorts_crop_mode: "split",
  },
};
/** The full job's analysis (the describe below), which the facecam cases re-cut. */
let fullJob: Awaited<ReturnType<typeof analyse>>;

describe("the analysis task of a full job (two profiles, teasers, title cards, split shorts, a manual highlight)", () => {
  let ran: Awaited<ReturnType<typeof analyse>>;
  beforeAll(async () => {
    // Claimed far below the real 240 s: the plan must still say 240 s (the length the job is billed on).
    fullJob = ran = await analyse(WITH_160P_ID, FULL_JOB, {}, claimed(36));
  }, 600_000);

  it("returns a plan the Worker can read back from JSON", () => {
    expect(JobPlan.parse(JSON.parse(JSON.stringify(ran.plan)))).toEqual(ran.plan);
    expect(ran.plan).toMatchObject({ version: 1, job_id: "job_analysis", source: { video_rendition: "chunked", format_switches: [] }, languages: { stream: "en", metadata: "en" }, captions: { burn: true, language: "en" } });
    // The sum of the playlist's segment durations, not the 36 s the job was accepted with.
    expect(ran.plan.source.duration_seconds).toBeCloseTo(truth.duration_seconds, 0);
    expect(ran.plan.source.duration_seconds).toBeCloseTo(240, 0);
  });

  it("plans per reel one task per moment and a join that depends on them, and one task per short", () => {
    const { reels } = ran.plan;
    const tasks = unitTasks(ran.plan.tasks);
    expect(reels.map((r) => r.run_name)).toEqual(["balanced", "audience"]);
    for (const reel of reels) {
      // In the reel's order: the task list holds clip groups (moments of two reels on one stretch) where they fall.
      const parts = tasks.filter(isMoment).filter((t) => t.run_name === reel.run_name).sort((a, b) => a.position - b.position);
      expect(parts.map((t) => t.id)).toEqual(reel.moment_ids.map((_, i) => `reel-${reel.run_name}-m${String(i + 1).padStart(2, "0")}`));
      expect(parts.map((t) => t.moment_id)).toEqual(reel.moment_ids);
      const join = tasks.find((t) => t.id === `reel-${reel.run_name}-join`);
      // A moment that shares its stretch of video with other clips is made by their group: the join waits for that.
      const holder = (id: string) => ran.plan.tasks.find((t) => t.id === id || (t.kind === "clip_group" && t.members.some((m) => m.id === id)))!.id;
      expect(join).toMatchObject({ kind: "reel_join", depends_on: [...new Set(parts.map((t) => holder(t.id)))], title: reel.title, tags: reel.tags });
      expect(reel.title.length).toBeGreaterThan(5);
    }
    const shorts = tasks.filter((t) => t.kind === "short");
    expect(shorts.map((t) => t.id).sort()).toEqual(["short-01", "short-02"]);
    expect(ran.plan.shorts.map((s) => s.index)).toEqual([1, 2]);
    // shorts_title_card_enabled: the short's own title is flashed.
    for (const s of shorts) if (s.kind === "short") expect(s.title_text).toBe(ran.plan.shorts.find((x) => x.index === s.index)!.title);
  });

  it("numbers each reel's pieces as the reel plays them: teasers (inside the moments they come from) first, then the moments in time order", () => {
    for (const reel of ran.plan.reels) {
      const parts = unitTasks(ran.plan.tasks).filter(isMoment).filter((t) => t.run_name === reel.run_name).sort((a, b) => a.position - b.position);
      const join = unitTasks(ran.plan.tasks).find((t) => t.id === `reel-${reel.run_name}-join`)!;
      const teasers = parts.flatMap((t) => t.teasers.map((s) => ({ ...s, moment: t })));
      expect(teasers).toHaveLength(Math.min(2, parts.length));
      expect(teasers.map((s) => s.position).sort()).toEqual(teasers.map((_, i) => i));
      for (const s of teasers) {
        expect(s.start).toBeGreaterThanOrEqual(s.moment.start);
        expect(s.end).toBeLessThanOrEqual(s.moment.end);
        expect(s.end - s.start).toBeCloseTo(3, 6);
      }
      expect(parts.map((t) => t.position)).toEqual(parts.map((_, i) => teasers.length + i));
      expect(parts.map((t) => t.start)).toEqual([...parts.map((t) => t.start)].sort((a, b) => a - b));
      if (join.kind === "reel_join") expect(join.pieces).toBe(teasers.length + parts.length);
      // Best-scoring moment's snippet first.
      const best = [...parts].sort((a, b) => ran.plan.moments.find((m) => m.id === b.moment_id)!.score - ran.plan.moments.find((m) => m.id === a.moment_id)!.score)[0]!;
      expect(best.teasers.map((t) => t.position)).toContain(0);
      // Title cards: each piece's lower third is its moment's title.
      for (const t of parts) expect(t.title_text).toBe(ran.plan.moments.find((m) => m.id === t.moment_id)!.title);
    }
  });

  it("gives every automatic moment a snap window that never reaches into a neighbour's, and the manual highlight none", () => {
    const duration = ran.plan.source.duration_seconds;
    for (const reel of ran.plan.reels) {
      const parts = unitTasks(ran.plan.tasks).filter(isMoment).filter((t) => t.run_name === reel.run_name).sort((a, b) => a.position - b.position);
      const spans = parts.map((t) => (t.snap ? { start: t.snap.min_start, end: t.snap.max_end } : { start: t.start, end: t.end }));
      parts.forEach((t, i) => {
        expect(spans[i]!.start).toBeLessThanOrEqual(t.start);
        expect(spans[i]!.end).toBeGreaterThanOrEqual(t.end);
        expect(spans[i]!.start).toBeGreaterThanOrEqual(0);
        expect(spans[i]!.end).toBeLessThanOrEqual(duration + 1e-6);
        if (i > 0) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end - 1e-9);
        if (t.snap) expect(t.snap).toMatchObject({ min_duration: 20, max_duration: 30 });
      });
    }
    const manual = ran.plan.moments.filter((m) => m.source === "manual");
    expect(manual.map((m) => [m.start, m.end, m.label])).toEqual([[140, 162, "the manual one"]]);
    const manualTask = unitTasks(ran.plan.tasks).filter(isMoment).find((t) => t.moment_id === manual[0]!.id);
    expect(manualTask).toMatchObject({ run_name: "balanced", start: 140, end: 162, snap: null });
    const manualShort = unitTasks(ran.plan.tasks).find((t) => t.kind === "short" && t.moment_id === manual[0]!.id);
    expect(manualShort).toMatchObject({ snap: false });
    expect(unitTasks(ran.plan.tasks).filter((t) => t.kind === "short" && t.moment_id !== manual[0]!.id).every((t) => t.kind === "short" && t.snap)).toBe(true);
  });

  it("weighs each task by the seconds it encodes (shorts 2.5x)", () => {
    for (const t of unitTasks(ran.plan.tasks)) {
      if (t.kind === "short") expect(t.expected_encode_seconds).toBeCloseTo(2.5 * (t.end - t.start), 6);
      if (t.kind === "reel_moment") expect(t.expected_encode_seconds).toBeCloseTo(t.end - t.start + t.teasers.reduce((s, x) => s + x.end - x.start, 0), 6);
    }
  });

  it("lists every moment once with its title and story, the profiles' moments as highlights", () => {
    const { moments } = ran.plan;
    expect(moments.map((m) => m.id)).toEqual(moments.map((_, i) => `m${i + 1}`));
    for (const m of moments) {
      expect(m.title.length, m.id).toBeGreaterThan(3);
      expect(m.story.length, m.id).toBeGreaterThan(10);
    }
    const inReels = new Set(ran.plan.reels.flatMap((r) => r.moment_ids));
    expect(moments.filter((m) => m.highlight).map((m) => m.id).sort()).toEqual([...inReels].sort());
    // The planted moments are found (two 60 s reels of 20-30 s moments, one of them holding the manual range, need not take all three).
    const found = truth.moments.filter((p) => p.kind === "hype" && moments.some((m) => m.start <= p.peak && m.end >= p.peak));
    expect(found.length, JSON.stringify(moments.map((m) => [m.start, m.end]))).toBeGreaterThanOrEqual(2);
    // metadata.json lists each stretch of the VOD once (a short cut from a reel moment is that moment), with plan ids.
    const meta = ran.plan.metadata as { language: string; moments: { id: string; title: string }[]; shorts: { index: number; description: string }[] };
    expect(meta.language).toBe("en");
    const stretch = new Map(moments.map((m) => [m.id, `${m.start}-${m.end}`]));
    const listed = meta.moments.map((m) => stretch.get(m.id));
    expect(listed.every((s) => s !== undefined)).toBe(true);
    expect(new Set(listed).size).toBe(listed.length);
    expect(new Set(listed)).toEqual(new Set(stretch.values()));
    expect(meta.shorts[0]!.description).toContain("Synthia");
  });

  it("titles every moment and short uniquely, from template words, chat, the names and the speech it trusted only", () => {
    const input = ran.stats.metadataInput!;
    expect(input.moments.map((m) => m.id).sort()).toEqual(ran.plan.moments.map((m) => m.id).sort());
    // The job's speech went through the trust rules: some was kept (so the check below has speech to hold titles to).
    expect(input.moments.some((m) => (m.spoken_phrases ?? []).length > 0), JSON.stringify(input.moments.map((m) => m.transcript))).toBe(true);
    // The recogniser here is the offline one: the writers quote its speech only where chat echoes it.
    expect(input.moments.every((m) => m.speech_offline === true)).toBe(true);
    const meta = ran.plan.metadata as MetadataOutput;
    // A stretch of VOD two profiles both picked is one moment listed under each profile: it keeps one title and
    // story (its title card reads the same in both reels). Different stretches never share either.
    const rangeOf = (m: { start: number; end: number }) => `${m.start.toFixed(1)}-${m.end.toFixed(1)}`;
    const byRange = new Map<string, { title: string; story: string }[]>();
    for (const m of ran.plan.moments) byRange.set(rangeOf(m), [...(byRange.get(rangeOf(m)) ?? []), m]);
    const listed = ran.plan.moments.map((m) => `${m.id} ${rangeOf(m)}: ${m.title} | ${m.story}`).join("\n");
    for (const same of byRange.values()) for (const m of same) expect(m, listed).toMatchObject({ title: same[0]!.title, story: same[0]!.story });
    const ranges = [...byRange.values()].map((same) => same[0]!);
    for (const [what, texts] of [
      ["moment titles", ranges.map((m) => m.title)],
      ["stories", ranges.map((m) => m.story)],
      ["short titles", ran.plan.shorts.map((s) => s.title)],
      ["reel titles", ran.plan.reels.map((r) => r.title)],
    ] as const) expect(new Set(texts).size, `${what}:\n${listed}`).toBe(texts.length);
    expect(ranges.length, listed).toBeGreaterThanOrEqual(3);
    // A word from none of these was misheard or made up: the recogniser's doubtful words never reach a title.
    const allowed = allowedWords(input, "en");
    for (const text of allTexts(meta)) expect(strayWords(text, allowed, "Synthia"), text).toEqual([]);
  });

  it("finds the bottom-right facecam on a few 160p segments, and fetches no source video at all", async () => {
    const { plan, stats, served } = ran;
    const facecam = truth.facecam;
    expect(plan.facecam).toMatchObject({ found: "detected" });
    expect(plan.facecam!.x).toBeCloseTo(facecam.x / truth.video.width, 1);
    expect(plan.facecam!.y).toBeCloseTo(facecam.y / truth.video.height, 1);
    expect(plan.facecam!.confidence).toBeGreaterThanOrEqual(0.6);
    expect((plan.metadata as { render?: unknown }).render).toEqual({ facecam: plan.facecam });
    expect(served.filter((s) => s.includes("/chunked/"))).toEqual([]);
    const sampled = served.filter((s) => s.includes("/160p30/"));
    expect(sampled.length).toBeGreaterThanOrEqual(3);
    expect(sampled.length).toBeLessThanOrEqual(FACECAM_SAMPLE.segments);
    expect(stats.facecamSample).toMatchObject({ rendition: "160p30", segments: sampled.length });
    const sampleBytes = await segmentBytes(WITH_160P_ID, "160p30", served);
    expect(stats.bytesDownloaded.facecam).toBe(sampleBytes);
    // Small against the source: each sampled segment weighs less than the same segment of the source (the synthetic
    // source is far more compressible than a real one: ~0.7 Mb/s at 720p, where Twitch sends ~6), and the whole
    // sample a fraction of the source segments the job's render tasks download.
    const sameInSource = truth.renditions.chunked.filter((x) => sampled.some((s) => s.endsWith(`/${x.file}`))).reduce((s, x) => s + x.bytes, 0);
    const ranges = unitTasks(plan.tasks).flatMap((t) => (t.kind === "reel_moment" || t.kind === "short" ? [{ start: t.start, end: t.end }] : []));
    const covering = truth.renditions.chunked.filter((x) => ranges.some((r) => x.start < r.end + 0.5 && x.start + x.duration > r.start - 0.5)).reduce((s, x) => s + x.bytes, 0);
    console.log(`facecam sample: ${sampled.length} segments of 160p30, ${sampleBytes} bytes; the same segments of the source ${sameInSource}; the source segments the tasks need ${covering}; analysis stages ${JSON.stringify(stats.stageSeconds)}; audio ${stats.bytesDownloaded.audio} bytes`);
    expect(sampleBytes).toBeLessThan(0.8 * sameInSource);
    // (Half at most: since issue 13 clips start where their setup does, not a fixed 20 s before the event, so
    // the three moments' clips here are shorter and cover fewer source segments.)
    expect(sampleBytes).toBeLessThan(0.5 * covering);
  });

  it("passes on the warnings of the source and the selection, and reports the analysis stages in order", () => {
    expect(ran.plan.warnings.some((w) => /muted/.test(w))).toBe(true);
    const percents = ran.stages.map((s) => s.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    const seen = new Set(ran.stages.map((s) => s.stage));
    for (const stage of ["resolving", "downloading_audio", "analysing", "selecting", "transcribing", "writing_metadata"] as const) expect(seen.has(stage), stage).toBe(true);
    for (const stage of ["rendering_reels", "rendering_shorts", "uploading", "finalising"] as const) expect(seen.has(stage), stage).toBe(false);
  });

  it("is what the finalising step writes metadata.json and the manifest from", async () => {
    const written = new Map<string, string>();
    const { manifest } = await finaliseJob(ran.plan, [], async (name, body) => {
      written.set(name, body);
      return { size_bytes: Buffer.byteLength(body) };
    });
    expect(Manifest.parse(JSON.parse(written.get("manifest.json")!))).toEqual(manifest);
    // metadata.json is the plan's, each moment with its edges (no render task moved any here).
    const planned = new Map(ran.plan.moments.map((m) => [m.id, m]));
    const meta = ran.plan.metadata as { moments: { id: string }[] };
    expect(JSON.parse(written.get("metadata.json")!)).toEqual({
      ...ran.plan.metadata,
      moments: meta.moments.map((m) => ({ ...m, start: Math.round(planned.get(m.id)!.start * 1000) / 1000, end: Math.round(planned.get(m.id)!.end * 1000) / 1000 })),
    });
    expect(manifest.highlights.map((h) => [h.run_name, h.start, h.title]).sort()).toEqual(
      ran.plan.moments.filter((m) => m.highlight).map((m) => [m.profile, Math.round(m.start * 1000) / 1000, m.title]).sort(),
    );
    expect(manifest.warnings).toEqual(ran.plan.warnings);
  });

  it("gives every automatic moment the pauses between sentences around it, which render tasks snap within", () => {
    const auto = ran.plan.moments.filter((m) => m.source === "auto");
    expect(auto.length).toBeGreaterThan(0);
    for (const m of auto) {
      expect(m.pauses?.length, m.id).toBeGreaterThan(0);
      for (const p of m.pauses!) {
        expect(p.end).toBeGreaterThan(p.start);
        expect(p.end >= m.start - 5 && p.start <= m.end + 5).toBe(true);
      }
    }
  });

  it("uploads only what it found, for re-cuts (the plan is its result)", async () => {
    expect(await readdir(ran.out)).toEqual(["analysis.json.gz"]);
  });
});

describe("the facecam of split shorts", () => {
  /**
   * FACECAM_REGION and the crop mode are read before any facecam is looked for, in a fresh analysis and in a
   * re-cut alike (the same decideFacecam call): these two cases are re-cuts of the full job above, so they cost a
   * plan, not another analysis of the VOD (the same request but for the crop mode: the same moments, whose words
   * the stored analysis holds). The stored analysis holds the facecam that job detected, which makes them
   * stricter: FACECAM_REGION must win over it, and a fit job must not carry it.
   */
  const recutOfFullJob = async (cropMode: "split" | "fit", env: NodeJS.ProcessEnv = {}, parameters: Record<string, unknown> = {}) => {
    const body = { ...FULL_JOB, parameters: { ...FULL_JOB.parameters, shorts_crop_mode: cropMode, ...parameters } };
    const link = await storedAnalysisLink(fullJob.out, { jobId: "job_analysis", plan: fullJob.plan });
    try {
      const ran = await analyse(WITH_160P_ID, body, env, (job) => ({ ...job, reuse: link.reuse }));
      expect(link.requests()).toBe(1);
      expect(ran.plan.analysis?.reused_from).toBe("job_analysis");
      return ran;
    } finally {
      await link.close();
    }
  };

  it("is FACECAM_REGION when it is set, and then no video is fetched", async () => {
    expect(fullJob.plan.facecam).toMatchObject({ found: "detected" });
    const { plan, served, stats } = await recutOfFullJob("split", { FACECAM_REGION: "0.7,0.6,0.3,0.4" });
    expect(plan.facecam).toEqual({ x: 0.7, y: 0.6, w: 0.3, h: 0.4, found: "configured", confidence: 1 });
    expect((plan.metadata as { render?: unknown }).render).toEqual({ facecam: { x: 0.7, y: 0.6, w: 0.3, h: 0.4, found: "configured", confidence: null } });
    expect(served.filter((s) => !s.includes("/audio_only/"))).toEqual([]);
    expect(stats.bytesDownloaded.facecam).toBe(0);
  }, 600_000);

  it("is the default region, and the job goes on, when the sample cannot be fetched", async () => {
    // A fresh analysis (a re-cut would keep the stored facecam), Twitch's CDN refusing every 160p segment (403 is
    // not retried).
    const files = truth.renditions.chunked.map((x) => `${WITH_160P_ID}/160p30/${x.file}`);
    for (const f of files) twitch.failSegment(f, 100, "status", 403);
    try {
      // One short and no reel: the fewest words to transcribe for a plan with a split short.
      const { plan, stats } = await analyse(WITH_160P_ID, { num_shorts: 1, compilation_enabled: false, final_video_length_minutes: 0, parameters: { shorts_crop_mode: "split" } });
      expect(plan.facecam).toEqual({ x: 0, y: 0, w: 0.25, h: 0.25, found: "default", confidence: 0 });
      expect(stats.facecamSample).toMatchObject({ rendition: "160p30" });
      expect(unitTasks(plan.tasks).map((t) => t.kind)).toContain("short");
    } finally {
      for (const f of files) twitch.failSegment(f, 0);
    }
  }, 600_000);

  it("is not looked for when no short is split", async () => {
    const { plan, served } = await recutOfFullJob("fit");
    expect(plan.facecam).toBeNull();
    expect((plan.metadata as { render?: unknown }).render).toBeUndefined();
    expect(served.filter((s) => !s.includes("/audio_only/"))).toEqual([]);
  }, 600_000);

  it("is the one found on the VOD when no short is split but the reels draw chat (it keeps off the facecam)", async () => {
    const { plan, served } = await recutOfFullJob("fit", {}, { reel_chat_overlay: true });
    expect(plan.facecam).toEqual(fullJob.plan.facecam);
    expect(plan.facecam).toMatchObject({ found: "detected" });
    expect(served.filter((s) => !s.includes("/audio_only/"))).toEqual([]);
  }, 600_000);
});

describe("a shorts-only job (compilation disabled) on a VOD with one video rendition", () => {
  it("plans the shorts and no reel, lists the profile's moments, and samples the facecam from the only rendition", async () => {
    const { plan, served, stats } = await analyse(SOURCE_ID, { compilation_enabled: false, final_video_length_minutes: 0, num_shorts: 2, parameters: { shorts_crop_mode: "split", max_highlight_duration: 25 } });
    expect(unitTasks(plan.tasks).map((t) => t.kind)).toEqual(["short", "short"]);
    expect(plan.reels).toEqual([]);
    expect(plan.moments.filter((m) => m.highlight).length).toBeGreaterThanOrEqual(2);
    expect(stats.facecamSample?.rendition).toBe("chunked");
    const sampled = served.filter((s) => s.includes("/chunked/"));
    expect(sampled.length).toBeGreaterThan(0);
    expect(sampled.length).toBeLessThanOrEqual(FACECAM_SAMPLE.segments);
    expect(plan.facecam?.found).toMatch(/detected|default/);
  }, 600_000);
});

describe("an analysis that finds nothing", () => {
  it("fails with no_highlights_found before any video is fetched", async () => {
    const err = await analyse(WITH_160P_ID, { num_shorts: 1, parameters: { shorts_crop_mode: "split" }, run_overrides: { balanced: { highlight_min_score: 1 } } }).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe("no_highlights_found");
    expect((err as Error).message).toMatch(/highlight_min_score/);
    expect(twitch.stats.segmentsServed.filter((s) => !s.includes("/audio_only/"))).toEqual([]);
  }, 600_000);
});
