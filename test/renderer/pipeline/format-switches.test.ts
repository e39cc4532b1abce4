import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSyntheticVod, writeFmp4Variant } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { createLogger } from "../../../render-container/src/log";
import { formatSwitches, keepOffFormatSwitches, placeAroundFormatSwitches, splitAtSwitches, type SwitchAdjustment } from "../../../render-container/src/pipeline/format-switches";
import { runJobInProcess } from "../../../dev/job-runner/in-process";
import type { Chosen } from "../../../render-container/src/pipeline/stages/choose-moments";
import { SourceError, resolveVodMedia, type ResolvedVodMedia } from "../../../render-container/src/source";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { ONE_MOMENT_VOD } from "../../dev/fixture-vods";
import { removeScratchUnlessFailed } from "../../support/scratch-dirs";
import { moment } from "./plan-fixtures";

/**
 * An fMP4 VOD (90 s, 320x180, one planted hype moment at 50 s) whose video switches to a different
 * initialisation section at 50 s (segment 5, after a reconnect), while its audio-only rendition reconnects with
 * the same section under a new name.
 */
const VOD = ONE_MOMENT_VOD.vodId;
/** The same VOD where the audio-only rendition switches to a different section at 50 s too. */
const VOD_BOTH = "900000332";
const SWITCH_AT = 50;
let root: string;
let server: TwitchServer;
let media: ResolvedVodMedia;

beforeAll(async () => {
  const { dir } = await generateSyntheticVod(ONE_MOMENT_VOD);
  root = await mkdtemp(path.join(os.tmpdir(), "format-switch-vods-"));
  const sameBytes = await mkdtemp(path.join(os.tmpdir(), "format-switch-same-"));
  await writeFmp4Variant(dir, path.join(root, VOD), { initSwitch: { fromSegment: 5, sameBytes: false } });
  await writeFmp4Variant(dir, path.join(root, VOD_BOTH), { initSwitch: { fromSegment: 5, sameBytes: false } });
  await writeFmp4Variant(dir, sameBytes, { initSwitch: { fromSegment: 5, sameBytes: true } });
  await rm(path.join(root, VOD, "audio_only"), { recursive: true });
  await cp(path.join(sameBytes, "audio_only"), path.join(root, VOD, "audio_only"), { recursive: true });
  await rm(sameBytes, { recursive: true, force: true });
  server = await startTwitchServer({ root });
  media = await resolveVodMedia({ gqlUrl: server.gqlUrl, usherUrl: server.usherUrl }, VOD);
}, 300_000);
/** The job's output and work folders. */
const scratch: string[] = [];
afterAll(async ({}, suite) => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
  await removeScratchUnlessFailed(suite, scratch);
});

const limits = { minDuration: 20, durationSeconds: 90 };
const chosen = (balanced: ReturnType<typeof moment>[], shorts: ReturnType<typeof moment>[] = []): Chosen => ({ momentsByProfile: { balanced }, shorts, warnings: [] });
const span = (m: { start: number; end: number }) => [m.start, m.end];
const across = (m: { start: number; end: number }, at = SWITCH_AT) => m.start < at - 1e-3 && at < m.end - 1e-3;

describe("keeping moments off fMP4 format switches (on the VOD's real playlists)", () => {
  it("finds the switch of the video playlist; the audio's renamed-but-equal section is no switch once compared", async () => {
    const video = formatSwitches(media.videoPlaylist);
    expect(video).toEqual([{ at: SWITCH_AT, before: expect.stringMatching(/\/chunked\/init-0\.mp4$/), after: expect.stringMatching(/\/chunked\/init-1\.mp4$/) }]);
    expect(formatSwitches(media.audioPlaylist)).toHaveLength(1);
    const audio = await placeAroundFormatSwitches(chosen([moment(40, 62, 0.8, { peak: 55 })]), media.audioPlaylist, limits, {});
    expect(audio.switches).toEqual([]);
    expect(audio.adjusted).toEqual([]);
  });

  it("trims a moment to the side of its peak when that side is long enough", () => {
    const [switchAt] = formatSwitches(media.videoPlaylist);
    const { chosen: out, adjusted } = keepOffFormatSwitches(chosen([moment(10, 25, 0.5), moment(26, 58, 0.8, { peak: 40 })]), [switchAt!], limits);
    expect(out.momentsByProfile.balanced!.map(span)).toEqual([[10, 25], [26, 50]]);
    expect(adjusted).toEqual([{ of: "balanced reel", from: { start: 26, end: 58 }, to: { start: 26, end: 50 }, switchAt: 50 }]);
    expect(out.warnings).toEqual([]);
    // Its "why" states the end it has now, and what moved it there.
    expect(out.momentsByProfile.balanced![1]!.signals.reasons).toContain("ends 10.0 s after the peak: moved 8.0 s earlier to keep off a change of the video's format (a stream reconnect)");
  });

  it("shifts it whole to that side, keeping its length, when trimming would leave it too short", () => {
    const switches = formatSwitches(media.videoPlaylist);
    // Peak after the switch, only 8 s of the moment there: moved to 50-73.
    const { chosen: out } = keepOffFormatSwitches(chosen([moment(35, 58, 0.8, { peak: 53 })], [moment(38, 58, 0.8, { peak: 53 })]), switches, limits);
    expect(out.momentsByProfile.balanced!.map(span)).toEqual([[50, 73]]);
    expect(out.shorts.map(span)).toEqual([[50, 70]]);
    expect(out.momentsByProfile.balanced![0]!.peak).toBe(53);
    // Peak before: moved to end at the switch.
    const before = keepOffFormatSwitches(chosen([moment(45, 70, 0.8, { peak: 47 })]), switches, limits).chosen;
    expect(before.momentsByProfile.balanced!.map(span)).toEqual([[25, 50]]);
  });

  it("drops it with a warning when the shift would overlap a neighbour of its reel or leave the VOD", () => {
    const switches = formatSwitches(media.videoPlaylist);
    const { chosen: out, adjusted } = keepOffFormatSwitches(chosen([moment(35, 58, 0.8, { peak: 53 }), moment(60, 80, 0.6)]), switches, limits);
    expect(out.momentsByProfile.balanced!.map(span)).toEqual([[60, 80]]);
    expect(adjusted).toEqual([{ of: "balanced reel", from: { start: 35, end: 58 }, to: null, switchAt: 50 }]);
    expect(out.warnings).toEqual([expect.stringMatching(/balanced reel's moment 0:35-0:58 was left out: it spans a change of this VOD's media format at 0:50/)]);
    // A shift past the VOD's end is no better (a switch at 80 s of 90).
    const late = keepOffFormatSwitches(chosen([], [moment(70, 88, 0.8, { peak: 85 })]), [{ ...switches[0]!, at: 80 }], limits).chosen;
    expect(late.shorts).toEqual([]);
    expect(late.warnings).toEqual([expect.stringMatching(/^The short 1:10-1:28 was left out/)]);
  });

  it("leaves alone moments that end or start at the switch, and manual ranges that do not cross it", () => {
    const input = chosen([moment(30, 50, 0.8), moment(50, 70, 0.7), moment(75, 85, 0, { source: "manual", label: "ending" })]);
    const result = keepOffFormatSwitches(input, formatSwitches(media.videoPlaylist), limits);
    expect(result.chosen).toBe(input);
    expect(result.adjusted).toEqual([]);
  });

  it("a manual highlight across the switch keeps its range and fails with vod_format_unsupported naming it", () => {
    const input = chosen([moment(40, 62, 0, { source: "manual", label: "Boss fight" })]);
    const error = (() => {
      try {
        keepOffFormatSwitches(input, formatSwitches(media.videoPlaylist), limits);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).code).toBe("vod_format_unsupported");
    expect((error as Error).message).toMatch(/manual highlight "Boss fight" \(0:40-1:02\) spans a change of this VOD's media format at 50 s \(0:50\) of the VOD \(init-1\.mp4 after init-0\.mp4/);
    expect((error as Error).message).toMatch(/part before 0:50 and the part after it/);
  });

  it("splits download ranges that touch across the switch", () => {
    expect(splitAtSwitches([{ start: 10, end: 20 }, { start: 40, end: 65 }], formatSwitches(media.videoPlaylist))).toEqual([
      { start: 10, end: 20 },
      { start: 40, end: 50 },
      { start: 50, end: 65 },
    ]);
  });

  it("fetches the two initialisation sections only when a moment crosses their switch", async () => {
    server.stats.reset();
    const off = await placeAroundFormatSwitches(chosen([moment(20, 45, 0.8)]), media.videoPlaylist, limits, {});
    expect(off.adjusted).toEqual([]);
    expect(off.switches.map((s) => s.at)).toEqual([SWITCH_AT]);
    expect(server.stats.requests.segment).toBe(0);
    const on = await placeAroundFormatSwitches(chosen([moment(40, 62, 0.8, { peak: 44 })]), media.videoPlaylist, limits, {});
    expect(on.chosen.momentsByProfile.balanced!.map(span)).toEqual([[28, 50]]);
    expect(server.stats.requests.segment).toBe(2);
  });
});

describe("a whole job on the VOD, its audio switching too", () => {
  it("completes, with its best moment (across the switch) and the short moved to one side", async () => {
    const audioInit = (n: number) => readFile(path.join(root, VOD_BOTH, "audio_only", `init-${n}.mp4`));
    expect((await audioInit(0)).equals(await audioInit(1))).toBe(false);
    const job = await localRenderJob(
      {
        vod_url: `https://www.twitch.tv/videos/${VOD_BOTH}`,
        num_shorts: 1,
        final_video_length_minutes: 1,
        parameters: { min_highlight_duration: 20, max_highlight_duration: 25, cold_open_enabled: false, shorts_crop_mode: "fit" },
      },
      { twitch: server, jobId: "job_format_switch" },
    );
    const out = await mkdtemp(path.join(os.tmpdir(), "format-switch-out-"));
    const work = await mkdtemp(path.join(os.tmpdir(), "format-switch-work-"));
    scratch.push(out, work);
    const logs: { msg: string; adjusted?: SwitchAdjustment[] }[] = [];
    const log = createLogger({}, (line) => logs.push(JSON.parse(line) as { msg: string }));
    const preset = process.env.X264_PRESET;
    process.env.X264_PRESET = "ultrafast";
    let result: Awaited<ReturnType<typeof runJobInProcess>>;
    try {
      // The recogniser's accurate search alone (POCKETSPHINX_CROSS_CHECK=0, an operator's setting), half the
      // recogniser CPU of the default: this job proves what a format switch does to moments and files, nothing
      // of which words are heard (the default's cross-check: test/renderer/captions, analyse-task, render-task).
      result = await runJobInProcess(job, { settings: { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 2, env: { POCKETSPHINX_CROSS_CHECK: "0" } }, outDir: out, workDir: work, log });
    } finally {
      if (preset === undefined) delete process.env.X264_PRESET;
      else process.env.X264_PRESET = preset;
    }

    // The selection's moment around the planted peak crossed the switch; it and the short were moved, not failed.
    const adjusted = logs.find((l) => l.msg === "moments moved off format switches")?.adjusted ?? [];
    const reelMove = adjusted.find((a) => a.of === "balanced reel");
    const shortMove = adjusted.find((a) => a.of === "short");
    expect(reelMove && across(reelMove.from), JSON.stringify(adjusted)).toBe(true);
    expect(shortMove?.to, JSON.stringify(adjusted)).toBeTruthy();
    expect(adjusted.every((a) => a.switchAt === SWITCH_AT && a.to !== null && !across(a.to))).toBe(true);

    const highlights = result.manifest.highlights;
    expect(highlights.length).toBeGreaterThan(0);
    expect(highlights.filter((h) => across(h)), JSON.stringify(highlights)).toEqual([]);
    expect(result.manifest.warnings.filter((w) => /media format/.test(w))).toEqual([]);

    expect((await readdir(out)).sort()).toEqual(["analysis.json.gz", "manifest.json", "metadata.json", "reel-balanced.edl", "reel-balanced.jpg", "reel-balanced.mp4", "reel-balanced.otio", "short-01.heard.json", "short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
    const short = await probeMedia(path.join(out, "short-01.mp4"));
    expect(Math.abs(short.durationSeconds - (shortMove!.to!.end - shortMove!.to!.start))).toBeLessThan(1);
    const reel = await probeMedia(path.join(out, "reel-balanced.mp4"));
    expect(Math.abs(reel.durationSeconds - highlights.reduce((s, h) => s + h.duration, 0))).toBeLessThan(1);
  }, 600_000);
});
