import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSyntheticVod, writeFmp4Variant, type SyntheticVodTruth } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import {
  SourceError,
  downloadAudio,
  downloadCoveringSegments,
  resolveVodMedia,
  type ResolvedVodMedia,
} from "../../../render-container/src/source";
import { analyzeAudio } from "../../../render-container/src/analysis";
import { extractWav } from "../../../render-container/src/captions/extract-wav";
import { analyseWhileDownloading } from "../../../render-container/src/pipeline/analyse-while-downloading";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { ffprobeJson, rmsPerSecond, streams } from "../../dev/media-probe";

const exec = promisify(execFile);
const VOD = "710000091";
const SAME_INIT = "710000092";
const OTHER_INIT = "710000093";

let original: string;
let truth: SyntheticVodTruth;
let root: string;
let server: TwitchServer;
let media: ResolvedVodMedia;
let work: string;
const twitch = () => ({ gqlUrl: server.gqlUrl, usherUrl: server.usherUrl });

beforeAll(async () => {
  ({ dir: original, truth } = await generateSyntheticVod(SMALL_VOD));
  root = await mkdtemp(path.join(os.tmpdir(), "source-fmp4-"));
  await writeFmp4Variant(original, path.join(root, VOD));
  await writeFmp4Variant(original, path.join(root, SAME_INIT), { initSwitch: { fromSegment: 7, sameBytes: true } });
  await writeFmp4Variant(original, path.join(root, OTHER_INIT), { initSwitch: { fromSegment: 7, sameBytes: false } });
  server = await startTwitchServer({ root });
  media = await resolveVodMedia(twitch(), VOD);
  work = path.join(root, "work");
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

/** MD5 of every decoded video frame, in order (timestamps left out). */
async function frameHashes(input: string): Promise<string[]> {
  const { stdout } = await exec("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", input, "-map", "0:v:0", "-f", "framemd5", "-"], { maxBuffer: 1 << 26 });
  return stdout.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split(",").pop()!.trim());
}

/** Presentation times of one stream's packets in file order. */
async function packetTimesInOrder(input: string, stream: "v" | "a"): Promise<number[]> {
  const json = (await ffprobeJson(input, ["-select_streams", stream, "-show_entries", "packet=pts_time"])) as { packets: { pts_time: string }[] };
  return json.packets.map((p) => Number(p.pts_time));
}

/** The largest step backwards between a packet and the latest time before it. */
function maxBackStep(times: number[]): number {
  let back = 0;
  let latest = Number.NEGATIVE_INFINITY;
  for (const t of times) {
    back = Math.max(back, latest - t);
    latest = Math.max(latest, t);
  }
  return back;
}

const startTimes = async (input: string) => {
  const json = (await ffprobeJson(input, ["-show_entries", "format=start_time:stream=codec_type,start_time"])) as {
    format: { start_time: string };
    streams: { codec_type: string; start_time: string }[];
  };
  return { file: Number(json.format.start_time), video: Number(json.streams.find((s) => s.codec_type === "video")?.start_time) };
};

describe("fMP4 renditions (#EXT-X-MAP, N.mp4)", () => {
  it("are read with their initialisation section and the -muted.mp4 parts", () => {
    const segs = media.videoPlaylist.segments;
    expect(segs).toHaveLength(10);
    expect(segs.every((s) => s.init_uri === `${server.url}/media/${VOD}/chunked/init-0.mp4`)).toBe(true);
    expect(segs[5]!.uri).toMatch(/\/5-muted\.mp4$/);
    expect(segs.map((s) => s.muted)).toEqual(segs.map((_, i) => i === 5));
  });

  it("a covering clip is the init section plus only its fragments: the same frames, on the VOD's clock", async () => {
    server.stats.reset();
    const [clip] = await downloadCoveringSegments(media.videoPlaylist, [{ start: 22, end: 34 }], path.join(work, "video"));
    expect([clip!.media_start_seconds, clip!.media_end_seconds]).toEqual([20, 40]);
    expect(server.stats.segmentsServed.map((p) => p.split("/").pop())).toEqual(expect.arrayContaining(["init-0.mp4", "2.mp4", "3.mp4"]));
    expect(server.stats.segmentsServed).toHaveLength(3);
    const bytes = await readFile(clip!.path);
    expect(bytes.subarray(4, 8).toString()).toBe("ftyp");
    expect((await streams(clip!.path)).map((s) => s.codec_name).sort()).toEqual(["aac", "h264"]);
    const ts = `concat:${["2.ts", "3.ts"].map((f) => path.join(original, "chunked", f)).join("|")}`;
    const [fromMp4, fromTs] = await Promise.all([frameHashes(clip!.path), frameHashes(ts)]);
    expect(fromMp4).toHaveLength(600);
    expect(fromMp4).toEqual(fromTs);
    // File time 0 is VOD time 20 (what the renderer's trims assume), as with MPEG-TS.
    const t = await startTimes(clip!.path);
    expect(t.file).toBeCloseTo(20, 1);
    expect(t.video - t.file).toBeCloseTo((await startTimes(ts)).video - (await startTimes(ts)).file, 2);
  });

  it("the audio rendition downloads whole into one decodable file with the planted moments in place", async () => {
    const audio = await downloadAudio(media.audioPlaylist, path.join(work, "audio"));
    expect(audio.muted_ranges).toHaveLength(1);
    expect(audio.muted_ranges[0]!.start).toBeCloseTo(50, 1);
    expect(audio.muted_ranges[0]!.end).toBeCloseTo(60, 1);
    const rms = await rmsPerSecond(audio.path);
    expect(rms.length).toBeGreaterThanOrEqual(94);
    const hype = truth.moments.find((m) => m.kind === "hype")!;
    expect(Math.max(...rms.slice(hype.peak, hype.peak + 4))).toBeGreaterThan(-20);
    expect(rms[55]).toBe(Number.NEGATIVE_INFINITY);
  });

  it("after a reconnect (discontinuity, clock restarted) the same init bytes under a new name go on in one file, on one clock", async () => {
    const m = await resolveVodMedia(twitch(), SAME_INIT);
    const [clip, ...more] = await downloadCoveringSegments(m.videoPlaylist, [{ start: 62, end: 84 }], path.join(work, "same-init"));
    expect(more).toEqual([]);
    expect([clip!.media_start_seconds, clip!.media_end_seconds]).toEqual([60, 90]);
    const ts = `concat:${["6.ts", "7.ts", "8.ts"].map((f) => path.join(original, "chunked", f)).join("|")}`;
    expect(await frameHashes(clip!.path)).toEqual(await frameHashes(ts));
    const video = await packetTimesInOrder(clip!.path, "v");
    expect(video.at(-1)! - video[0]!).toBeCloseTo(30 - 1 / 30, 1);
    expect(maxBackStep(video)).toBeLessThan(0.2); // B-frame reordering only; the restart would be -70 s

    const audio = await downloadAudio(m.audioPlaylist, path.join(work, "same-init-audio"));
    const times = await packetTimesInOrder(audio.path, "a");
    expect(maxBackStep(times)).toBeLessThan(0.001);
    expect(times.at(-1)! - times[0]!).toBeCloseTo(95, 0);
    const rms = await rmsPerSecond(audio.path);
    const loud = truth.moments.find((x) => x.kind === "loud_only")!;
    expect(Math.max(...rms.slice(loud.peak, loud.peak + 4))).toBeGreaterThan(-20);
  });

  it("a different initialisation section starts a new file", async () => {
    const m = await resolveVodMedia(twitch(), OTHER_INIT);
    // Two moments whose segments touch, one on either side of the switch at 70 s.
    const clips = await downloadCoveringSegments(m.videoPlaylist, [{ start: 62, end: 68 }, { start: 72, end: 84 }], path.join(work, "other-init"));
    expect(clips.map((c) => [c.media_start_seconds, c.media_end_seconds])).toEqual([
      [60, 70],
      [70, 90],
    ]);
    expect((await readFile(clips[1]!.path)).subarray(0, 4096).includes(Buffer.from("free"))).toBe(true);
    expect((await frameHashes(clips[0]!.path)).length).toBe(300);
    expect(await frameHashes(clips[1]!.path)).toEqual(await frameHashes(`concat:${["7.ts", "8.ts"].map((f) => path.join(original, "chunked", f)).join("|")}`));
  });

  it("a moment across a switch to a different initialisation section: vod_format_unsupported naming the VOD time, before any download", async () => {
    const m = await resolveVodMedia(twitch(), OTHER_INIT);
    server.stats.reset();
    const error = await downloadCoveringSegments(m.videoPlaylist, [{ start: 22, end: 34 }, { start: 62, end: 84 }], path.join(work, "across-init")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).code).toBe("vod_format_unsupported");
    expect((error as Error).message).toMatch(/at 70 s \(1:10\) of the VOD \(init-1\.mp4 after init-0\.mp4\), inside the moment 1:02-1:24/);
    // Only the two init sections were compared; no fragment was fetched for nothing.
    expect(server.stats.requests.segment).toBe(2);
  });

  it("fetches only the initialisation sections the chosen ranges use: an unneeded one that 404s fails nothing", async () => {
    const m = await resolveVodMedia(twitch(), OTHER_INIT);
    server.failSegment(`${OTHER_INIT}/chunked/init-1.mp4`, 5, "status", 404);
    server.stats.reset();
    try {
      const clips = await downloadCoveringSegments(m.videoPlaylist, [{ start: 22, end: 34 }], path.join(work, "unneeded-init"));
      expect(clips.map((c) => [c.media_start_seconds, c.media_end_seconds])).toEqual([[20, 40]]);
      // init-0.mp4, 2.mp4 and 3.mp4; init-1.mp4 was never asked for.
      expect(server.stats.requests.segment).toBe(3);
    } finally {
      server.failSegment(`${OTHER_INIT}/chunked/init-1.mp4`, 0, "status", 404);
    }
  });

  it("compares the initialisation sections of a playlist that switches often within the download's concurrency", async () => {
    // Every fragment under its own name for the same init bytes (a reconnect each time): one file in the end.
    const playlist = { ...media.videoPlaylist, segments: media.videoPlaylist.segments.map((s) => ({ ...s, init_uri: `${s.init_uri}?n=${s.index}` })) };
    let open = 0;
    let most = 0;
    const fetchCounting = async (input: string, init?: RequestInit) => {
      const isInit = input.includes("/init-");
      if (isInit) most = Math.max(most, ++open);
      try {
        const response = await fetch(input, init);
        // Held until the body is read, as the download does.
        const body = await response.arrayBuffer();
        return new Response(body, { status: response.status, headers: response.headers });
      } finally {
        if (isInit) open--;
      }
    };
    server.faults.latencyMs = 50;
    try {
      const clips = await downloadCoveringSegments(playlist, [{ start: 2, end: 93 }], path.join(work, "many-inits"), { concurrency: 2, fetch: fetchCounting });
      expect(clips).toHaveLength(1);
      expect(most).toBeLessThanOrEqual(2);
    } finally {
      server.faults.latencyMs = 0;
    }
  });

  it("one file cannot hold two different initialisation sections: a clear vod_format_unsupported", async () => {
    const other = await resolveVodMedia(twitch(), OTHER_INIT);
    const error = await downloadAudio(other.audioPlaylist, path.join(work, "other-audio")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).code).toBe("vod_format_unsupported");
    expect((error as Error).message).toMatch(/at 70 s, init-1\.mp4 after init-0\.mp4/);
  });

  it("the audio analysis reads an audio rendition that changes format as one file per format, on the VOD's clock", async () => {
    const other = await resolveVodMedia(twitch(), OTHER_INIT);
    const out = await analyseWhileDownloading(other.audioPlaylist, 95, path.join(work, "other-analysis"), { parts: 2, concurrency: 4, signal: new AbortController().signal });
    expect(out.parts.map((p) => [Math.round(p.media_start_seconds), Math.round(p.media_end_seconds)])).toEqual([[0, 70], [70, 95]]);
    // Second by second what the continuous MPEG-TS rendition gives (the second file's loudness window starts
    // afresh at 70 s and a few ms off the continuous file, which moves a second's value by up to ~0.8 LU).
    const continuous = `concat:${Array.from({ length: 10 }, (_, i) => path.join(original, "audio_only", i === 5 ? "5-muted.ts" : `${i}.ts`)).join("|")}`;
    const reference = await analyzeAudio(continuous, { durationSeconds: 95 });
    expect(out.analysis.loudnessLufs).toHaveLength(reference.loudnessLufs.length);
    const off = out.analysis.loudnessLufs.map((v, i) => (i === 70 ? 0 : Math.abs(v - reference.loudnessLufs[i]!)));
    expect(Math.max(...off), JSON.stringify(off.map((d, i) => [i, Math.round(d * 100) / 100]).filter(([, d]) => d > 0.2))).toBeLessThan(1);
    // Captions read from the second file find the same sound at the same VOD time, to within an AAC frame
    // (the piece starts where its playlist says, 70.014 s; the sound lines up 2 ms from there).
    const fromPart = await extractWav(out.parts[1]!, 74, 78, path.join(work, "part.wav"));
    const fromWhole = await extractWav({ path: continuous, media_start_seconds: 0, media_end_seconds: 95 }, 74, 78, path.join(work, "whole.wav"));
    const pcm = async (f: string) => {
      const b = (await readFile(f)).subarray(44);
      return new Int16Array(b.buffer, b.byteOffset, b.length / 2);
    };
    const [a, b] = [await pcm(fromPart.path), await pcm(fromWhole.path)];
    const frame = 342; // 1024 samples at 48 kHz, in 16 kHz samples
    let best = { lag: 0, err: Infinity, energy: 0 };
    for (let lag = -frame; lag <= frame; lag++) {
      let err = 0;
      let energy = 0;
      for (let i = frame; i < a.length - frame; i++) {
        err += (a[i]! - b[i + lag]!) ** 2;
        energy += b[i + lag]! ** 2;
      }
      if (err < best.err) best = { lag, err, energy };
    }
    expect(best.energy).toBeGreaterThan(0);
    expect(best.err / best.energy).toBeLessThan(1e-3);
  });
});

