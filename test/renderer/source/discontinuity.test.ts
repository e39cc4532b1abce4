import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSyntheticVod, writeDiscontinuityVariant } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import {
  downloadAudio,
  downloadCoveringSegments,
  downloadSegmentsToFile,
  firstPtsSeconds,
  resolveVodMedia,
  startPtsSeconds,
  type ResolvedVodMedia,
} from "../../../render-container/src/source";
import { analyzeAudio } from "../../../render-container/src/analysis";
import { analyseWhileDownloading } from "../../../render-container/src/pipeline/analyse-while-downloading";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { packetTimes, steps } from "../../dev/media-probe";

const exec = promisify(execFile);
const VOD = "710000090";
/** Segment 7 (VOD 70-80 s) and later jump 4 s ahead: under ffmpeg's own 10 s correction, so nothing hides it. */
const JUMP = { fromSegment: 7, jumpSeconds: 4 };

let original: string;
let root: string;
let server: TwitchServer;
let media: ResolvedVodMedia;
let work: string;

beforeAll(async () => {
  ({ dir: original } = await generateSyntheticVod(SMALL_VOD));
  root = await mkdtemp(path.join(os.tmpdir(), "source-discontinuity-"));
  await writeDiscontinuityVariant(original, path.join(root, VOD), JUMP);
  server = await startTwitchServer({ root });
  media = await resolveVodMedia({ gqlUrl: server.gqlUrl, usherUrl: server.usherUrl }, VOD);
  work = path.join(root, "work");
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

/** The original, continuous rendition as one input. */
const whole = (group: string) => `concat:${media.videoPlaylist.segments.map((s) => path.join(original, group, path.basename(new URL(s.uri).pathname))).join("|")}`;

/** One second of mono 48 kHz sound from `at` on the input's own clock (-copyts: timestamps as written). */
async function pcm(input: string, at: number, duration = 1): Promise<Int16Array> {
  const { stdout } = await exec(
    "ffmpeg",
    ["-hide_banner", "-loglevel", "error", "-copyts", "-i", input, "-vn", "-af", `atrim=start=${at}:duration=${duration},asetpts=PTS-STARTPTS`, "-ac", "1", "-ar", "48000", "-f", "s16le", "-"],
    { encoding: "buffer", maxBuffer: 1 << 24 },
  );
  return new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
}

function maxDiff(a: Int16Array, b: Int16Array, lag = 0): number {
  let diff = 0;
  for (let i = 0; i < Math.min(a.length, b.length - lag); i++) diff = Math.max(diff, Math.abs(a[i]! - b[i + lag]!));
  return diff;
}

/** Where (in samples, 0..2*slack) `a` sits inside `b`, which starts `slack` samples earlier; null if nowhere. */
function lagOf(a: Int16Array, b: Int16Array, slack: number): number | null {
  for (let lag = 0; lag <= 2 * slack; lag++) if (maxDiff(a, b, lag) < 200) return lag;
  return null;
}

describe("a VOD whose playlist has #EXT-X-DISCONTINUITY", () => {
  it("is read as such: the timeline adds up, the served timestamps jump", async () => {
    expect(media.videoPlaylist.segments.map((s) => s.discontinuity_sequence)).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    const served = await readFile(path.join(root, VOD, "chunked", "7.ts"));
    const before = await readFile(path.join(original, "chunked", "7.ts"));
    expect(firstPtsSeconds(served)! - firstPtsSeconds(before)!).toBeCloseTo(4, 1);
  });

  it("a clip across the discontinuity runs on the VOD's clock: every sample where the continuous VOD has it", async () => {
    const [clip] = await downloadCoveringSegments(media.videoPlaylist, [{ start: 65, end: 85 }], path.join(work, "video"));
    expect([clip!.media_start_seconds, clip!.media_end_seconds]).toEqual([60, 90]);
    expect(steps(await packetTimes(clip!.path, "v")).max).toBeLessThan(0.05);
    const zero = startPtsSeconds(await readFile(path.join(original, "chunked", "0.ts")))!;
    for (const t of [66, 73, 78, 86]) {
      const a = await pcm(clip!.path, zero + t);
      expect(a.length).toBe(48_000);
      expect(maxDiff(a, await pcm(whole("chunked"), zero + t)), `sound at ${t} s`).toBeLessThan(200);
    }
  });

  it("the whole audio rendition lines up after the jump too (to an audio frame)", async () => {
    const audio = await downloadAudio(media.audioPlaylist, path.join(work, "audio"));
    expect(steps(await packetTimes(audio.path, "a")).max).toBeLessThan(0.05);
    const zero = startPtsSeconds(await readFile(path.join(original, "audio_only", "0.ts")))!;
    const slack = 2400; // 50 ms
    for (const t of [30, 78, 92]) {
      const lag = lagOf(await pcm(audio.path, zero + t), await pcm(whole("audio_only"), zero + t - 0.05, 1.1), slack);
      expect(lag, `sound at ${t} s`).not.toBeNull();
      expect(Math.abs(lag! - slack), `samples off at ${t} s`).toBeLessThanOrEqual(1024);
    }
  });

  it("a file that starts after the jump lands on the VOD's clock when the timestamp of VOD time 0 is given", async () => {
    const origin = startPtsSeconds(await readFile(path.join(original, "audio_only", "0.ts")))!;
    const tail = media.audioPlaylist.segments.slice(8);
    const given = path.join(work, "tail-given.ts");
    await downloadSegmentsToFile(tail, given, { timelineOrigin: origin });
    const expected = startPtsSeconds(await readFile(path.join(original, "audio_only", "8.ts")))!;
    expect(Math.abs(startPtsSeconds(await readFile(given))! - expected)).toBeLessThan(0.025);
    // Without it the file keeps the served clock (it cannot know better), still continuous within itself.
    const own = path.join(work, "tail-own.ts");
    await downloadSegmentsToFile(tail, own, {});
    expect(startPtsSeconds(await readFile(own))!).toBeCloseTo(expected + 4, 1);
  });

  it("audio analysed in spans while it downloads: a span that starts after the jump is on the VOD's clock too", async () => {
    // Four spans of 25 s: the last one's first segment (7) is already past the jump.
    const out = await analyseWhileDownloading(media.audioPlaylist, 100, path.join(work, "spans"), { parts: 4, concurrency: 4, signal: new AbortController().signal, splitAboveSeconds: 0 });
    const origin = startPtsSeconds(await readFile(path.join(original, "audio_only", "0.ts")))!;
    const last = out.parts.at(-1)!;
    expect(last.media_start_seconds).toBeGreaterThanOrEqual(70);
    expect(Math.abs(startPtsSeconds(await readFile(last.path))! - origin - last.media_start_seconds)).toBeLessThan(0.025);
    // Second by second, the loudness is the continuous VOD's (the spans' own window restarts aside).
    const reference = await analyzeAudio(whole("audio_only"), { durationSeconds: 100 });
    const off = out.analysis.loudnessLufs.map((v, i) => Math.abs(v - reference.loudnessLufs[i]!)).filter((d, i) => ![25, 50, 75].includes(i));
    expect(Math.max(...off.slice(76))).toBeLessThan(0.5);
  });
});
