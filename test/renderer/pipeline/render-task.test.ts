import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { reelPartName, TaskResult, type JobPlan, type ReelJoinTask, type ReelMomentTask, type ShortTask } from "../../../common/contract/job-plan";
import type { RenderJob } from "../../../common/contract/render";
import { ShortTranscript } from "../../../common/handoff/transcript";
import { finaliseJob } from "../../../common/plan/finalise";
import { taskFiles } from "../../../common/plan/task-files";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { generateSyntheticVod, type SyntheticVodTruth } from "../../../dev/synth-vod";
import { parseSrt } from "../../../render-container/src/captions";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { scoreCaptionWords } from "../../../scripts/caption-eval/score";
import { runRenderTask } from "../../../render-container/src/pipeline/render-task";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { colorDistance, readFrameRgb, regionDifference } from "../../support/media";
import { reelChatRegion } from "../../../render-container/src/chat-overlay/placement";
import { serveVodForTests } from "../../support/twitch-fixture";
import { signals } from "./plan-fixtures";
import { handMadePlan, planMoment, taskContext, taskRequest, tempDir } from "./task-fixtures";

/**
 * Each render task kind on a hand-made job plan, against the synthetic VOD (95 s, one scene cut at 30 s, 10 s
 * segments) on the local Twitch server: real downloads, scene-cut detection, FFmpeg encodes and pocketsphinx.
 */
const twitchServer = serveVodForTests(SMALL_VOD);
const SETTINGS = { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 2, env: {} };
const DURATION = SMALL_VOD.durationSeconds;
let truth: SyntheticVodTruth;
let job: RenderJob;

beforeAll(async () => {
  ({ truth } = await generateSyntheticVod(SMALL_VOD));
  const twitch = twitchServer();
  job = await localRenderJob(
    { vod_url: `https://www.twitch.tv/videos/${SMALL_VOD.vodId}`, num_shorts: 1, parameters: { shorts_crop_mode: "split", reel_title_card_enabled: true, shorts_title_card_enabled: true } },
    { twitch, jobId: "job_tasks" },
  );
});

/** Chunked (video) segments served since the last reset, by index. */
const videoSegmentsServed = () =>
  twitchServer()
    .stats.segmentsServed.filter((p) => p.includes("/chunked/"))
    // "5.ts", or "5-muted.ts" where the VOD's audio is muted.
    .map((p) => Number.parseInt(path.basename(p), 10))
    .sort((a, b) => a - b);

// A moment starting 1.5 s after the scene cut at 30 s; a teaser snippet inside it. Its "why" as the analysis
// writes it: one sentence per end, stating the planned edges' seconds from the peak.
const m1 = planMoment("m1", 31.5, 45, 38, {
  signals: { ...signals(0.8), reasons: ["voice +8 dB", "starts 6.5 s before the peak: the streamer starts talking after a 2.0 s pause, in a pause between sentences", "ends 7.0 s after the peak: the reaction after the peak, in a pause between sentences"] },
});
const momentTask = (snap: ReelMomentTask["snap"]): ReelMomentTask => ({
  kind: "reel_moment", id: "reel-balanced-m1", run_name: "balanced", moment_id: "m1", position: 1, start: 31.5, end: 45, snap,
  title_text: "The big play", teasers: [{ position: 0, start: 36, end: 39 }], expected_encode_seconds: 16.5,
});
const joinTask: ReelJoinTask = {
  kind: "reel_join", id: "reel-balanced", run_name: "balanced", depends_on: ["reel-balanced-m1"], pieces: 2, thumbnail_at: 1,
  title: "A reel of the stream", description: "Best bits.", tags: ["synthetic", "test"], expected_encode_seconds: 0,
};

describe("a reel_moment task", () => {
  let store: string;
  let result: TaskResult;
  let progress: Awaited<ReturnType<typeof taskContext>>["progress"];
  let videoBytes: number;
  let served: number[];
  let touched: Awaited<ReturnType<typeof taskContext>>["touched"];
  const plan = handMadePlan("job_tasks", DURATION, [m1], [momentTask({ min_start: 20, max_end: 60, min_duration: 10, max_duration: 30 }), joinTask]);
  beforeAll(async () => {
    store = await tempDir("task-store-");
    const run = await taskContext(store);
    twitchServer().stats.reset();
    result = TaskResult.parse(await runRenderTask(taskRequest(job, plan, "reel-balanced-m1"), run.ctx, SETTINGS));
    served = videoSegmentsServed();
    progress = run.progress;
    touched = run.touched;
    videoBytes = run.videoBytes.total;
  }, 300_000);

  it("snaps the moment's start back to the scene cut, inside its window, and keeps its end", () => {
    expect(truth.scene_cuts).toEqual([30]);
    if (result.kind !== "reel_moment") throw new Error(result.kind);
    expect(result.moment.id).toBe("m1");
    expect(result.moment.start).toBeCloseTo(30, 1);
    expect(result.moment.end).toBe(45);
  });

  it("lists the snapped edges in the manifest with a why that states them, and how far the cut moved the start", async () => {
    const { manifest } = await finaliseJob(plan, [result], async (_name, body) => ({ size_bytes: body.length }));
    const [h] = manifest.highlights;
    if (result.kind !== "reel_moment") throw new Error(result.kind);
    expect([h!.start, h!.end]).toEqual([Math.round(result.moment.start * 1000) / 1000, 45]);
    const [voice, start, end] = h!.signals!.reasons;
    expect(voice).toBe("voice +8 dB");
    const lead = Number(/^starts (\S+) s before the peak: /.exec(start!)![1]);
    expect(lead).toBeCloseTo(38 - result.moment.start, 1);
    expect(start).toMatch(/: the streamer starts talking after a 2\.0 s pause, in a pause between sentences, then moved 1\.5 s earlier by its render task's snap to the video's scene cuts$/);
    // The end did not move: the analysis's sentence stands.
    expect(end).toBe(m1.signals.reasons[2]);
  });

  it("downloads only the segments covering the window it may snap in (the moment padded by the cut tolerance)", () => {
    // [31.5 - 2.5, 45 + 2.5] inside [20, 60]: segments 2, 3 and 4 (20-50 s) of ten.
    expect(served).toEqual([2, 3, 4]);
    expect(videoBytes).toBe(truth.renditions.chunked.filter((s) => [2, 3, 4].includes(s.index)).reduce((a, s) => a + s.bytes, 0));
  });

  it("uploads the teaser and the moment as reel parts at their positions, measured", async () => {
    if (result.kind !== "reel_moment") throw new Error(result.kind);
    expect(result.parts.map((p) => p.name)).toEqual([reelPartName("balanced", 0), reelPartName("balanced", 1)]);
    expect((await readdir(store)).sort()).toEqual(["part-balanced-000.mp4", "part-balanced-001.mp4"]);
    for (const part of result.parts) {
      const info = await probeMedia(path.join(store, part.name));
      expect(info.video).toMatchObject({ width: 1280, height: 720 });
      expect(info.audio).toBeTruthy();
      expect(part.duration_seconds).toBeCloseTo(info.durationSeconds, 2);
      expect(part.size_bytes).toBe((await stat(path.join(store, part.name))).size);
    }
    expect(result.parts[0]!.duration_seconds).toBeCloseTo(3, 1);
    expect(result.parts[1]!.duration_seconds).toBeCloseTo(45 - result.moment.start, 1);
  });

  it("reports its own progress, 0..1 and never backwards", () => {
    const fractions = progress.map((p) => p.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(fractions.at(-1)).toBe(1);
    expect(new Set(progress.map((p) => p.stage))).toEqual(new Set(["resolving", "downloading_video", "rendering_reels", "uploading"]));
  });

  it("stores exactly the files the Worker lets this task write, and reads none (common/plan/task-files.ts)", () => {
    expect([...touched.stored].sort()).toEqual(taskFiles({ id: "reel-balanced-m1", kind: "reel_moment" }, plan)!.writes.sort());
    expect(touched.read).toEqual([]);
  });

  describe("then the reel_join task", () => {
    let joined: TaskResult;
    let joinTouched: Awaited<ReturnType<typeof taskContext>>["touched"];
    const joinPlan = handMadePlan("job_tasks", DURATION, [m1], [momentTask(null), joinTask]);
    beforeAll(async () => {
      const run = await taskContext(store);
      joined = TaskResult.parse(await runRenderTask(taskRequest(job, joinPlan, "reel-balanced"), run.ctx, SETTINGS));
      joinTouched = run.touched;
    }, 120_000);

    it("reads its parts and stores the reel and its thumbnail: exactly the files the Worker lets it touch (common/plan/task-files.ts)", () => {
      const files = taskFiles({ id: "reel-balanced", kind: "reel_join" }, joinPlan)!;
      expect([...joinTouched.stored].sort()).toEqual(files.writes.sort());
      expect([...joinTouched.read].sort()).toEqual(files.reads.sort());
    });

    it("joins the parts by stream copy into a reel as long as their sum, with a thumbnail", async () => {
      if (joined.kind !== "reel_join" || result.kind !== "reel_moment") throw new Error(joined.kind);
      const reel = await probeMedia(path.join(store, "reel-balanced.mp4"));
      expect(reel.video).toMatchObject({ width: 1280, height: 720 });
      const sum = result.parts.reduce((s, p) => s + p.duration_seconds, 0);
      expect(reel.durationSeconds).toBeCloseTo(sum, 1);
      const thumb = await probeMedia(path.join(store, "reel-balanced.jpg"));
      expect(thumb.video).toMatchObject({ width: 1280, height: 720 });
    });

    it("describes the reel and its thumbnail as deliverables", async () => {
      if (joined.kind !== "reel_join") throw new Error(joined.kind);
      const size = async (n: string) => (await stat(path.join(store, n))).size;
      expect(joined.artifacts).toEqual([
        { name: "reel-balanced.mp4", kind: "reel", content_type: "video/mp4", size_bytes: await size("reel-balanced.mp4"), run_name: "balanced", index: null, title: "A reel of the stream", duration_seconds: expect.closeTo((await probeMedia(path.join(store, "reel-balanced.mp4"))).durationSeconds, 3), tags: ["synthetic", "test"] },
        { name: "reel-balanced.jpg", kind: "thumbnail", content_type: "image/jpeg", size_bytes: await size("reel-balanced.jpg"), run_name: "balanced", index: null, title: "A reel of the stream", duration_seconds: null, tags: null },
      ]);
    });
  });
});

describe("a reel_moment task whose window is tighter than the cut", () => {
  it("leaves an edge where it is when the cut lies outside the window", async () => {
    const store = await tempDir("task-store-");
    const task = { ...momentTask({ min_start: 31, max_end: 46, min_duration: 10, max_duration: 30 }), teasers: [], position: 0 };
    const plan = handMadePlan("job_tasks", DURATION, [m1], [task]);
    const run = await taskContext(store);
    twitchServer().stats.reset();
    const result = await runRenderTask(taskRequest(job, plan, task.id), run.ctx, SETTINGS);
    if (result.kind !== "reel_moment") throw new Error(result.kind);
    expect(result.moment).toEqual({ id: "m1", start: 31.5, end: 45 });
    // Only the window was fetched: [31, 46] lies in segments 3 and 4.
    expect(videoSegmentsServed()).toEqual([3, 4]);
    expect(result.parts).toHaveLength(1);
    expect(result.parts[0]!.duration_seconds).toBeCloseTo(13.5, 1);
  }, 300_000);
});

describe("a reel_moment task with reel_chat_overlay", () => {
  it("draws the plan's chat over the moment (emotes from the CDN) and leaves the title card alone", async () => {
    const chatJob: RenderJob = { ...job, request: { ...job.request, parameters: { ...job.request.parameters, chat_overlay: "panel", reel_chat_overlay: true } } };
    const chat = [
      { at: 32, name: "Zapmo", color: "#1E90FF", fragments: [{ text: "no way ", emote_id: null }, { text: "Kappa", emote_id: "25" }] },
      { at: 33, name: "kinra", color: null, fragments: [{ text: "clip it", emote_id: null }] },
    ];
    const base = { ...momentTask({ min_start: 31, max_end: 46, min_duration: 10, max_duration: 30 }), teasers: [], position: 0 };
    const partOf = async (task: ReelMomentTask, request: RenderJob) => {
      const store = await tempDir("task-store-");
      const run = await taskContext(store);
      const result = await runRenderTask(taskRequest(request, handMadePlan("job_tasks", DURATION, [m1], [task]), task.id), run.ctx, { ...SETTINGS, emoteBaseUrl: twitchServer().emoteUrl });
      if (result.kind !== "reel_moment") throw new Error(result.kind);
      return path.join(store, result.parts[0]!.name);
    };
    const emotes = twitchServer().stats.requests.emote;
    const without = await partOf(base, job);
    const withChat = await partOf({ ...base, chat }, chatJob);
    expect(twitchServer().stats.requests.emote).toBe(emotes + 1);
    const size = { width: 1280, height: 720 };
    const [a, b] = [await readFrameRgb(without, 2, size), await readFrameRgb(withChat, 2, size)];
    const region = reelChatRegion(size);
    expect(regionDifference(a, b, { x: region.x, y: region.top, w: region.w, h: region.bottom - region.top })).toBeGreaterThan(3);
    expect(regionDifference(a, b, { x: 0, y: Math.round(720 * 0.72), w: 700, h: 150 })).toBeLessThan(2);
  }, 300_000);
});

describe("a short task", () => {
  let store: string;
  let result: TaskResult;
  let touched: Awaited<ReturnType<typeof taskContext>>["touched"];
  let plan: JobPlan;
  const task: ShortTask = {
    kind: "short", id: "short-01", index: 1, moment_id: "m1", start: 29, end: 49, peak: 38, snap: true, title_text: "Watch this",
    title: "The synthetic play", description: "A short.", tags: ["short", "synthetic"], expected_encode_seconds: 20,
  };
  beforeAll(async () => {
    store = await tempDir("task-store-");
    // The planted facecam (top-left, 80x60 at 6,6 of 320x180) as the analysis would have found it.
    const facecam = { x: 6 / 320, y: 6 / 180, w: 80 / 320, h: 60 / 180, found: "detected" as const, confidence: 0.9 };
    plan = handMadePlan("job_tasks", DURATION, [planMoment("m1", 29, 49, 38)], [task], { facecam });
    const run = await taskContext(store);
    result = TaskResult.parse(await runRenderTask(taskRequest(job, plan, "short-01"), run.ctx, SETTINGS));
    touched = run.touched;
  }, 300_000);

  it("stores exactly the files the Worker lets this task write, and reads none (common/plan/task-files.ts)", () => {
    expect([...touched.stored].sort()).toEqual(taskFiles(task, plan)!.writes.sort());
    expect(touched.read).toEqual([]);
  });

  it("nudges its start to the scene cut 1 s later and keeps its length", () => {
    if (result.kind !== "short") throw new Error(result.kind);
    expect(result.moment.start).toBeCloseTo(30, 1);
    expect(result.moment.end - result.moment.start).toBeCloseTo(20, 6);
  });

  it("renders a 1080x1920 short with audio, as long as its range, and uploads video, captions and thumbnail", async () => {
    if (result.kind !== "short") throw new Error(result.kind);
    // Beside the deliverables, what the short heard, kept for later re-cuts (reuse/heard-words.ts).
    expect((await readdir(store)).sort()).toEqual(["short-01.heard.json", "short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
    const info = await probeMedia(path.join(store, "short-01.mp4"));
    expect(info.video).toMatchObject({ width: 1080, height: 1920 });
    expect(info.audio).toBeTruthy();
    expect(info.durationSeconds).toBeCloseTo(20, 0);
    const size = async (n: string) => (await stat(path.join(store, n))).size;
    const common = { run_name: "balanced", index: 1, title: "The synthetic play" };
    expect(result.artifacts).toEqual([
      { ...common, name: "short-01.mp4", kind: "short", content_type: "video/mp4", size_bytes: await size("short-01.mp4"), duration_seconds: expect.closeTo(info.durationSeconds, 3), tags: ["short", "synthetic"] },
      { ...common, name: "short-01.srt", kind: "captions", content_type: "application/x-subrip", size_bytes: await size("short-01.srt"), duration_seconds: expect.closeTo(info.durationSeconds, 3), tags: null },
      { ...common, name: "short-01.transcript.json", kind: "transcript", content_type: "application/json", size_bytes: await size("short-01.transcript.json"), duration_seconds: expect.closeTo(info.durationSeconds, 3), tags: null },
      { ...common, name: "short-01.jpg", kind: "thumbnail", content_type: "image/jpeg", size_bytes: await size("short-01.jpg"), duration_seconds: null, tags: null },
    ]);
  });

  it("writes the short's word-level transcript: every heard word inside the short, the shown ones exactly the .srt's words", async () => {
    if (result.kind !== "short") throw new Error(result.kind);
    const transcript = ShortTranscript.parse(JSON.parse(await readFile(path.join(store, "short-01.transcript.json"), "utf8")));
    expect(transcript).toMatchObject({ index: 1, short: "short-01.mp4", vod_start: expect.closeTo(result.moment.start, 3), vod_end: expect.closeTo(result.moment.end, 3), language: "en", recogniser: "pocketsphinx", captions_burned: true, note: null });
    const length = result.moment.end - result.moment.start;
    for (const w of transcript.words) {
      expect(w.start).toBeGreaterThanOrEqual(0);
      expect(w.end).toBeLessThanOrEqual(length + 0.01);
      expect(w.confidence).not.toBeNull();
    }
    // The recogniser hears the synthetic speech (whether it is sure enough to show any of it varies by machine).
    expect(transcript.words.length).toBeGreaterThan(0);
    const srtWords = parseSrt(await readFile(path.join(store, "short-01.srt"), "utf8")).flatMap((c) => c.text.split(/\s+/).filter(Boolean));
    expect(transcript.words.filter((w) => w.shown).map((w) => w.word)).toEqual(srtWords);
  });

  it("puts the plan's facecam region (shares of the frame) in the split short's top panel", async () => {
    // After the title flash; the panel is the top half (shorts_split_ratio 0.5): the violet facecam and its face.
    const frame = await readFrameRgb(path.join(store, "short-01.mp4"), 5, { width: 1080, height: 1920 });
    const violet = [0x7a, 0x3f, 0xbf];
    const skin = [0xf0, 0xc8, 0xa0];
    let cam = 0;
    let n = 0;
    for (let y = 20; y < 940; y += 8) {
      for (let x = 20; x < 1060; x += 8) {
        const i = (y * 1080 + x) * 3;
        const px = [frame.data[i]!, frame.data[i + 1]!, frame.data[i + 2]!];
        if (colorDistance(px, violet) < 60 || colorDistance(px, skin) < 60) cam++;
        n++;
      }
    }
    expect(cam / n).toBeGreaterThan(0.7);
  });

  it("captions its own range: the .srt holds words spoken there, timed inside the short", async () => {
    if (result.kind !== "short") throw new Error(result.kind);
    const { start, end } = result.moment;
    const cues = parseSrt(await readFile(path.join(store, "short-01.srt"), "utf8"));
    // Whether any word is shown depends on what pocketsphinx makes of this machine's espeak-ng speech (on some
    // machines nothing is sure enough, and then nothing is shown: that is the rule). What holds for every run:
    // every cue lies inside the short, and whatever is shown was said there, at its time.
    for (const c of cues) {
      expect(c.start).toBeGreaterThanOrEqual(0);
      expect(c.end).toBeLessThanOrEqual(end - start + 0.01);
    }
    const heard = new Set(cues.flatMap((c) => c.text.toLowerCase().split(/\s+/)));
    const spoken = truth.sentences.filter((s) => s.end > start && s.start < end).flatMap((s) => s.text.toLowerCase().replace(/[^a-z' ]/g, "").split(/\s+/));
    // Only words the recogniser was sure of are shown (a wrong word burned in is worse than none): few, nearly all
    // right. Measured here: 5 words shown, all 5 said, at their time; the caption evaluation's burned-word
    // precision is 0.93 tuning, 0.88 held out. The bar, 0.8, leaves room for one wrong word in five, so a change
    // that lets misheard words through fails it.
    const shown = cues.flatMap((c) => c.text.toLowerCase().split(/\s+/)).filter(Boolean);
    if (shown.length === 0) return;
    const hits = [...new Set(spoken)].filter((w) => w.length > 3 && heard.has(w));
    expect(hits.length, `heard: ${[...heard].join(" ")}`).toBeGreaterThanOrEqual(1);
    expect(shown.filter((w) => spoken.includes(w)).length / shown.length, `heard: ${shown.join(" ")}`).toBeGreaterThanOrEqual(0.8);
    // And at their time: each .srt word placed by its characters' position in its cue (VOD time), scored by the
    // evaluation's independent scorer against the known sentences (a word counts within 1 s of when it was said).
    const timed = cues.flatMap((c) => {
      const total = c.text.length || 1;
      return [...c.text.matchAll(/\S+/g)].map((m) => ({
        word: m[0],
        start: start + c.start + ((c.end - c.start) * m.index) / total,
        end: start + c.start + ((c.end - c.start) * (m.index + m[0].length)) / total,
      }));
    });
    const score = scoreCaptionWords(timed, truth.sentences, { ranges: [{ start, end }] });
    expect(score.precision, `wrong or mistimed: ${score.wrong.map((w) => `${w.word}@${w.start.toFixed(1)}`).join(" ")}`).toBeGreaterThanOrEqual(0.8);
  });
});
describe("a clip_group task (the same moment in two reels and a short around its peak)", () => {
  let store: string;
  let result: TaskResult;
  let served: number[];
  let progress: Awaited<ReturnType<typeof taskContext>>["progress"];
  let touched: Awaited<ReturnType<typeof taskContext>>["touched"];
  const snap = { min_start: 20, max_end: 60, min_duration: 10, max_duration: 30 };
  const balanced: ReelMomentTask = { ...momentTask(snap), teasers: [] };
  const audience: ReelMomentTask = { ...momentTask(snap), id: "reel-audience-m1", run_name: "audience", moment_id: "m2", title_text: "Chat lost it", teasers: [] };
  const short: ShortTask = {
    kind: "short", id: "short-01", index: 1, moment_id: "m3", start: 29, end: 49, peak: 38, snap: true, title_text: null,
    title: "The synthetic play", description: "A short.", tags: ["short"], expected_encode_seconds: 50,
  };
  const group = { kind: "clip_group" as const, id: "clips-01", members: [balanced, audience, short], expected_encode_seconds: 13.5 * 2 + 50 };
  const plan = handMadePlan("job_tasks", DURATION, [m1, planMoment("m2", 31.5, 45, 38, { profile: "audience", signals: m1.signals }), planMoment("m3", 29, 49, 38)], [group]);
  beforeAll(async () => {
    store = await tempDir("task-store-");
    const run = await taskContext(store);
    twitchServer().stats.reset();
    result = TaskResult.parse(await runRenderTask(taskRequest(job, plan, "clips-01"), run.ctx, SETTINGS));
    served = videoSegmentsServed();
    progress = run.progress;
    touched = run.touched;
  }, 300_000);

  it("stores exactly its members' files, the ones the Worker lets this task write (common/plan/task-files.ts)", () => {
    expect([...touched.stored].sort()).toEqual(taskFiles(group, plan)!.writes.sort());
    expect(touched.read).toEqual([]);
  });

  it("downloads the stretch its members share once", () => {
    // Moments [29, 47.5] with room to snap and the short [27.5, 50.5]: segments 2, 3, 4 and 5 (muted), each fetched once.
    expect(served).toEqual([2, 3, 4, 5]);
  });

  it("returns each member's own result, in the members' order, as each would alone", async () => {
    if (result.kind !== "clip_group") throw new Error(result.kind);
    expect(result.results.map((r) => r.kind)).toEqual(["reel_moment", "reel_moment", "short"]);
    const [b, a, s] = result.results;
    if (b?.kind !== "reel_moment" || a?.kind !== "reel_moment" || s?.kind !== "short") throw new Error("kinds");
    // Both reel moments snap to the scene cut at 30 s on the shared video; the short nudges its start there too.
    for (const r of [b, a]) expect(r.moment.start).toBeCloseTo(30, 1);
    expect([b.moment.id, a.moment.id, s.moment.id]).toEqual(["m1", "m2", "m3"]);
    expect(s.moment.start).toBeCloseTo(30, 1);
    expect(b.parts.map((p) => p.name)).toEqual([reelPartName("balanced", 1)]);
    expect(a.parts.map((p) => p.name)).toEqual([reelPartName("audience", 1)]);
    expect((await readdir(store)).sort()).toEqual(["part-audience-001.mp4", "part-balanced-001.mp4", "short-01.heard.json", "short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
    expect((await probeMedia(path.join(store, "short-01.mp4"))).video).toMatchObject({ width: 1080, height: 1920 });
    for (const name of ["part-audience-001.mp4", "part-balanced-001.mp4"]) expect((await probeMedia(path.join(store, name))).durationSeconds).toBeCloseTo(15, 0);
  });

  it("lists every member's moment with a why that states the edges it settled on", async () => {
    const { manifest } = await finaliseJob(plan, [result], async (_name, body) => ({ size_bytes: body.length }));
    // m1 and m2 from their reel moments, m3 (a highlight too) from the short that moved it whole.
    expect(manifest.highlights).toHaveLength(3);
    for (const h of manifest.highlights) {
      const reasons = h.signals!.reasons;
      const lead = Number(/^starts (\S+) s before the peak: /.exec(reasons.find((r) => r.startsWith("starts "))!)![1]);
      const payoff = Number(/^ends (\S+) s after the peak: /.exec(reasons.find((r) => r.startsWith("ends "))!)![1]);
      expect(lead, h.title).toBeCloseTo(38 - h.start, 1);
      expect(payoff, h.title).toBeCloseTo(h.end - 38, 1);
      // The reel moments' starts went back to the cut at 30 s; the short went forward to it, its end along.
      const moved = h.title === "Moment m3" ? /moved 1\.0 s later by its render task's snap to the video's scene cuts$/ : /moved 1\.5 s earlier by its render task's snap to the video's scene cuts$/;
      expect(reasons.find((r) => r.startsWith("starts ")), h.title).toMatch(moved);
    }
  });

  it("reports one bar for the group, 0..1 and never backwards", () => {
    const fractions = progress.map((p) => p.fraction);
    expect(fractions).toEqual([...fractions].sort((x, y) => x - y));
    expect(fractions.at(-1)).toBe(1);
    expect(progress.map((p) => p.stage)).toContain("rendering_shorts");
  });
});
