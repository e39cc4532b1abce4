import { readFile, mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANALYSIS_VERSION, STORED_ANALYSIS_NAME } from "../../../common/contract/analysis-reuse";
import type { RenderJob } from "../../../common/contract/render";
import { runJobInProcess } from "../../../dev/job-runner/in-process";
import { storedAnalysisLink } from "../../../dev/job-runner/stored-analysis-link";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { generateSyntheticVod, synthCacheRoot } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { silentLogger } from "../../../render-container/src/log";
import { decodeStoredAnalysis } from "../../../render-container/src/pipeline/reuse/stored-analysis";
import { createTranscriber, trustedWords } from "../../../render-container/src/captions";
import { LocalDirUploader } from "../../../render-container/src/output/uploader";
import { clipFor } from "../../../render-container/src/pipeline/tasks/clips";
import { shortWords, wordsInRange } from "../../../render-container/src/pipeline/tasks/short-speech";
import { downloadTaskVideo, type RenderTaskRun } from "../../../render-container/src/pipeline/tasks/task-source";
import { taskRequest } from "../../../dev/job-runner/run-job";
import { HeardWords, heardWordsName } from "../../../common/contract/heard-words";
import { CONTEXT_S, planRecutJoin } from "../../../render-container/src/pipeline/reuse/recut-join";
import { halvesAtPause } from "../../../render-container/src/pipeline/reuse/hear-in-halves";
import { readFileSync } from "node:fs";
import { removeScratchUnlessFailed } from "../../support/scratch-dirs";

/** The stored analysis a job left in its folder. */
function decodedAnalysis(out: string) {
  const decoded = decodeStoredAnalysis(readFileSync(path.join(out, STORED_ANALYSIS_NAME)), { vodId: VOD_ID });
  if (!decoded.ok) throw new Error(decoded.why);
  return decoded.analysis;
}

/**
 * Re-cuts (issue 21): a job's analysis task stores what it found about the whole VOD; a later job's analysis task
 * given that object (`reuse`) builds its own plan from it — other profiles, a manual highlight the first job did
 * not have, another layout — without downloading the audio rendition, fetching only the audio of what it must
 * transcribe anew. Real downloads from the local Twitch-compatible server, real FFmpeg and pocketsphinx.
 */
const VOD_ID = "900000777";
let root: string;
let twitch: TwitchServer;

beforeAll(async () => {
  // Generated once and kept in the synthetic VOD cache (same options, same folder), as the other tests' VODs are.
  root = path.join(synthCacheRoot(), "reuse-vods");
  await generateSyntheticVod({ root, vodId: VOD_ID, durationSeconds: 150, seed: 21, width: 640, height: 360, moments: [{ kind: "hype", peak: 70 }, { kind: "hype", peak: 120 }] });
  twitch = await startTwitchServer({ root });
}, 300_000);
/** Every job's output and work folder. */
const scratch: string[] = [];
afterAll(async ({}, suite) => {
  await twitch?.close();
  await removeScratchUnlessFailed(suite, scratch);
});

const jobFor = (jobId: string, body: Record<string, unknown>): Promise<RenderJob> => localRenderJob({ vod_url: `https://www.twitch.tv/videos/${VOD_ID}`, ...body }, { twitch, jobId });

async function run(job: RenderJob, env: NodeJS.ProcessEnv = {}) {
  const out = await mkdtemp(path.join(os.tmpdir(), "reuse-out-"));
  const work = await mkdtemp(path.join(os.tmpdir(), "reuse-work-"));
  scratch.push(out, work);
  twitch.stats.reset();
  const result = await runJobInProcess(job, { settings: { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 2, env }, outDir: out, workDir: work, log: silentLogger });
  const audioSegments = twitch.stats.segmentsServed.filter((p) => p.includes("/audio_only/")).length;
  return { result, out, audioSegments };
}

describe("a re-cut from a stored analysis", () => {
  let first: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    first = await run(await jobFor("job_first", { num_shorts: 1, compilation_enabled: false, parameters: { max_highlight_duration: 25, shorts_crop_mode: "crop" } }));
  }, 900_000);

  it("the full analysis stores the VOD's signals, chat, transcripts and facecam beside the job's files", async () => {
    const stored = first.result.plan.analysis?.stored;
    expect(first.result.plan.analysis?.reused_from).toBeNull();
    // A full analysis hands nothing over: its render tasks start instances of their own.
    expect(first.result.tasks.some((t) => t.handed_off)).toBe(false);
    expect(stored).toMatchObject({ name: STORED_ANALYSIS_NAME, version: ANALYSIS_VERSION });
    const bytes = await readFile(path.join(first.out, STORED_ANALYSIS_NAME));
    expect(bytes.byteLength).toBe(stored!.size_bytes);
    const decoded = decodeStoredAnalysis(bytes, { vodId: VOD_ID });
    if (!decoded.ok) throw new Error(decoded.why);
    const a = decoded.analysis;
    expect(a.duration_seconds).toBeCloseTo(first.result.plan.source.duration_seconds, 3);
    expect(Math.abs(a.audio.loudnessLufs.length - a.duration_seconds)).toBeLessThanOrEqual(1);
    expect("pcm" in a.audio).toBe(false);
    expect(a.comments.length).toBeGreaterThan(10);
    expect(a.transcripts.covered.length).toBeGreaterThan(0);
    expect(a.transcripts.transcriber).toBe("pocketsphinx");
    // It is not a deliverable: the manifest does not list it.
    expect(JSON.stringify(first.result.manifest)).not.toContain(STORED_ANALYSIS_NAME);
    // Another VOD's object is refused.
    expect(decodeStoredAnalysis(bytes, { vodId: "1" })).toMatchObject({ ok: false });
  });

  it("a second job with other bounds and another layout builds its plan from it, downloading only what it must transcribe", async () => {
    const link = await storedAnalysisLink(first.out, { jobId: "job_first", plan: first.result.plan });
    try {
      const job = await jobFor("job_recut", { num_shorts: 1, compilation_enabled: false, manual_highlights: [{ start_seconds: 20, end_seconds: 40, label: "the setup" }], parameters: { shorts_crop_mode: "fit", caption_style: "word_highlight" } });
      const recut = await run({ ...job, reuse: link.reuse });
      expect(link.requests()).toBe(1);
      expect(recut.result.plan.analysis).toEqual({ reused_from: "job_first", stored: null });
      // Its one short ran where its analysis ran, as the Worker hands it to the analysis' instance (common/plan/task-handoff.ts).
      expect(recut.result.tasks.map((t) => [t.id, t.handed_off])).toEqual([["short-01", true]]);
      const stages = recut.result.analysis.figures.analysis!.stageSeconds;
      expect(stages.load_analysis).toBeGreaterThan(0);
      expect(stages.acquire_analyse).toBeUndefined();
      // The manual highlight was not transcribed by the first job: it is heard from the short's own video (its
      // segments only, reuse/recut-captions.ts), so no audio of the rendition is downloaded at all.
      expect(recut.audioSegments).toBe(0);
      expect(stages.video_for_short).toBeGreaterThan(0);
      expect(recut.result.bytesDownloaded.audio).toBeLessThan(first.result.bytesDownloaded.audio / 3);
      const short = recut.result.plan.moments.find((m) => m.source === "manual");
      expect(short).toMatchObject({ start: 20, end: 40 });
      const file = recut.result.artifacts.find((a) => a.kind === "short");
      expect(file).toBeDefined();
      const info = await probeMedia(path.join(recut.out, file!.name));
      expect(info.video).toMatchObject({ width: 1080, height: 1920 });
      expect(info.durationSeconds).toBeGreaterThan(19);
      expect(info.durationSeconds).toBeLessThan(21.5);
      expect((await stat(path.join(recut.out, STORED_ANALYSIS_NAME)).catch(() => null))).toBeNull();

      // Its one short was heard whole by the analysis, once: the plan carries those words and the short's captions
      // come from them (the short task ran no recogniser: its transcript's words are the plan's, on its clock).
      expect(stages.transcribe_short).toBeGreaterThan(0);
      const spec = recut.result.plan.tasks[0]!;
      if (spec.kind !== "short" || !spec.speech) throw new Error(`expected a short carrying its words, got ${JSON.stringify(spec).slice(0, 200)}`);
      expect(spec.speech).toMatchObject({ recogniser: "pocketsphinx", start: 20, end: 40 });
      expect(spec.speech.words.length).toBeGreaterThan(5);
      const transcript = JSON.parse(await readFile(path.join(recut.out, "short-01.transcript.json"), "utf8")) as { words: { word: string; start: number; shown: boolean }[] };
      expect(transcript.words.map((w) => w.word)).toEqual(spec.speech.words.map((w) => w.word));
      transcript.words.forEach((w, i) => expect(w.start).toBeCloseTo(spec.speech!.words[i]!.start - 20, 2));
      // What it shows is what the captions' rules keep of those words (the same rules as for its own transcription).
      const kept = trustedWords(wordsInRange(spec.speech.words, { start: 20, end: 40 }), { maskProfanity: true, corroboration: short!.chat_profanity, language: "en" }).words;
      expect(transcript.words.filter((w) => w.shown).map((w) => w.word)).toEqual(kept.map((w) => w.word));

      // Heard from the short's own video, cut as the short task cuts it: the very words a short transcribing its own
      // range hears (the short task's own path, without the plan's words), so the very captions.
      const work = await mkdtemp(path.join(os.tmpdir(), "reuse-own-"));
      const own: RenderTaskRun = {
        req: taskRequest({ ...job, reuse: link.reuse }, recut.result.plan, spec),
        plan: recut.result.plan,
        ctx: { signal: new AbortController().signal, workDir: work, progress: () => {}, uploader: new LocalDirUploader(work), log: silentLogger, fetchImpl: fetch },
        config: { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 1, env: {} },
      };
      const clips = await downloadTaskVideo(own, [{ start: 20, end: 40 }], () => {});
      const heard = await shortWords(own, createTranscriber({}), { clip: clipFor(clips, 20, 40), range: { start: 20, end: 40 }, chatProfanity: short!.chat_profanity }, () => {});
      expect(heard.from).toBe("transcribed");
      expect(transcript.words.map((w) => w.word)).toEqual(heard.heard.map((w) => w.word));
      expect(transcript.words.filter((w) => w.shown).map((w) => w.word)).toEqual(heard.shown.map((w) => w.word));
      await rm(work, { recursive: true, force: true });
    } finally {
      await link.close();
    }
  }, 900_000);

  it("a re-cut moving an earlier short's bounds takes its words over the shared part and hears only the new edges", async () => {
    // What the first job's short heard, kept beside its files (reuse/heard-words.ts), on the VOD's clock.
    const earlier = HeardWords.parse(JSON.parse(await readFile(path.join(first.out, heardWordsName(1)), "utf8")));
    expect(earlier).toMatchObject({ vod_id: VOD_ID, recogniser: "pocketsphinx", language: "en" });
    expect(earlier.words.length).toBeGreaterThan(5);
    expect(JSON.stringify(first.result.manifest)).not.toContain(heardWordsName(1));
    const range = { start: Math.round(earlier.start) - 4, end: Math.round(earlier.end) - 2 };
    const link = await storedAnalysisLink(first.out, { jobId: "job_first", plan: first.result.plan });
    try {
      expect(link.reuse.heard).toHaveLength(1);
      const job = await jobFor("job_moved", { num_shorts: 1, compilation_enabled: false, manual_highlights: [{ start_seconds: range.start, end_seconds: range.end, label: "moved" }], parameters: { shorts_crop_mode: "crop" } });
      const recut = await run({ ...job, reuse: link.reuse });
      const figures = recut.result.analysis.figures.analysis!;
      // Only the new head was heard (up to a pause inside the earlier short, with CONTEXT_S after it), not the range.
      expect(figures.recutWords?.keptFrom).toEqual({ start: earlier.start, end: earlier.end });
      expect(figures.recutWords!.kept).toBeGreaterThan(3);
      expect(figures.recutWords!.heardSeconds).toBeGreaterThan(4);
      expect(figures.recutWords!.heardSeconds).toBeLessThan(range.end - range.start - 5);
      const spec = recut.result.plan.tasks[0]!;
      if (spec.kind !== "short" || !spec.speech) throw new Error("expected a short carrying its words");
      expect(spec.speech).toMatchObject({ recogniser: "pocketsphinx", start: range.start, end: range.end });
      // Past the cut, the words are the earlier short's, unchanged (confidences and cross-checks included).
      const join = planRecutJoin([earlier], range, decodedAnalysis(first.out).audio.pauses)!;
      const cut = join.keptRange.start;
      expect(spec.speech.words.filter((w) => w.start >= cut)).toEqual(earlier.words.filter((w) => w.start >= cut && w.start <= range.end + 0.05));
      // Before it, words were heard anew: they start inside the new head.
      const head = spec.speech.words.filter((w) => w.start < cut);
      expect(head.every((w) => w.start >= range.start - 1e-3)).toBe(true);
      // The short showed them by the captions' rules (its transcript is the plan's words on its clock). How right
      // the joined captions are against what the VOD says is measured, not asserted: scripts/eval-recut-captions.ts --join.
      const transcript = JSON.parse(await readFile(path.join(recut.out, "short-01.transcript.json"), "utf8")) as { words: { word: string; start: number; shown: boolean }[] };
      // The same words; a shown one as it is written (captions/written-case.ts: the recogniser's "i'm" shows as "I'm").
      expect(transcript.words.map((w) => w.word.toLowerCase())).toEqual(spec.speech.words.map((w) => w.word.toLowerCase()));
      const moment = recut.result.plan.moments.find((m) => m.source === "manual")!;
      const shown = trustedWords(wordsInRange(spec.speech.words, range), { maskProfanity: true, corroboration: moment.chat_profanity, language: "en" }).words;
      // Something is shown, so the comparison below says something: the first short is selection's pick (the hype at
      // 70 s since session 12), shouting of which the recogniser trusts few words (2 shown).
      expect(shown.length).toBeGreaterThan(1);
      expect(transcript.words.filter((w) => w.shown).map((w) => w.word)).toEqual(shown.map((w) => w.word));
      // The short kept what it heard for the next re-cut.
      expect(HeardWords.parse(JSON.parse(await readFile(path.join(recut.out, heardWordsName(1)), "utf8"))).words.map((w) => w.word)).toEqual(spec.speech.words.filter((w) => w.start <= range.end + 0.05).map((w) => w.word));
    } finally {
      await link.close();
    }
  }, 900_000);

  it("on the re-cut class (RECUT_HEAR_IN_HALVES=1) a range nothing heard before is heard as two halves, each keeping only its own words", async () => {
    const link = await storedAnalysisLink(first.out, { jobId: "job_first", plan: first.result.plan });
    try {
      // Far from the first short (nothing to join), long enough to be cut at a pause in its middle third.
      const range = { start: 90, end: 120 };
      const halves = halvesAtPause(range, decodedAnalysis(first.out).audio.pauses);
      if (!halves) throw new Error("the fixture VOD has no pause in the middle third of 90-120 s");
      const job = await jobFor("job_halves", { num_shorts: 1, compilation_enabled: false, manual_highlights: [{ start_seconds: range.start, end_seconds: range.end, label: "elsewhere" }], parameters: { shorts_crop_mode: "fit" } });
      const recut = await run({ ...job, reuse: { ...link.reuse, heard: [] } }, { RECUT_HEAR_IN_HALVES: "1" });
      const figures = recut.result.analysis.figures.analysis!;
      // Both halves were heard, each with CONTEXT_S of the other: the range and twice the context.
      expect(figures.recutWords).toMatchObject({ kept: 0, keptFrom: null });
      expect(figures.recutWords!.heardSeconds).toBeCloseTo(range.end - range.start + 2 * CONTEXT_S, 3);
      const spec = recut.result.plan.tasks[0]!;
      if (spec.kind !== "short" || !spec.speech) throw new Error("expected a short carrying its words");
      expect(spec.speech.words.length).toBeGreaterThan(5);
      // Each word once, in order, inside the range: what a half heard of the other's part (its context) was dropped.
      const starts = spec.speech.words.map((w) => w.start);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      expect(starts.every((t) => t >= range.start - 1e-3 && t <= range.end + 0.05)).toBe(true);
      expect(spec.speech.words.filter((w, i) => i > 0 && w.word === spec.speech!.words[i - 1]!.word && w.start - spec.speech!.words[i - 1]!.start < 0.3)).toEqual([]);
      const transcript = JSON.parse(await readFile(path.join(recut.out, "short-01.transcript.json"), "utf8")) as { words: { word: string }[] };
      expect(transcript.words.map((w) => w.word)).toEqual(spec.speech.words.map((w) => w.word));
    } finally {
      await link.close();
    }
  }, 900_000);

  it("an object that cannot be read is not fatal: the VOD is analysed again, and the plan says why", async () => {
    // The first job's request: what is under test is where the analysis comes from, not the short (at the
    // default max_highlight_duration of 60 s it would be rendered twice as long for nothing).
    const job = await jobFor("job_fallback", { num_shorts: 1, compilation_enabled: false, parameters: { max_highlight_duration: 25, shorts_crop_mode: "crop" } });
    const ran = await run({ ...job, reuse: { from_job_id: "job_gone", analysed_at: new Date().toISOString(), url: `${twitch.gqlUrl.replace(/\/gql$/, "")}/no-such-object` } });
    expect(ran.result.plan.analysis?.reused_from).toBeNull();
    expect(ran.result.plan.analysis?.stored).not.toBeNull();
    expect(ran.result.analysis.figures.analysis!.stageSeconds.acquire_analyse).toBeGreaterThan(0);
    expect(ran.result.plan.warnings[0]).toMatch(/job job_gone\) could not be used/);
  }, 900_000);
});
