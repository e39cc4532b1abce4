import { readFile, mkdtemp, rm, stat } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { runFfmpeg } from "../../../render-container/src/ffmpeg/run-ffmpeg";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSyntheticVod, type SyntheticVodTruth } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import { analyzeAudio } from "../../../render-container/src/analysis";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { extractWav } from "../../../render-container/src/captions/extract-wav";
import { analyseSpan, analyseWhileDownloading } from "../../../render-container/src/pipeline/analyse-while-downloading";
import { ByteCounter, downloadAudio, firstPtsSeconds, resolveVodMedia, type ResolvedVodMedia } from "../../../render-container/src/source";
import { SMALL_VOD } from "../../dev/fixture-vods";

let server: TwitchServer;
let truth: SyntheticVodTruth;
let vodDir: string;
let work: string;
let media: ResolvedVodMedia;
let whole: { path: string; analysis: AudioAnalysis };

beforeAll(async () => {
  ({ dir: vodDir, truth } = await generateSyntheticVod(SMALL_VOD));
  server = await startTwitchServer({ root: SMALL_VOD.root });
  work = await mkdtemp(path.join(os.tmpdir(), "stream-analysis-"));
  media = await resolveVodMedia({ gqlUrl: server.gqlUrl, usherUrl: server.usherUrl }, SMALL_VOD.vodId);
  const file = await downloadAudio(media.audioPlaylist, path.join(work, "whole"));
  whole = { path: file.path, analysis: await analyzeAudio(file.path, { durationSeconds: truth.duration_seconds }) };
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

const maxDiff = (a: number[], b: number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));

describe("analysing the audio while it downloads", () => {
  it("splits into parallel spans fed from the download and gets what one pass over the file gets", async () => {
    const counter = new ByteCounter();
    const download: number[] = [];
    const analysis: number[] = [];
    const ac = new AbortController();
    const out = await analyseWhileDownloading(media.audioPlaylist, truth.duration_seconds, path.join(work, "two"), {
      parts: 2,
      concurrency: 4,
      signal: ac.signal,
      counter,
      splitAboveSeconds: 0,
      onDownloadProgress: (f) => download.push(f),
      onAnalysisProgress: (f) => analysis.push(f),
    });
    const a = out.analysis;
    const w = whole.analysis;
    expect(a.loudnessLufs).toHaveLength(w.loudnessLufs.length);
    // ebur128's 400 ms window restarts at the span boundary (second 48); elsewhere the values are the same.
    expect(maxDiff(a.loudnessLufs.filter((_, i) => i !== 48), w.loudnessLufs.filter((_, i) => i !== 48))).toBeLessThan(0.5);
    expect(maxDiff(a.voiceDb, w.voiceDb)).toBeLessThan(1);
    expect(Math.abs(a.baselineLufs - w.baselineLufs)).toBeLessThan(0.5);
    for (const s of w.silences.filter((x) => x.end - x.start > 1)) {
      expect(a.silences.some((x) => Math.abs(x.start - s.start) < 0.3 && Math.abs(x.end - s.end) < 0.3), JSON.stringify(s)).toBe(true);
    }
    // Segment 5 is served muted.
    expect(out.muted_ranges).toHaveLength(1);
    expect(out.muted_ranges[0]!.start).toBeCloseTo(media.audioPlaylist.segments[5]!.start, 3);

    // Two part files; together they hold every segment once, plus the segments around the span boundary twice.
    expect(out.parts).toHaveLength(2);
    const rendition = (await stat(whole.path)).size;
    expect(counter.total).toBe(out.bytes);
    expect(out.bytes).toBeGreaterThanOrEqual(rendition);
    const segmentBytes = rendition / media.audioPlaylist.segments.length;
    expect(out.bytes - rendition).toBeLessThanOrEqual(3 * segmentBytes);
    // Each part knows the VOD time of its first sample, read from its own timestamps.
    const origin = firstPtsSeconds(await readFile(path.join(vodDir, "audio_only", "0.ts")))!;
    expect(out.parts[0]!.media_start_seconds).toBeCloseTo(0, 6);
    const second = out.parts[1]!;
    expect(second.media_start_seconds).toBeGreaterThan(30);
    const partPts = firstPtsSeconds(await readFile(second.path))!;
    expect(second.media_start_seconds).toBeCloseTo(partPts - origin, 6);
    expect(second.media_end_seconds).toBeGreaterThanOrEqual(truth.duration_seconds - 0.1);

    expect(download.at(-1)).toBe(1);
    expect(analysis.at(-1)).toBe(1);
    for (let i = 1; i < analysis.length; i++) expect(analysis[i]!).toBeGreaterThanOrEqual(analysis[i - 1]!);
  });

  it("cuts the same samples from a part file (seeked) as from the whole rendition", async () => {
    const out = await analyseWhileDownloading(media.audioPlaylist, truth.duration_seconds, path.join(work, "cut"), {
      parts: 2,
      concurrency: 4,
      signal: new AbortController().signal,
      splitAboveSeconds: 0,
    });
    const part = out.parts[1]!;
    const wholeClip = { path: whole.path, media_start_seconds: 0, media_end_seconds: truth.duration_seconds };
    const a = await extractWav(part, 70.25, 76.5, path.join(work, "a.wav"), { seekInput: true });
    const b = await extractWav(wholeClip, 70.25, 76.5, path.join(work, "b.wav"));
    expect(a.duration_seconds).toBeCloseTo(6.25, 3);
    const pa = (await readFile(a.path)).subarray(44);
    const pb = (await readFile(b.path)).subarray(44);
    expect(pa.length).toBe(pb.length);
    const sa = new Int16Array(pa.buffer, pa.byteOffset, pa.length / 2);
    const sb = new Int16Array(pb.buffer, pb.byteOffset, pb.length / 2);
    let err = 0;
    let energy = 0;
    for (let i = 0; i < sa.length; i++) {
      err += (sa[i]! - sb[i]!) ** 2;
      energy += sb[i]! ** 2;
    }
    expect(energy).toBeGreaterThan(0);
    expect(err / energy).toBeLessThan(1e-3);
  });

  it("keeps one span and one part for a short VOD", async () => {
    const out = await analyseWhileDownloading(media.audioPlaylist, truth.duration_seconds, path.join(work, "one"), {
      parts: 2,
      concurrency: 4,
      signal: new AbortController().signal,
    });
    expect(out.parts).toHaveLength(1);
    expect((await stat(out.parts[0]!.path)).size).toBe((await stat(whole.path)).size);
    expect(maxDiff(out.analysis.loudnessLufs, whole.analysis.loudnessLufs)).toBeLessThan(0.01);
  });

  it("fails as a whole, and stops the other span, when a segment cannot be fetched", async () => {
    server.failSegment(`${SMALL_VOD.vodId}/audio_only/7.ts`, 50, "status");
    const started = Date.now();
    await expect(
      analyseWhileDownloading(media.audioPlaylist, truth.duration_seconds, path.join(work, "fail"), {
        parts: 2,
        concurrency: 4,
        signal: new AbortController().signal,
        splitAboveSeconds: 0,
      }),
    ).rejects.toThrow(/Part 7 of the VOD could not be downloaded/);
    expect(Date.now() - started).toBeLessThan(30_000);
    server.failSegment(`${SMALL_VOD.vodId}/audio_only/7.ts`, 0, "status");
  });

  it("stops when the job is cancelled", async () => {
    const ac = new AbortController();
    server.faults.latencyMs = 200;
    const run = analyseWhileDownloading(media.audioPlaylist, truth.duration_seconds, path.join(work, "cancel"), {
      parts: 2,
      concurrency: 2,
      signal: ac.signal,
      splitAboveSeconds: 0,
    });
    setTimeout(() => ac.abort(new Error("job cancelled")), 300);
    await expect(run).rejects.toThrow("job cancelled");
    server.faults.latencyMs = 0;
  });

  it("a failed analysis pass stops its span's download, and is over before the span fails", async () => {
    // atrim refuses a negative duration once the first samples arrive: ffmpeg fails mid-stream, nothing aborted.
    const segments = media.audioPlaylist.segments;
    const origin = firstPtsSeconds(await readFile(path.join(vodDir, "audio_only", "0.ts")))!;
    const file = path.join(work, "failed-pass.ts");
    server.faults.latencyMs = 100;
    server.stats.reset();
    try {
      const error = await analyseSpan({ start: 0, length: -1 }, segments, origin, file, {
        concurrency: 1,
        signal: new AbortController().signal,
        onSegment: () => undefined,
      }).catch((e: unknown) => e);
      expect(String(error)).toMatch(/audio analysis failed/);
      const requested = server.stats.requests.segment;
      const size = (await stat(file)).size;
      await new Promise((r) => setTimeout(r, 1000));
      // No request, and no write into the part file, after the span has failed.
      expect(server.stats.requests.segment).toBe(requested);
      expect((await stat(file)).size).toBe(size);
      expect(requested).toBeLessThan(segments.length);
    } finally {
      server.faults.latencyMs = 0;
    }
  });

  it("falls back to download-then-analyse for segments without MPEG-TS timestamps, fetching each segment once", async () => {
    // Two ADTS (raw AAC) segments: no TS packets, so no PTS to cut spans on.
    const adts = path.join(work, "adts");
    await runFfmpeg(["-i", whole.path, "-t", "50", "-c:a", "copy", "-f", "adts", `${adts}-0.aac`]);
    await runFfmpeg(["-ss", "50", "-i", whole.path, "-c:a", "copy", "-f", "adts", `${adts}-1.aac`]);
    const served: string[] = [];
    const srv = http.createServer(async (req, res) => {
      served.push(req.url!);
      const body = await readFile(`${adts}-${req.url!.includes("1.aac") ? 1 : 0}.aac`);
      res.writeHead(200, { "content-type": "audio/aac", "content-length": body.length }).end(body);
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    try {
      const playlist = {
        target_duration: 50,
        total_duration: truth.duration_seconds,
        ended: true,
        segments: [
          { uri: `${base}/0.aac`, duration: 50, start: 0, index: 0, muted: false },
          { uri: `${base}/1.aac`, duration: truth.duration_seconds - 50, start: 50, index: 1, muted: false },
        ],
      };
      const counter = new ByteCounter();
      const out = await analyseWhileDownloading(playlist, truth.duration_seconds, path.join(work, "adts-out"), { parts: 2, concurrency: 2, signal: new AbortController().signal, counter, splitAboveSeconds: 0 });
      expect(served.sort()).toEqual(["/0.aac", "/1.aac"]);
      const expected = (await stat(`${adts}-0.aac`)).size + (await stat(`${adts}-1.aac`)).size;
      expect(counter.total).toBe(expected);
      expect(out.parts).toHaveLength(1);
      expect((await stat(out.parts[0]!.path)).size).toBe(expected);
      expect(out.analysis.loudnessLufs).toHaveLength(whole.analysis.loudnessLufs.length);
      const planted = whole.analysis.loudnessAboveBaselineDb.indexOf(Math.max(...whole.analysis.loudnessAboveBaselineDb));
      const found = out.analysis.loudnessAboveBaselineDb.indexOf(Math.max(...out.analysis.loudnessAboveBaselineDb));
      expect(Math.abs(found - planted)).toBeLessThanOrEqual(1);
    } finally {
      await new Promise((r) => srv.close(r));
    }
  });
});
