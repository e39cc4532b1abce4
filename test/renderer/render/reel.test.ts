import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { runFfmpeg } from "../../../render-container/src/ffmpeg/run-ffmpeg";
import { concatListLine } from "../../../render-container/src/render/concat";
import { mapLimit } from "../../../render-container/src/render/pool";
import { renderReel } from "../../../render-container/src/render/render-reel";
import { makeThumbnail } from "../../../render-container/src/render/thumbnail";
import type { Size } from "../../../render-container/src/render/types";
import { readFrameRgb, regionDifference, regionMean, type TestClip } from "../../support/media";
import { renderTestSource, SOURCE_START, truthFrame } from "./fixtures";
import { expectFaststart, topLevelBoxes } from "./mp4-boxes";

const HD: Size = { width: 1280, height: 720 };
let clip: TestClip;
let dir: string;

beforeAll(async () => {
  clip = await renderTestSource();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "reel-test-"));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("renderReel with cold open and title cards", () => {
  const S = SOURCE_START;
  // Pieces in play order: two teaser snippets, then two segments. Planned total: 2 + 2.5 + 5 + 6 = 15.5 s.
  const coldOpen = [
    { start: S + 12, end: S + 14 },
    { start: S + 3, end: S + 5.5 },
  ];
  const segments = [
    { start: S + 1, end: S + 6, titleText: "Clutch: 1v3 at 100% \"HP\"" },
    { start: S + 10, end: S + 16, titleText: null },
  ];
  let out: string;
  const fractions: number[] = [];

  beforeAll(async () => {
    out = path.join(dir, "reel.mp4");
    const r = await renderReel({
      segments: segments.map((s) => ({ clip, ...s })),
      coldOpen: coldOpen.map((s) => ({ clip, ...s })),
      titleCards: true,
      out,
      onProgress: (f) => fractions.push(f),
    });
    expect(r.path).toBe(out);
    expect(r.size_bytes).toBe((await fs.stat(out)).size);
  });

  it("is a 1280x720 H.264/AAC faststart MP4 whose length is the sum of its pieces", async () => {
    await expectFaststart(out);
    const info = await probeMedia(out);
    expect([info.video?.width, info.video?.height]).toEqual([1280, 720]);
    expect(info.video?.codecName).toBe("h264");
    expect(info.video?.pixFmt).toBe("yuv420p");
    expect(info.audio?.codecName).toBe("aac");
    expect(Math.abs(info.durationSeconds - 15.5)).toBeLessThan(0.15);
    expect(Math.abs((info.video?.durationSeconds ?? 0) - 15.5)).toBeLessThan(0.1);
    expect(Math.abs((info.audio?.durationSeconds ?? 0) - 15.5)).toBeLessThan(0.15);
  });

  it("reports monotonic progress ending at 1", () => {
    expect(fractions.at(-1)).toBe(1);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]!).toBeGreaterThanOrEqual(fractions[i - 1]!);
  });

  /** Reel time -> which source frame should be on screen there. */
  const expectations = [
    { at: 1.0, sourceOffset: 13.0, label: "first teaser snippet" },
    { at: 3.5, sourceOffset: 4.5, label: "second teaser snippet" },
    { at: 4.5 + 3.0, sourceOffset: 4.0, label: "first segment, after its title" },
    { at: 9.5 + 3.0, sourceOffset: 13.0, label: "second segment" },
  ];
  for (const e of expectations) {
    it(`plays the pieces in order, frame-accurately: ${e.label}`, async () => {
      const f = await readFrameRgb(out, e.at, HD);
      const diffs: number[] = [];
      for (const d of [-1, 0, 1]) diffs.push(regionDifference(f, await truthFrame(e.sourceOffset * 30 + d, "null", HD), { x: 0, y: 0, w: 1280, h: 500 }));
      expect(diffs[1], `diffs ${diffs.map((x) => x.toFixed(2))}`).toBeLessThan(4);
      expect(diffs[1]).toBeLessThan(Math.min(diffs[0]!, diffs[2]!));
    });
  }

  it("shows the segment title as a lower third only at the start of its segment", async () => {
    const lowerThird = { x: 40, y: 520, w: 900, h: 120 };
    const withTitle = regionDifference(await readFrameRgb(out, 4.5 + 1.0, HD), await truthFrame(2.0 * 30, "null", HD), lowerThird);
    expect(withTitle).toBeGreaterThan(10);
    const afterTitle = regionDifference(await readFrameRgb(out, 4.5 + 4.5, HD), await truthFrame(5.5 * 30, "null", HD), lowerThird);
    expect(afterTitle).toBeLessThan(4);
  });

  it("dips to black at each join", async () => {
    const full = { x: 0, y: 0, w: 1280, h: 720 };
    const brightness = async (t: number) => Math.max(...regionMean(await readFrameRgb(out, t, HD), full));
    for (const join of [2, 4.5, 9.5]) {
      expect(await brightness(join - 0.02)).toBeLessThan(40);
      expect(await brightness(join + 0.02)).toBeLessThan(40);
    }
    expect(await brightness(7)).toBeGreaterThan(80);
  });

  it("opens on a picture, not on a frame faded to black", async () => {
    const first = await readFrameRgb(out, 0, HD);
    expect(Math.max(...regionMean(first, { x: 0, y: 0, w: 1280, h: 720 }))).toBeGreaterThan(80);
  });

  it("makes a 1280x720 JPEG thumbnail", async () => {
    const t = await makeThumbnail(out, 7, path.join(dir, "reel.jpg"));
    const info = await probeMedia(t.path);
    expect(info.video?.codecName).toBe("mjpeg");
    expect([info.video?.width, info.video?.height]).toEqual([1280, 720]);
    expect((await fs.readFile(t.path)).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });
});

describe("renderReel without extras", () => {
  it("joins plain segments; no title when title cards are off", async () => {
    const out = path.join(dir, "plain reel's.mp4");
    const r = await renderReel({
      segments: [
        { clip, start: SOURCE_START + 1, end: SOURCE_START + 3, titleText: "should not show" },
        { clip, start: SOURCE_START + 15, end: SOURCE_START + 17.5 },
      ],
      coldOpen: null,
      titleCards: false,
      out,
      size: { width: 320, height: 180 },
    });
    expect(Math.abs(r.duration_seconds - 4.5)).toBeLessThan(0.12);
    const f = await readFrameRgb(out, 1, { width: 320, height: 180 });
    const truth = await truthFrame(2 * 30, "scale=320:180", { width: 320, height: 180 });
    expect(regionDifference(f, truth, { x: 0, y: 120, w: 320, h: 50 })).toBeLessThan(6);
  });

  it("cancels every piece and leaves no output", async () => {
    const out = path.join(dir, "cancelled-reel.mp4");
    const ctrl = new AbortController();
    const p = renderReel({
      segments: [0, 5, 10].map((o) => ({ clip, start: SOURCE_START + o, end: SOURCE_START + o + 5 })),
      titleCards: false,
      out,
      signal: ctrl.signal,
      onProgress: (f) => f > 0.05 && ctrl.abort(new Error("cancelled")),
    });
    await expect(p).rejects.toThrow("cancelled");
    await expect(fs.stat(out)).rejects.toThrow();
    expect((await fs.readdir(dir)).filter((f) => f.includes("cancelled-reel"))).toEqual([]);
  });
});

describe("reel helpers", () => {
  it("topLevelBoxes tells a faststart MP4 from a plain one (the check above can fail)", async () => {
    const plain = path.join(dir, "plain.mp4");
    await runFfmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x36:rate=10:duration=1", "-c:v", "libx264", "-preset", "ultrafast", plain]);
    const boxes = await topLevelBoxes(plain);
    expect(boxes[0]).toBe("ftyp");
    expect(boxes.indexOf("mdat")).toBeLessThan(boxes.indexOf("moov"));
  });

  it("quotes concat list paths", () => {
    expect(concatListLine("/tmp/it's here/a.mp4")).toBe("file '/tmp/it'\\''s here/a.mp4'");
  });

  it("mapLimit keeps order, bounds concurrency and stops on the first failure", async () => {
    let running = 0;
    let peak = 0;
    const res = await mapLimit([30, 10, 20, 5, 15], 2, async (ms, i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return i * 2;
    });
    expect(res).toEqual([0, 2, 4, 6, 8]);
    expect(peak).toBe(2);

    const started: number[] = [];
    const aborted: number[] = [];
    const err = await mapLimit([0, 1, 2, 3], 2, async (i, _idx, signal) => {
      started.push(i);
      if (i === 0) throw new Error("piece 0 failed");
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        signal.addEventListener("abort", () => {
          clearTimeout(t);
          aborted.push(i);
          resolve();
        });
      });
      return i;
    }).catch((e: unknown) => e);
    expect(String(err)).toMatch("piece 0 failed");
    expect(aborted).toContain(1);
    expect(started).not.toContain(3);
  });
});
