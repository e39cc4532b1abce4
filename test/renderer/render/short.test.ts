import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { runProcess } from "../../../render-container/src/ffmpeg/process";
import { renderShort } from "../../../render-container/src/render/render-short";
import { makeThumbnail } from "../../../render-container/src/render/thumbnail";
import type { Size } from "../../../render-container/src/render/types";
import { colorDistance, pixelAt, readFrameRgb, regionDifference, regionMean, type TestClip } from "../../support/media";
import { FACECAM_GREEN, renderTestSource, SOURCE_START, truthFrame } from "./fixtures";
import { expectFaststart } from "./mp4-boxes";

const FULL: Size = { width: 1080, height: 1920 };
let clip: TestClip;
let dir: string;

beforeAll(async () => {
  clip = await renderTestSource();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "short-test-"));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function expectShortFile(file: string, duration: number, size: Size = FULL) {
  const info = await probeMedia(file);
  expect(info.formatName).toMatch(/mp4/);
  expect(info.video?.codecName).toBe("h264");
  expect(info.video?.pixFmt).toBe("yuv420p");
  expect(info.video?.width).toBe(size.width);
  expect(info.video?.height).toBe(size.height);
  expect(info.video?.frameRate).toBe(30);
  expect(info.audio?.codecName).toBe("aac");
  expect(info.audio?.channels).toBe(2);
  expect(Math.abs(info.durationSeconds - duration)).toBeLessThan(0.1);
  expect(Math.abs((info.video?.durationSeconds ?? 0) - duration)).toBeLessThan(0.1);
  expect(Math.abs((info.audio?.durationSeconds ?? 0) - duration)).toBeLessThan(0.1);
  // faststart: the index (moov) precedes the media data (mdat).
  await expectFaststart(file);
}

describe("renderShort crop", () => {
  const start = SOURCE_START + 4.5;
  const end = SOURCE_START + 10.5;
  const captionArea = { x: 100, y: 1400, w: 880, h: 200 };
  let plain: string;
  let dressed: string;
  const fractions: number[] = [];

  beforeAll(async () => {
    plain = path.join(dir, "crop-plain.mp4");
    dressed = path.join(dir, "crop-dressed.mp4");
    const r1 = await renderShort({ clip, start, end, layout: "crop", out: plain });
    expect(r1.path).toBe(plain);
    const r2 = await renderShort({
      clip, start, end, layout: "crop", out: dressed,
      titleText: `He said: "it's 100% \\o/ real" — GG; [win], 10:30 🎉`,
      captions: [
        { start: 0.2, end: 2.8, text: "we are going to win" },
        { start: 3.0, end: 5.8, text: "this {game} \\N for sure" },
      ],
      onProgress: (f) => fractions.push(f),
    });
    expect(r2.size_bytes).toBe((await fs.stat(dressed)).size);
    expect(Math.abs(r2.duration_seconds - 6)).toBeLessThan(0.1);
  });

  it("is a 1080x1920 H.264/AAC faststart MP4 of the planned length", async () => {
    await expectShortFile(plain, 6);
    await expectShortFile(dressed, 6);
    expect(fractions.at(-1)).toBe(1);
  });

  it("cuts frame-accurately: frame 60 of the short is source frame 30*(start offset)+60", async () => {
    const vf = "crop=406:720:436:0,scale=1080:1920";
    const out = await readFrameRgb(plain, 2, FULL);
    const region = { x: 0, y: 200, w: 1080, h: 1000 };
    const expected = Math.round((start - SOURCE_START) * 30) + 60;
    const diffs: number[] = [];
    for (const d of [-2, -1, 0, 1, 2]) diffs.push(regionDifference(out, await truthFrame(expected + d, vf, FULL), region));
    const best = diffs.indexOf(Math.min(...diffs));
    expect(best, `diffs ${diffs.map((d) => d.toFixed(2)).join(" ")}`).toBe(2);
    expect(diffs[2]).toBeLessThan(4);
  });

  it("burns captions into the caption area and leaves the rest alone", async () => {
    const a = await readFrameRgb(plain, 1.5, FULL);
    const b = await readFrameRgb(dressed, 1.5, FULL);
    expect(regionDifference(a, b, captionArea)).toBeGreaterThan(8);
    // Middle of the frame: neither title (top) nor captions (bottom).
    expect(regionDifference(a, b, { x: 0, y: 800, w: 1080, h: 300 })).toBeLessThan(3);
    // Captions are white text: the area gets brighter somewhere.
    let white = 0;
    for (let y = captionArea.y; y < captionArea.y + captionArea.h; y += 2) {
      for (let x = captionArea.x; x < captionArea.x + captionArea.w; x += 2) {
        const p = pixelAt(b, x, y);
        if (p[0] > 235 && p[1] > 235 && p[2] > 235) white++;
      }
    }
    expect(white).toBeGreaterThan(200);
  });

  it("flashes the title only at the start", async () => {
    const titleArea = { x: 60, y: 150, w: 960, h: 300 };
    const early = regionDifference(await readFrameRgb(plain, 1, FULL), await readFrameRgb(dressed, 1, FULL), titleArea);
    const late = regionDifference(await readFrameRgb(plain, 4, FULL), await readFrameRgb(dressed, 4, FULL), titleArea);
    expect(early).toBeGreaterThan(10);
    expect(late).toBeLessThan(2);
  });

  it("makes a 1080x1920 JPEG thumbnail", async () => {
    const t = await makeThumbnail(dressed, 3, path.join(dir, "thumb.jpg"));
    const bytes = await fs.readFile(t.path);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(t.size_bytes).toBe(bytes.length);
    const info = await probeMedia(t.path);
    expect(info.video?.codecName).toBe("mjpeg");
    expect([info.video?.width, info.video?.height]).toEqual([1080, 1920]);
    // A time past the end still gives a frame (clamped).
    const late = await makeThumbnail(dressed, 99, path.join(dir, "thumb-late.jpg"));
    expect(late.size_bytes).toBeGreaterThan(1000);
  });
});

describe("renderShort split", () => {
  it("stacks the facecam (splitRatio of the height) over gameplay with a coloured outline", async () => {
    const out = path.join(dir, "split-violet.mp4");
    await renderShort({
      clip, start: SOURCE_START + 2, end: SOURCE_START + 5, layout: "split", splitRatio: 0.4,
      frame: { enabled: true, color: "violet" }, out,
    });
    await expectShortFile(out, 3);
    const f = await readFrameRgb(out, 1.5, FULL);
    const panel = 768; // 0.4 * 1920
    // Outline: 8 px; sample the middle of its thickness on all four sides.
    for (const [x, y] of [[540, 3], [540, panel - 4], [3, panel / 2], [1076, panel / 2]] as const) {
      expect(colorDistance(pixelAt(f, x, y), [0x8a, 0x2b, 0xe2]), `outline at ${x},${y}: ${pixelAt(f, x, y)}`).toBeLessThan(45);
    }
    // Inside the panel: the green facecam, scaled up.
    expect(colorDistance(regionMean(f, { x: 100, y: 100, w: 880, h: 560 }), FACECAM_GREEN)).toBeLessThan(25);
    // Below the seam: gameplay, not facecam.
    expect(colorDistance(regionMean(f, { x: 0, y: panel + 20, w: 1080, h: 1000 }), FACECAM_GREEN)).toBeGreaterThan(60);
  });

  it("shows the facecam inside its border and no sliver of it in the gameplay panel", async () => {
    // A found region is the overlay's outer edge: here 6 px of gameplay beyond the green cam on the right and
    // below, as a streamer's border would be. Half size (540x960): the panel is 480 high.
    const out = path.join(dir, "split-bordered.mp4");
    const size = { width: 540, height: 960 };
    await renderShort({ clip, start: SOURCE_START + 2, end: SOURCE_START + 3, layout: "split", splitRatio: 0.5, facecam: { x: 0, y: 0, w: 326, h: 186 }, size, out });
    const f = await readFrameRgb(out, 0.5, size);
    // The panel's last rows are the cam, not the 6 px band under it scaled up to 15 rows.
    expect(colorDistance(regionMean(f, { x: 40, y: 466, w: 460, h: 10 }), FACECAM_GREEN)).toBeLessThan(25);
    // The centred gameplay (source x 234..1044) would show the cam's last 92 px at the panel's top-left.
    const corner = regionMean(f, { x: 4, y: 490, w: 40, h: 100 });
    expect(colorDistance(corner, FACECAM_GREEN), `gameplay corner ${corner}`).toBeGreaterThan(60);
  });

  it("keeps the gameplay panel clear of a facecam found a few pixels short of its edge", async () => {
    // The detector sees a 1280-wide frame at 320: its edge can fall 4 px short; here 16 px short of the green cam.
    const out = path.join(dir, "split-short-region.mp4");
    const size = { width: 540, height: 960 };
    await renderShort({ clip, start: SOURCE_START + 2, end: SOURCE_START + 3, layout: "split", splitRatio: 0.5, facecam: { x: 0, y: 0, w: 304, h: 176 }, size, out });
    const f = await readFrameRgb(out, 0.5, size);
    const edge = regionMean(f, { x: 0, y: 490, w: 6, h: 100 });
    expect(colorDistance(edge, FACECAM_GREEN), `gameplay edge ${edge}`).toBeGreaterThan(60);
  });

  it("never draws captions over the facecam panel, however far down it reaches", async () => {
    // shorts_split_ratio 0.85: the panel ends at 816 of 960, below where captions sit (baseline at 80 %: 768).
    const out = path.join(dir, "split-deep-panel.mp4");
    const size = { width: 540, height: 960 };
    await renderShort({ clip, start: SOURCE_START + 2, end: SOURCE_START + 3, layout: "split", splitRatio: 0.85, size, out, captions: [{ start: 0, end: 1, text: "we are going to win this game right now" }] });
    const f = await readFrameRgb(out, 0.5, size);
    const white = (r: { x: number; y: number; w: number; h: number }) => {
      let n = 0;
      for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) if (colorDistance(pixelAt(f, x, y), [255, 255, 255]) < 60) n++;
      return n;
    };
    // The panel is the green cam scaled up: no caption letters in it; they are under the seam.
    expect(white({ x: 40, y: 600, w: 460, h: 210 })).toBe(0);
    expect(white({ x: 40, y: 820, w: 460, h: 135 })).toBeGreaterThan(200);
  });

  it("flashes the title under the seam, covering none of the facecam panel", async () => {
    // Half size: the panel ends at 480. A two-line title centred on the seam hid its last ~70 rows (the face's chin).
    const out = path.join(dir, "split-title.mp4");
    const size = { width: 540, height: 960 };
    await renderShort({ clip, start: SOURCE_START + 2, end: SOURCE_START + 5, layout: "split", splitRatio: 0.5, size, out, titleText: "The boss fight that went wrong in every single way" });
    const f = await readFrameRgb(out, 0.5, size);
    const panelBottom = regionMean(f, { x: 20, y: 430, w: 500, h: 48 });
    expect(colorDistance(panelBottom, FACECAM_GREEN), `panel's last rows ${panelBottom}`).toBeLessThan(25);
    // The title is there, in the gameplay panel's top (white letters on the dark box), and gone after 2.5 s.
    const white = (frame: typeof f) => {
      let n = 0;
      for (let y = 482; y < 640; y++) for (let x = 20; x < 520; x++) if (colorDistance(pixelAt(frame, x, y), [255, 255, 255]) < 40) n++;
      return n;
    };
    const [withTitle, after] = [white(f), white(await readFrameRgb(out, 2.8, size))];
    expect(withTitle, `white pixels under the seam: ${withTitle} with the title, ${after} after it`).toBeGreaterThan(after + 500);
  });

  it("uses the other colours, and no outline when disabled", async () => {
    const cases = [
      { frame: { enabled: true, color: "white" as const }, expected: [255, 255, 255] },
      { frame: { enabled: true, color: "black" as const }, expected: [0, 0, 0] },
      { frame: { enabled: false, color: "violet" as const }, expected: FACECAM_GREEN },
    ];
    for (const [i, c] of cases.entries()) {
      const out = path.join(dir, `split-${i}.mp4`);
      await renderShort({ clip, start: SOURCE_START + 2, end: SOURCE_START + 3, layout: "split", splitRatio: 0.5, frame: c.frame, out });
      const f = await readFrameRgb(out, 0.5, FULL);
      expect(colorDistance(pixelAt(f, 540, 3), c.expected), `${JSON.stringify(c.frame)}: ${pixelAt(f, 540, 3)}`).toBeLessThan(30);
      expect(colorDistance(pixelAt(f, 540, 956), c.expected)).toBeLessThan(30);
    }
  });
});

describe("renderShort fit", () => {
  it("shows the whole source across the centre over a blurred, darkened, non-black background", async () => {
    const out = path.join(dir, "fit.mp4");
    const start = SOURCE_START + 6;
    await renderShort({ clip, start, end: start + 3, layout: "fit", out });
    await expectShortFile(out, 3);
    const f = await readFrameRgb(out, 1, FULL);
    // Foreground: the full 16:9 source scaled to 1080x608, centred at y 656..1264.
    const src = await truthFrame((start - SOURCE_START + 1) * 30, "scale=1080:608,pad=1080:1920:0:656", FULL);
    expect(regionDifference(f, src, { x: 0, y: 676, w: 1080, h: 568 })).toBeLessThan(6);
    // The top-left facecam is visible in full (crop mode would have cut it off).
    expect(colorDistance(regionMean(f, { x: 20, y: 680, w: 220, h: 110 }), FACECAM_GREEN)).toBeLessThan(25);
    // Bands: not black, darker than the source, and blurred (neighbouring pixels barely differ).
    for (const band of [{ x: 0, y: 0, w: 1080, h: 600 }, { x: 0, y: 1320, w: 1080, h: 600 }]) {
      const mean = regionMean(f, band);
      expect(Math.max(...mean)).toBeGreaterThan(25);
      let step = 0;
      let n = 0;
      for (let y = band.y; y < band.y + band.h; y += 7) {
        for (let x = band.x; x < band.x + band.w - 1; x += 7) {
          step += colorDistance(pixelAt(f, x, y), pixelAt(f, x + 1, y));
          n++;
        }
      }
      expect(step / n).toBeLessThan(6);
    }
  });
});

describe("renderShort robustness", () => {
  it("survives hostile title text and an output path with quotes and colons", async () => {
    const out = path.join(dir, "we'ird: na,me [1].mp4");
    const size = { width: 270, height: 480 };
    const r = await renderShort({
      clip, start: SOURCE_START + 1, end: SOURCE_START + 3, layout: "crop", size, out,
      titleText: "'; drawtext=text=pwned:x=0 \\' %{pts} %% 50%: \"quoted\" \\\\ back\\slash 💥\n\ttabs, [brackets]; semi",
      captions: [{ start: 0, end: 1.5, text: "} {\\an8} override? %{n} 'quote' : colon" }],
    });
    await expectShortFile(r.path, 2, size);
    const plain = path.join(dir, "plain-small.mp4");
    await renderShort({ clip, start: SOURCE_START + 1, end: SOURCE_START + 3, layout: "crop", size, out: plain });
    const a = await readFrameRgb(out, 1, size);
    const b = await readFrameRgb(plain, 1, size);
    expect(regionDifference(a, b, { x: 0, y: 30, w: 270, h: 100 })).toBeGreaterThan(5);
  });

  it("removes the partial file and rejects when cancelled", async () => {
    const out = path.join(dir, "cancelled.mp4");
    const ctrl = new AbortController();
    const p = renderShort({ clip, start: SOURCE_START, end: SOURCE_START + 15, layout: "fit", out, signal: ctrl.signal, onProgress: (f) => f > 0.05 && ctrl.abort(new Error("cancelled")) });
    await expect(p).rejects.toThrow("cancelled");
    await expect(fs.stat(out)).rejects.toThrow();
    const leftovers = (await fs.readdir(dir)).filter((f) => f.startsWith(".cancelled.mp4"));
    expect(leftovers).toEqual([]);
  });

  it("renders a clip without an audio track with silence", async () => {
    const silentSrc = path.join(dir, "noaudio.ts");
    await runProcess("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", clip.path, "-t", "4", "-an", "-c", "copy", silentSrc]);
    const out = path.join(dir, "noaudio.mp4");
    const size = { width: 270, height: 480 };
    await renderShort({ clip: { path: silentSrc, media_start_seconds: 0, media_end_seconds: 4 }, start: 1, end: 3, layout: "crop", size, out });
    await expectShortFile(out, 2, size);
  });
});
