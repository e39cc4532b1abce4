import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { JobPlan, type ReelMomentTask, type TaskResult } from "../../common/contract/job-plan";
import { Manifest, type ArtifactRef } from "../../common/contract/render";
import { reelEditTimeline } from "../../common/handoff/edit-timeline";
import { commentText, formatEdl } from "../../common/handoff/edl";
import { editRate, pieceBoundaries, timecode, toFrames } from "../../common/handoff/frames";
import { formatOtio } from "../../common/handoff/otio";
import { finaliseJob } from "../../common/plan/finalise";
import { readTimeline, type OtioTimeline } from "../support/otio-reader";
import { handMadePlan, planMoment } from "../renderer/pipeline/task-fixtures";

/**
 * The editor hand-off of a reel: its cuts as OpenTimelineIO and as a CMX 3600 EDL, written by the finalising step,
 * read back by OpenTimelineIO's own readers (v0.11, vendored: test/support/otio-reader/), and checked against the
 * manifest's highlights and the reel's length.
 */

const VOD_URL = "https://www.twitch.tv/videos/2234567890";
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "handoff-"));
});

async function saved(name: string, body: string): Promise<string> {
  const file = path.join(tmp, name);
  await writeFile(file, body);
  return file;
}

const reelMoment = (id: string, position: number, start: number, end: number, teasers: ReelMomentTask["teasers"] = []): ReelMomentTask => ({
  kind: "reel_moment",
  id: `reel-balanced-${id}`,
  run_name: "balanced",
  moment_id: id,
  position,
  start,
  end,
  snap: { min_start: 0, max_end: 3600, min_duration: 10, max_duration: 60 },
  title_text: null,
  teasers,
  expected_encode_seconds: end - start,
});

/** One reel of two highlights, a teaser cut from the first, and a short of a third moment; the VOD at 60 fps. */
function plan(source: Partial<JobPlan["source"]> = { vod_url: VOD_URL, frame_rate: 60 }): JobPlan {
  const moments = [planMoment("m1", 100.2, 130.4, 120, { title: "The clutch" }), planMoment("m2", 300, 340, 330, { title: "The fall" }), planMoment("m3", 900, 930, 915, { highlight: false })];
  const tasks = [
    reelMoment("m1", 1, 100.2, 130.4, [{ position: 0, start: 118, end: 122 }]),
    reelMoment("m2", 2, 300, 340),
    { kind: "reel_join" as const, id: "reel-balanced-join", run_name: "balanced" as const, depends_on: ["reel-balanced-m1", "reel-balanced-m2"], pieces: 3, thumbnail_at: 1, title: "Best of the night", description: "d", tags: [], expected_encode_seconds: 1 },
  ];
  const p = handMadePlan("job_handoff", 3600, moments, tasks);
  return JobPlan.parse({ ...p, source: { ...p.source, ...source } });
}

const part = (position: number, seconds: number) => ({ position, name: `part-balanced-${String(position).padStart(3, "0")}.mp4`, size_bytes: 1000, duration_seconds: seconds });
const reelRef = (seconds: number): ArtifactRef & { run_name: "balanced" } => ({ name: "reel-balanced.mp4", kind: "reel", content_type: "video/mp4", size_bytes: 5000, run_name: "balanced", index: null, title: "Best of the night", duration_seconds: seconds, tags: [] });

/**
 * What the render tasks reported: m1 snapped to 98.61234-131.9 (its part 33.3 s: the encoder's 30 fps grid), the
 * teaser 4 s, m2 unmoved (40 s); the joined reel measured 77.312 s (its audio runs a few ms past the video).
 */
const REEL_SECONDS = 77.312;
const results = (): TaskResult[] => [
  { kind: "reel_moment", parts: [part(0, 4), part(1, 33.3)], moment: { id: "m1", start: 98.61234, end: 131.9 } },
  { kind: "reel_moment", parts: [part(2, 40)], moment: { id: "m2", start: 300, end: 340 } },
  { kind: "reel_join", artifacts: [reelRef(REEL_SECONDS)] },
];

async function finalised(p = plan()) {
  const written = new Map<string, { body: string; contentType?: string }>();
  const out = await finaliseJob(p, results(), async (name, body, contentType) => {
    written.set(name, { body, contentType });
    return { size_bytes: Buffer.byteLength(body) };
  });
  return { out, written, manifest: Manifest.parse(JSON.parse(written.get("manifest.json")!.body)) };
}

describe("frames and timecodes", () => {
  it("uses the VOD's frame rate, rounded, as the edit rate; 30 when it is not known", () => {
    expect([60, 59.94, 30, 29.97, null, undefined, Number.NaN, 0, 1000].map(editRate)).toEqual([60, 60, 30, 30, 30, 30, 30, 30, 30]);
  });

  it("writes non-drop-frame HH:MM:SS:FF, wrapping past 24 hours", () => {
    expect(timecode(0, 30)).toBe("00:00:00:00");
    expect(timecode(3661 * 30 + 29, 30)).toBe("01:01:01:29");
    expect(timecode(3661 * 60 + 59, 60)).toBe("01:01:01:59");
    expect(timecode(25 * 3600 * 30 + 1, 30)).toBe("01:00:00:01");
    expect(toFrames(100.1, 30)).toBe(3003);
  });

  it("puts every boundary of 500 pieces within half a frame of its exact time and ends at the video's length (no drift)", () => {
    // Pieces on the encoder's 30 fps grid, at a 60 fps edit rate and at 30; a reel whose audio runs 11 ms longer.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const seconds = Array.from({ length: 500 }, () => Math.round((2 + rnd() * 40) * 30) / 30 + 0.0004);
    const total = seconds.reduce((a, b) => a + b, 0) + 0.011;
    for (const rate of [30, 60]) {
      const at = pieceBoundaries(seconds, total, rate);
      let sum = 0;
      seconds.slice(0, -1).forEach((s, i) => {
        sum += s;
        expect(Math.abs(at[i + 1]! - sum * rate)).toBeLessThanOrEqual(0.5 + 1e-6);
      });
      const lengths = at.slice(1).map((b, i) => b - at[i]!);
      expect(lengths.every((n) => n >= 1)).toBe(true);
      expect(lengths.reduce((a, b) => a + b, 0)).toBe(Math.round(total * rate));
    }
    // Rounding each length on its own instead would have drifted: the point of rounding running sums.
    const naive = seconds.reduce((n, s) => n + Math.round(s * 60), 0);
    expect(naive).not.toBe(Math.round(total * 60));
  });
});

describe("a reel's editor timeline, as OpenTimelineIO reads it", () => {
  let otio: OtioTimeline;
  let edl: OtioTimeline;
  let manifest: Manifest;
  let out: Awaited<ReturnType<typeof finalised>>["out"];
  let edlText: string;

  beforeAll(async () => {
    const f = await finalised();
    ({ manifest, out } = f);
    expect(f.written.get("reel-balanced.otio")!.contentType).toBe("application/json");
    expect(f.written.get("reel-balanced.edl")!.contentType).toMatch(/^text\/plain/);
    edlText = f.written.get("reel-balanced.edl")!.body;
    otio = await readTimeline("otio", await saved("reel-balanced.otio", f.written.get("reel-balanced.otio")!.body));
    edl = await readTimeline("edl", await saved("reel-balanced.edl", edlText), 60);
  }, 60_000);

  it("is delivered beside the reel and listed in the manifest", () => {
    const refs = out.artifacts.filter((a) => a.kind === "timeline" || a.kind === "edl");
    expect(refs.map((a) => [a.name, a.kind, a.run_name, a.duration_seconds])).toEqual([
      ["reel-balanced.otio", "timeline", "balanced", REEL_SECONDS],
      ["reel-balanced.edl", "edl", "balanced", REEL_SECONDS],
    ]);
    expect(manifest.artifacts.assets.timelines.map((a) => a.name)).toEqual(["reel-balanced.otio"]);
    expect(manifest.artifacts.assets.edls.map((a) => a.name)).toEqual(["reel-balanced.edl"]);
    // manifest.json is still the last file, and lists every other one.
    expect(out.artifacts.at(-1)!.name).toBe("manifest.json");
  });

  it("has a video and an audio track of the reel's pieces in order, on the source VOD's clock", () => {
    expect(otio.name).toBe("Best of the night");
    expect(otio.global_start_time).toMatchObject({ value: 0, rate: 60 });
    expect(otio.tracks.map((t) => [t.kind, t.items.map((c) => c.name)])).toEqual([
      ["Video", ["Teaser: The clutch", "The clutch", "The fall"]],
      ["Audio", ["Teaser: The clutch", "The clutch", "The fall"]],
    ]);
    for (const clip of otio.tracks[0]!.items) {
      expect(clip.schema).toBe("Clip");
      expect(clip.media_reference).toMatchObject({ schema: "ExternalReference", target_url: VOD_URL });
      expect(clip.media_reference!.available_range).toMatchObject({ start: { seconds: 0 }, duration: { seconds: 3600, rate: 60 } });
    }
    // The teaser is cut from inside the first moment, as planned.
    expect(otio.tracks[0]!.items[0]!.source_range!.start.seconds).toBe(118);
  });

  it("has clip ranges equal to the manifest's highlights (exactly in seconds, and to the frame on the timeline)", () => {
    const clips = otio.tracks[0]!.items.filter((c) => (c.metadata.highlights as { kind: string }).kind === "moment");
    const highlights = manifest.highlights.filter((h) => h.run_name === "balanced");
    expect(clips).toHaveLength(highlights.length);
    clips.forEach((clip, i) => {
      const h = highlights[i]!;
      expect(clip.metadata.highlights).toMatchObject({ vod_start: h.start, vod_end: h.end });
      const r = clip.source_range!;
      // The clip starts on the frame nearest the highlight's start, and lasts what its encoded part lasts: the
      // highlight on the reel encoder's 30 fps grid, so its end is within one reel frame (and half an edit frame).
      expect(Math.abs(r.start.seconds - h.start)).toBeLessThanOrEqual(0.5 / 60 + 1e-9);
      expect(Math.abs(r.start.seconds + r.duration.seconds - h.end)).toBeLessThanOrEqual(1 / 30 + 0.5 / 60 + 1e-9);
    });
    expect(highlights.map((h) => [h.start, h.end])).toEqual([
      [98.612, 131.9],
      [300, 340],
    ]);
  });

  it("lasts as long as the reel, its clips one after another from 00:00:00:00", () => {
    for (const track of otio.tracks) {
      expect(track.duration.value).toBe(Math.round(REEL_SECONDS * 60));
      let at = 0;
      for (const clip of track.items) {
        expect(clip.range_in_parent.start.value).toBe(at);
        at += clip.range_in_parent.duration.value;
      }
    }
  });

  it("as an EDL: the same cuts, source timecodes on the VOD's clock, record timecodes adding up to the reel's length", () => {
    // OpenTimelineIO's reader refuses an event whose source and record lengths differ, or records that overlap.
    expect(edl.name).toBe("Best of the night");
    expect(edl.tracks.map((t) => t.name)).toEqual(["V", "A1", "A2"]);
    const [v] = edl.tracks;
    expect(v!.items.map((c) => c.name)).toEqual(["Teaser: The clutch", "The clutch", "The fall"]);
    expect(v!.items.map((c) => [c.source_range!.start.value, c.source_range!.duration.value])).toEqual(otio.tracks[0]!.items.map((c) => [c.source_range!.start.value, c.source_range!.duration.value]));
    expect(v!.items.every((c) => c.media_reference?.target_url === VOD_URL)).toBe(true);
    for (const t of edl.tracks) expect(t.duration.value).toBe(Math.round(REEL_SECONDS * 60));
    // And read by hand: the record timecodes of the event lines, summed.
    const frames = (s: string) => {
      const [h, m, sec, f] = s.split(":").map(Number);
      return ((h! * 60 + m!) * 60 + sec!) * 60 + f!;
    };
    const events = edlText.split("\n").filter((l) => /^\d{3}  /.test(l)).map((l) => l.trim().split(/\s+/));
    expect(events.map((e) => e.slice(1, 4))).toEqual([["AX", "AA/V", "C"], ["AX", "AA/V", "C"], ["AX", "AA/V", "C"]]);
    expect(events[0]!.slice(-2)[0]).toBe("00:00:00:00");
    expect(events.reduce((n, e) => n + frames(e[7]!) - frames(e[6]!), 0)).toBe(Math.round(REEL_SECONDS * 60));
    expect(edlText).toContain("FCM: NON-DROP FRAME");
  });
});

describe("timelines of other reels", () => {
  it("a plan from before the VOD's URL and rate were recorded: 30 fps, a reference without a URL, still readable", async () => {
    const p = plan({});
    delete p.source.vod_url;
    delete p.source.frame_rate;
    const timeline = reelEditTimeline(p, results(), reelRef(REEL_SECONDS))!;
    expect(timeline.rate).toBe(30);
    const otio = await readTimeline("otio", await saved("old.otio", formatOtio(timeline)));
    expect(otio.tracks[0]!.items[0]!.media_reference!.target_url).toBeNull();
    const edl = await readTimeline("edl", await saved("old.edl", formatEdl(timeline)), 30);
    expect(edl.tracks[0]!.duration.value).toBe(Math.round(REEL_SECONDS * 30));
  });

  it("no timeline for a reel whose parts are not all among the results", () => {
    const partial = results().filter((r) => !(r.kind === "reel_moment" && r.moment.id === "m2"));
    expect(reelEditTimeline(plan(), partial, reelRef(REEL_SECONDS))).toBeNull();
  });

  it("a long reel of 200 pieces: every cut within half a frame of its place in the reel, the EDL's records adding up to its length", async () => {
    const moments = Array.from({ length: 200 }, (_, i) => planMoment(`m${i}`, 100 + i * 60, 110.37 + i * 60 + (i % 7) * 1.1, 105 + i * 60, { title: `Moment ${i} — «ünïcode»` }));
    const tasks = moments.map((m, i) => ({ ...reelMoment(m.id, i, m.start, m.end), id: `reel-balanced-x${i}` }));
    const p = JobPlan.parse({ ...handMadePlan("job_long", 20_000, moments, tasks), source: { duration_seconds: 20_000, video_rendition: "chunked", format_switches: [], vod_url: VOD_URL, frame_rate: 30 } });
    // Each part on the encoder's 30 fps grid plus its audio's few ms; the reel their sum.
    const parts = moments.map((m, i) => part(i, Math.round((m.end - m.start) * 30) / 30 + 0.003));
    const reelSeconds = parts.reduce((n, x) => n + x.duration_seconds, 0);
    const res: TaskResult[] = [{ kind: "reel_moment", parts, moment: { id: "unused", start: 0, end: 1 } }];
    const timeline = reelEditTimeline(p, res, reelRef(reelSeconds))!;
    const edl = await readTimeline("edl", await saved("long.edl", formatEdl(timeline)), 30);
    const v = edl.tracks[0]!;
    expect(v.items).toHaveLength(200);
    expect(v.duration.value).toBe(Math.round(reelSeconds * 30));
    let exact = 0;
    v.items.forEach((c, i) => {
      expect(Math.abs(c.range_in_parent.start.value - exact * 30)).toBeLessThanOrEqual(0.5 + 1e-6);
      exact += parts[i]!.duration_seconds;
    });
    // Titles in any script reach the EDL as printable ASCII (the .otio keeps them as they are).
    expect(formatEdl(timeline)).toContain('* FROM CLIP NAME: Moment 0 - "unicode"');
    expect(commentText("SynthStreamer yells \u201cno way\u201d \u2014 Pokémon\u2026 ドラゴン")).toBe('SynthStreamer yells "no way" - Pokemon... ????');
    const otio = await readTimeline("otio", await saved("long.otio", formatOtio(timeline)));
    expect(otio.tracks[0]!.items[0]!.name).toBe("Moment 0 — «ünïcode»");
  }, 60_000);
});
