import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateSyntheticVod, type SyntheticVodTruth } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import {
  ByteCounter,
  SourceError,
  coveringSegmentGroups,
  downloadAudio,
  downloadSegmentsToFile,
  downloadCoveringSegments,
  resolveVodMedia,
  type ResolvedVodMedia,
} from "../../../render-container/src/source";
import { VODS, writeMetadataVods } from "../../common/twitch/metadata-vods";
import { toJobError } from "../../../render-container/src/pipeline/job-error";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { rmsPerSecond } from "../../dev/media-probe";
import { holdFirstBatch, holdUntilDropped, startHoldingProxy, type HoldingProxy } from "../../support/holding-proxy";

const exec = promisify(execFile);
const VOD = SMALL_VOD.vodId;

let server: TwitchServer;
let truth: SyntheticVodTruth;
let vodDir: string;
let work: string;
let twitch: { gqlUrl: string; usherUrl: string };
let media: ResolvedVodMedia;

beforeAll(async () => {
  ({ dir: vodDir, truth } = await generateSyntheticVod(SMALL_VOD));
  server = await startTwitchServer({ root: SMALL_VOD.root });
  twitch = { gqlUrl: server.gqlUrl, usherUrl: server.usherUrl };
  work = await mkdtemp(path.join(os.tmpdir(), "source-test-"));
  media = await resolveVodMedia(twitch, VOD);
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});
beforeEach(() => {
  server.stats.reset();
  server.faults.latencyMs = 0;
});

const segmentFile = (group: string, file: string) => path.join(vodDir, group, file);
const sizeOf = async (group: string, files: string[]) => {
  let total = 0;
  for (const f of files) total += (await stat(segmentFile(group, f))).size;
  return total;
};
/** The playlist with its segments fetched through a proxy. */
const throughProxy = (playlist: ResolvedVodMedia["videoPlaylist"], proxy: HoldingProxy) => ({
  ...playlist,
  segments: playlist.segments.map((s) => ({ ...s, uri: proxy.via(s.uri) })),
});
const fileOf = (uri: string) => new URL(uri).pathname.split("/").pop()!;

describe("resolveVodMedia", () => {
  it("picks the source and audio-only renditions and reads both playlists", () => {
    expect(media.probe).toMatchObject({ vod_id: VOD, usable: true, duration_seconds: 95 });
    expect(media.source).toMatchObject({ group_id: "chunked", source: true });
    expect(media.audio).toMatchObject({ group_id: "audio_only", audio_only: true });
    expect(media.videoPlaylist.segments).toHaveLength(10);
    expect(media.audioPlaylist.segments).toHaveLength(10);
    expect(media.videoPlaylist.segments[5]!.muted).toBe(true);
    expect(media.videoPlaylist.total_duration).toBeCloseTo(95, 0);
  });

  describe("unusable VODs become coded errors", () => {
    let root: string;
    let other: TwitchServer;
    beforeAll(async () => {
      root = await mkdtemp(path.join(os.tmpdir(), "source-unusable-"));
      const base = { title: "x", lengthSeconds: 60, renditions: [] };
      const vods: Record<string, object> = {
        "11": { ...base, access: { deleted: true } },
        "12": { ...base, status: "RECORDING" },
        "13": { ...base, access: { private: true } },
        "14": { ...base, access: { subscriber_only: true }, renditions: [{ group_id: "chunked", name: "720p30", bandwidth: 1, codecs: "avc1.64001F,mp4a.40.2" }] },
      };
      for (const [id, v] of Object.entries(vods)) {
        await mkdir(path.join(root, id), { recursive: true });
        await writeFile(path.join(root, id, "video.json"), JSON.stringify(v));
      }
      other = await startTwitchServer({ root });
    });
    afterAll(async () => {
      await other.close();
      await rm(root, { recursive: true, force: true });
    });

    it.each([
      ["11", "vod_deleted"],
      ["99", "vod_deleted"],
      ["12", "vod_live"],
      ["13", "vod_private"],
      ["14", "vod_subscriber_only"],
    ])("VOD %s -> %s", async (id, code) => {
      const error = await resolveVodMedia({ gqlUrl: other.gqlUrl, usherUrl: other.usherUrl }, id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceError);
      expect((error as SourceError).code).toBe(code);
      expect((error as Error).message.length).toBeGreaterThan(20);
    });

    it("Twitch down -> twitch_unavailable", async () => {
      other.faults.gqlStatus = 503;
      const error = await resolveVodMedia({ gqlUrl: other.gqlUrl, usherUrl: other.usherUrl, retryDelayMs: 5 }, "11").catch((e: unknown) => e);
      other.faults.gqlStatus = null;
      expect((error as SourceError).code).toBe("twitch_unavailable");
    });
  });
});

describe("renditions reserved for subscribers", () => {
  let root: string;
  let other: TwitchServer;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "source-restricted-"));
    await writeMetadataVods(root);
    other = await startTwitchServer({ root });
  });
  afterAll(async () => {
    await other.close();
    await rm(root, { recursive: true, force: true });
  });

  it("are never picked: the source falls back to the best open quality", async () => {
    const open = await resolveVodMedia({ gqlUrl: other.gqlUrl, usherUrl: other.usherUrl }, VODS.ok);
    expect(open.source.group_id).toBe("chunked");
    // VODS.restrictedSome: the token lists "chunked" in chansub.restricted_bitrates.
    const some = await resolveVodMedia({ gqlUrl: other.gqlUrl, usherUrl: other.usherUrl }, VODS.restrictedSome);
    expect(some.source.group_id).toBe("360p30");
    expect(some.audio.group_id).toBe("audio_only");
  });
});

describe("coveringSegmentGroups", () => {
  it("merges overlapping and touching ranges and pads a little", () => {
    const groups = coveringSegmentGroups(media.videoPlaylist, [
      { start: 22, end: 34 },
      { start: 33, end: 41 },
      { start: 71, end: 75 },
      { start: 91.5, end: 200 },
      { start: 5, end: 5 },
    ]);
    expect(groups.map((g) => g.map((s) => s.index))).toEqual([[2, 3, 4], [7], [9]]);
  });
});

describe("downloadAudio", () => {
  it("joins the whole audio rendition into one file that starts at VOD time 0", async () => {
    const counter = new ByteCounter();
    const progress: number[] = [];
    const audio = await downloadAudio(media.audioPlaylist, path.join(work, "audio"), {
      concurrency: 3,
      counter,
      onProgress: (f) => progress.push(f),
    });
    const expected = await sizeOf("audio_only", truth.renditions.audio_only.map((s) => s.file));
    expect(audio.bytes).toBe(expected);
    expect((await stat(audio.path)).size).toBe(expected);
    expect(counter.total).toBe(expected);
    expect(server.stats.bytes.segment).toBe(expected);
    expect(progress.at(-1)).toBe(1);
    expect(audio.muted_ranges).toHaveLength(1);
    expect(audio.muted_ranges[0]!.start).toBeCloseTo(50, 0);
    expect(audio.muted_ranges[0]!.end).toBeCloseTo(60, 0);
    // Loud where the generator planted the hype moment, silent where Twitch muted.
    const rms = await rmsPerSecond(audio.path);
    expect(rms.length).toBeGreaterThanOrEqual(94);
    expect(Math.max(...rms.slice(30, 34))).toBeGreaterThan(-20);
    expect(rms[55]).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe("downloadCoveringSegments", () => {
  it("fetches only the segments covering the ranges, one file per merged group", async () => {
    const counter = new ByteCounter();
    const clips = await downloadCoveringSegments(
      media.videoPlaylist,
      [
        { start: 22, end: 34 },
        { start: 33, end: 41 },
        { start: 71, end: 75 },
      ],
      path.join(work, "video"),
      { concurrency: 2, counter },
    );
    expect(clips.map((c) => [c.media_start_seconds, c.media_end_seconds])).toEqual([
      [20, 50],
      [70, 80],
    ]);
    const wanted = ["2.ts", "3.ts", "4.ts", "7.ts"];
    expect(server.stats.segmentsServed.map((p) => p.split("/").pop()).sort()).toEqual(wanted.sort());
    const expected = await sizeOf("chunked", wanted);
    expect(server.stats.bytes.segment).toBe(expected);
    expect(counter.total).toBe(expected);
    expect(clips.reduce((s, c) => s + c.bytes, 0)).toBe(expected);
    const joined = Buffer.concat(await Promise.all(["2.ts", "3.ts", "4.ts"].map((f) => readFile(segmentFile("chunked", f)))));
    expect((await readFile(clips[0]!.path)).equals(joined)).toBe(true);
    expect(clips.every((c) => c.muted_ranges.length === 0)).toBe(true);
  });

  it("fetches separate moments in parallel, never more than `concurrency` segments at once", async () => {
    // The proxy holds the first requests until `concurrency` of them are open together, so they overlap however
    // slowly a loaded machine sends them; the server's latency then keeps them open while a request beyond the
    // bound could still arrive.
    server.faults.latencyMs = 150;
    const batch = holdFirstBatch(3);
    const proxy = await startHoldingProxy(server.url, batch);
    try {
      const ranges = [1, 31, 61, 81].map((t) => ({ start: t, end: t + 1 }));
      const clips = await downloadCoveringSegments(throughProxy(media.videoPlaylist, proxy), ranges, path.join(work, "parallel"), { concurrency: 3 });
      expect(clips.map((c) => c.media_start_seconds)).toEqual([0, 30, 60, 80]);
      // One segment per moment: before the groups shared their slots these went one at a time (the first three
      // would then never be open together and the batch would end by its timeout).
      expect(batch.timedOut).toBe(false);
      expect(proxy.maxOpen).toBe(3);
      expect(server.stats.maxConcurrent.segment).toBeLessThanOrEqual(3);
      expect(proxy.answered.map((p) => p.split("/").pop()).sort()).toEqual(["0.ts", "3.ts", "6.ts", "8.ts"]);
      for (const [clip, f] of clips.map((c, i) => [c, ["0.ts", "3.ts", "6.ts", "8.ts"][i]!] as const)) {
        expect((await readFile(clip.path)).equals(await readFile(segmentFile("chunked", f)))).toBe(true);
      }
    } finally {
      await proxy.close();
    }
    server.stats.reset();
    const pairs = holdFirstBatch(2);
    const bounded = await startHoldingProxy(server.url, pairs);
    try {
      const all = await downloadCoveringSegments(
        throughProxy(media.videoPlaylist, bounded),
        [0, 20, 40, 60, 80].map((t) => ({ start: t + 1, end: t + 12 })),
        path.join(work, "bounded"),
        { concurrency: 2 },
      );
      expect(pairs.timedOut).toBe(false);
      expect(bounded.maxOpen).toBe(2);
      expect(server.stats.maxConcurrent.segment).toBeLessThanOrEqual(2);
      expect(server.stats.requests.segment).toBe(10);
      expect(all.reduce((n, c) => n + c.bytes, 0)).toBe(await sizeOf("chunked", truth.renditions.chunked.map((x) => x.file)));
    } finally {
      await bounded.close();
    }
  });

  it("notes muted segments", async () => {
    const [clip] = await downloadCoveringSegments(media.videoPlaylist, [{ start: 52, end: 58 }], path.join(work, "muted"));
    expect(clip!.muted_ranges).toEqual([{ start: 50, end: 60 }]);
    expect(server.stats.segmentsServed).toEqual([`${VOD}/chunked/5-muted.ts`]);
  });

  it("retries a flaky segment (503s, then a dropped connection) and still writes the exact bytes", async () => {
    server.failSegment(`${VOD}/chunked/3.ts`, 2, "status");
    server.failSegment(`${VOD}/chunked/4.ts`, 1, "reset");
    const [clip] = await downloadCoveringSegments(media.videoPlaylist, [{ start: 31, end: 48 }], path.join(work, "flaky"), {
      retryDelayMs: 10,
    });
    const joined = Buffer.concat(await Promise.all(["3.ts", "4.ts"].map((f) => readFile(segmentFile("chunked", f)))));
    expect((await readFile(clip!.path)).equals(joined)).toBe(true);
    // 3.ts: two 503s then success; 4.ts: one broken transfer then success.
    expect(server.stats.requests.segment).toBe(3 + 2);
  });

  it("gives up with vod_segment_unavailable when a segment keeps failing", async () => {
    server.failSegment(`${VOD}/chunked/6.ts`, 10, "status");
    const error = await downloadCoveringSegments(media.videoPlaylist, [{ start: 61, end: 69 }], path.join(work, "dead"), {
      retries: 2,
      retryDelayMs: 5,
    }).catch((e: unknown) => e);
    server.failSegment(`${VOD}/chunked/6.ts`, 0);
    expect((error as SourceError).code).toBe("vod_segment_unavailable");
    expect(server.stats.requests.segment).toBe(3);
  });

  it("does not repeat a segment answered with a 4xx other than 403/404 (a definite refusal)", async () => {
    server.failSegment(`${VOD}/chunked/6.ts`, 5, "status", 410);
    const error = await downloadCoveringSegments(media.videoPlaylist, [{ start: 61, end: 69 }], path.join(work, "gone"), {
      retries: 3,
      retryDelayMs: 5,
    }).catch((e: unknown) => e);
    server.failSegment(`${VOD}/chunked/6.ts`, 0);
    expect((error as SourceError).code).toBe("vod_segment_unavailable");
    expect((error as Error).message).toMatch(/HTTP 410/);
    expect(server.stats.requests.segment).toBe(1);
  });

  it("one moment's failure stops the others and is the error reported", async () => {
    // The other moments' segments are held until their requests are dropped: the call can only settle, with
    // their files still empty, if the failure of 6.ts stops them mid-request.
    server.failSegment(`${VOD}/chunked/6.ts`, 5, "status", 410);
    const proxy = await startHoldingProxy(server.url, holdUntilDropped((p) => !p.endsWith("/6.ts")));
    const dir = path.join(work, "one-fails");
    try {
      const error = await downloadCoveringSegments(
        throughProxy(media.videoPlaylist, proxy),
        [1, 61, 81].map((t) => ({ start: t, end: t + 1 })),
        dir,
        { concurrency: 3 },
      ).catch((e: unknown) => e);
      expect((error as SourceError).code).toBe("vod_segment_unavailable");
      expect((error as Error).message).toMatch(/part 6 /);
      // The other two were requested, and the client closed both unanswered (the proxy never let them through).
      await expect.poll(() => proxy.open, { timeout: 5000 }).toBe(0);
      const names = (paths: string[]) => paths.map((p) => p.split("/").pop()).sort();
      expect(names(proxy.dropped)).toEqual(["0.ts", "8.ts"]);
      expect(names(proxy.answered)).toEqual(["6.ts"]);
      expect(server.stats.requests.segment).toBe(1);
      expect(server.stats.segmentsServed).toEqual([]);
      for (const f of ["clip-0-0.ts", "clip-8-8.ts"]) expect((await stat(path.join(dir, f))).size).toBe(0);
    } finally {
      server.failSegment(`${VOD}/chunked/6.ts`, 0);
      await proxy.close();
    }
  });

  it("falls back to the -muted name when a listed part was muted after the fact", async () => {
    const seg5 = media.videoPlaylist.segments[5]!;
    const listedPlain = { ...media.videoPlaylist, segments: [{ ...seg5, uri: seg5.uri.replace("5-muted.ts", "5.ts"), muted: false }] };
    const [clip] = await downloadCoveringSegments(listedPlain, [{ start: 52, end: 58 }], path.join(work, "twin"));
    expect(clip!.muted_ranges).toEqual([{ start: 50, end: 60 }]);
    expect(clip!.bytes).toBe(await sizeOf("chunked", ["5-muted.ts"]));
  });

  it("stops at maxBytes with source_too_large", async () => {
    const error = await downloadCoveringSegments(media.videoPlaylist, [{ start: 0, end: 95 }], path.join(work, "big"), {
      maxBytes: 100_000,
      concurrency: 1,
    }).catch((e: unknown) => e);
    expect((error as SourceError).code).toBe("source_too_large");
    expect((error as Error).message).toMatch(/more than \d+ MB of source video; ask for a shorter reel or fewer shorts/);
    expect(server.stats.bytes.segment).toBeLessThan(await sizeOf("chunked", truth.renditions.chunked.map((s) => s.file)));
    // The bound holds on disk: the write that would cross it never happens.
    const written = await Promise.all((await readdir(path.join(work, "big"))).map((f) => stat(path.join(work, "big", f))));
    expect(written.reduce((n, f) => n + f.size, 0)).toBeLessThanOrEqual(100_000);
  });

  it("stops with disk_full before a write would leave less than minFreeBytes free, and says how much is free", async () => {
    const error = await downloadCoveringSegments(media.videoPlaylist, [{ start: 0, end: 25 }], path.join(work, "nodisk"), {
      minFreeBytes: Number.MAX_SAFE_INTEGER,
    }).catch((e: unknown) => e);
    expect((error as SourceError).code).toBe("disk_full");
    expect((error as Error).message).toMatch(/\d+ MB free, \d+ MB to write, \d+ MB must stay free/);
    expect((await stat(path.join(work, "nodisk", "clip-0-2.ts"))).size).toBe(0);
    // The job error keeps the code and the readable message.
    expect(toJobError(error)).toMatchObject({ code: "disk_full", message: (error as Error).message });
  });

  it("turns a write the disk refuses (ENOSPC, here /dev/full) into disk_full", async () => {
    const error = await downloadSegmentsToFile(media.audioPlaylist.segments.slice(0, 2), "/dev/full", { minFreeBytes: 0 }).catch((e: unknown) => e);
    expect((error as SourceError).code).toBe("disk_full");
    expect((error as Error).message).toMatch(/no space left/);
    expect(((error as Error).cause as NodeJS.ErrnoException).code).toBe("ENOSPC");
  });

  it("is abortable", async () => {
    server.faults.latencyMs = 300;
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error("job cancelled")), 50);
    const error = await downloadCoveringSegments(media.videoPlaylist, [{ start: 0, end: 95 }], path.join(work, "abort"), {
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("job cancelled");
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("a trim at a planted time in the joined file matches the same VOD time in the whole rendition", async () => {
    const hype = truth.moments.find((m) => m.kind === "hype")!;
    const at = hype.peak + 0.5;
    const [clip] = await downloadCoveringSegments(media.videoPlaylist, [{ start: hype.setup_start, end: hype.end }], path.join(work, "accuracy"));
    const whole = `concat:${media.videoPlaylist.segments.map((s) => segmentFile("chunked", fileOf(s.uri))).join("|")}`;

    const frame = async (input: string, t: number) =>
      (
        await exec("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", input, "-vf", `trim=start=${t},setpts=PTS-STARTPTS`, "-frames:v", "1", "-pix_fmt", "gray", "-f", "rawvideo", "-"], {
          encoding: "buffer",
          maxBuffer: 1 << 24,
        })
      ).stdout;
    const pcm = async (input: string, t: number) =>
      (
        await exec("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", input, "-vn", "-af", `atrim=start=${t}:duration=1,asetpts=PTS-STARTPTS`, "-ac", "1", "-f", "s16le", "-"], {
          encoding: "buffer",
          maxBuffer: 1 << 24,
        })
      ).stdout;
    const meanDiff = (a: Buffer, b: Buffer) => {
      let sum = 0;
      const n = Math.min(a.length, b.length);
      for (let i = 0; i < n; i++) sum += Math.abs(a[i]! - b[i]!);
      return sum / n;
    };
    const local = at - clip!.media_start_seconds;
    const reference = await frame(whole, at);
    expect(meanDiff(await frame(clip!.path, local), reference)).toBeLessThan(1);
    // The picture moves every frame, so two frames off would show.
    expect(meanDiff(await frame(whole, at + 2 / 30), reference)).toBeGreaterThan(1);

    // Pictures repeat every 10 s within a scene; the sound does not, so it pins the time down.
    const a = await pcm(clip!.path, local);
    const b = await pcm(whole, at);
    expect(a.length).toBeGreaterThan(90_000);
    let diff = 0;
    for (let i = 0; i < Math.min(a.length, b.length) / 2; i++) diff = Math.max(diff, Math.abs(a.readInt16LE(i * 2) - b.readInt16LE(i * 2)));
    expect(diff).toBeLessThan(200);
    // And it is the planted burst.
    const rms = await rmsPerSecond(clip!.path);
    expect(rms[Math.floor(hype.peak - clip!.media_start_seconds)]).toBeGreaterThan(-20);
  });
});
