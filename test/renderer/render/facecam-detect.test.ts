import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSyntheticVod, synthCacheRoot, type FacecamCorner, type SyntheticVodTruth } from "../../../dev/synth-vod";
import { shortOptions } from "../../../render-container/src/pipeline/stages/render-options";
import { analyseFacecam, chooseFacecamRegion, DEFAULT_FACECAM_REGION, renderShort, FACECAM_DETECTION, type RelativeRect } from "../../../render-container/src/render";
import type { ClipSource } from "../../../render-container/src/source";
import { colorDistance, readFrameRgb } from "../../support/media";
import { moment, normalizedRequest } from "../pipeline/plan-fixtures";
import { renderTestSource } from "./fixtures";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";

/**
 * Facecam detection on synthetic VODs (dev/synth-vod: a violet facecam with a white border and a moving
 * skin-coloured "face" over scrolling gameplay), decoded by real FFmpeg. Two scenes per VOD, one minute each.
 */
const root = path.join(synthCacheRoot(), "facecam-test-vods");
const vods: Record<FacecamCorner, { seed: number; id: string }> = {
  "top-left": { seed: 12, id: "900000731" },
  "bottom-right": { seed: 7, id: "900000732" },
  none: { seed: 27, id: "900000733" },
};
const made = {} as Record<FacecamCorner, { truth: SyntheticVodTruth; clips: ClipSource[] }>;
let out: string;

/** The VOD's 10 s source segments as the downloaded clips they would be. */
function clipsOf(dir: string, truth: SyntheticVodTruth): ClipSource[] {
  return truth.renditions.chunked.map((s) => ({ path: path.join(dir, "chunked", s.file), media_start_seconds: s.start, media_end_seconds: s.start + s.duration, bytes: s.bytes, muted_ranges: [] }));
}

function relative(truth: SyntheticVodTruth): RelativeRect {
  const { width, height } = truth.video;
  return { x: truth.facecam.x / width, y: truth.facecam.y / height, w: truth.facecam.width / width, h: truth.facecam.height / height };
}

function iou(a: RelativeRect, b: RelativeRect): number {
  const w = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  return (w * h) / (a.w * a.h + b.w * b.h - w * h);
}

beforeAll(async () => {
  for (const [corner, v] of Object.entries(vods) as [FacecamCorner, { seed: number; id: string }][]) {
    const { dir, truth } = await generateSyntheticVod({ root, vodId: v.id, durationSeconds: 60, seed: v.seed, width: 640, height: 360, facecamCorner: corner, moments: [{ kind: "hype", peak: 30 }] });
    made[corner] = { truth, clips: clipsOf(dir, truth) };
  }
  out = await fs.mkdtemp(path.join(os.tmpdir(), "facecam-test-"));
});
afterAll(async () => {
  if (out) await fs.rm(out, { recursive: true, force: true });
});

describe("facecam detection", () => {
  for (const corner of ["top-left", "bottom-right"] as const) {
    it(`finds the ${corner} facecam from keyframes of the downloaded clips`, async () => {
      const { truth, clips } = made[corner];
      const choice = await chooseFacecamRegion(clips, { configured: null });
      expect(choice.found, choice.reason).toBe("detected");
      expect(choice.confidence).toBeGreaterThanOrEqual(FACECAM_DETECTION.threshold);
      expect(choice.analysis?.best?.anchor).toBe(corner);
      // Measured: IoU 0.89 (top-left: the border's inner edge) and 0.96 (bottom-right).
      expect(iou(choice.region, relative(truth))).toBeGreaterThanOrEqual(0.8);
      // Every side on the overlay's border (within 2.5 of the sampled frame's pixels), none on the frame's: under the
      // bottom-right cam lies a strip of a still HUD bar, which the box once took in down to the frame's bottom edge
      // (a white bar and a dark strip at the bottom of the split short's facecam panel).
      const t = relative(truth);
      const r = choice.region;
      const px = { x: 1 / FACECAM_DETECTION.width, y: 1 / Math.round((FACECAM_DETECTION.width * truth.video.height) / truth.video.width) };
      expect(Math.abs(r.x - t.x)).toBeLessThanOrEqual(2.5 * px.x);
      expect(Math.abs(r.y - t.y)).toBeLessThanOrEqual(2.5 * px.y);
      expect(Math.abs(r.x + r.w - (t.x + t.w))).toBeLessThanOrEqual(2.5 * px.x);
      expect(Math.abs(r.y + r.h - (t.y + t.h))).toBeLessThanOrEqual(2.5 * px.y);
      expect(choice.frames).toBeGreaterThanOrEqual(FACECAM_DETECTION.minFrames);
      expect(choice.frames).toBeLessThanOrEqual(FACECAM_DETECTION.maxFrames);
    });
  }

  it("falls back to the default region on gameplay without a facecam", async () => {
    const choice = await chooseFacecamRegion(made.none.clips, { configured: null });
    expect(choice).toMatchObject({ found: "default", region: DEFAULT_FACECAM_REGION });
    expect(choice.confidence).toBeLessThan(FACECAM_DETECTION.threshold);
  });

  it("falls back to the default region on a still picture (persistent lines, but nothing changes around them)", async () => {
    // testsrc2 barely moves; its green box in the corner is not told apart from the rest of the still picture.
    const choice = await chooseFacecamRegion([await renderTestSource()], { configured: null });
    expect(choice).toMatchObject({ found: "default", region: DEFAULT_FACECAM_REGION });
    expect(choice.confidence).toBeLessThan(FACECAM_DETECTION.threshold);
  });

  it("uses FACECAM_REGION when set, without looking at the video", async () => {
    const configured = { x: 0.1, y: 0.2, w: 0.3, h: 0.3 };
    const choice = await chooseFacecamRegion(made["bottom-right"].clips, { configured });
    expect(choice).toMatchObject({ found: "configured", region: configured, confidence: null, frames: 0 });
  });

  it("is a pure function of the frames: an outlined box over changing blocks, bottom-left; nothing without it", () => {
    // 160x90 frames of 10x10 blocks of pseudo-random grey (a new picture every frame), with or without a box.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 255;
    const draw = (withBox: boolean) => {
      seed = 7;
      return Array.from({ length: 12 }, () => {
        const f = new Uint8Array(160 * 90);
        const blocks = Array.from({ length: 16 * 9 }, rand);
        for (let y = 0; y < 90; y++) for (let x = 0; x < 160; x++) f[y * 160 + x] = blocks[Math.floor(y / 10) * 16 + Math.floor(x / 10)]!;
        if (withBox) for (let y = 52; y < 86; y++) for (let x = 4; x < 52; x++) f[y * 160 + x] = y === 52 || y === 85 || x === 4 || x === 51 ? 255 : 90;
        return f;
      });
    };
    const found = analyseFacecam({ width: 160, height: 90, frames: draw(true) });
    expect(found.best).toMatchObject({ anchor: "bottom-left" });
    expect(iou(found.best!.region, { x: 4 / 160, y: 52 / 90, w: 48 / 160, h: 34 / 90 })).toBeGreaterThan(0.9);
    expect(found.confidence).toBeGreaterThanOrEqual(FACECAM_DETECTION.threshold);
    expect(analyseFacecam({ width: 160, height: 90, frames: draw(true) })).toEqual(found);
    expect(analyseFacecam({ width: 160, height: 90, frames: draw(false) }).confidence).toBeLessThan(FACECAM_DETECTION.threshold);
  });
});

describe("a split short of a bottom-right facecam VOD", () => {
  it("shows the detected facecam in the top panel and reports how it was found", async () => {
    const { clips } = made["bottom-right"];
    const request = normalizedRequest({ compilation_enabled: false, num_shorts: 1, num_shorts_requested: 1, parameters: { shorts_crop_mode: "split" } });
    const m = moment(21, 24, 0.9);
    // As a job does it: the region found on the job's video (the analysis), then the short drawn with it (its task).
    const found = await chooseFacecamRegion(clips, { configured: null });
    expect(found).toMatchObject({ found: "detected" });
    const clip = clips.find((c) => c.media_start_seconds <= 21 && c.media_end_seconds >= 24)!;
    const info = await probeMedia(clip.path);
    await renderShort({
      ...shortOptions({
        short: { index: 1, moment: m },
        clip,
        source: { width: info.video!.width!, height: info.video!.height! },
        texts: { shorts: {} },
        transcripts: { burn: false, cuesFor: () => [] },
        parameters: request.parameters,
        facecam: found.region,
      }),
      out: path.join(out, "up", "short-01.mp4"),
    });

    // The top half (the facecam panel) is the violet facecam and its skin-coloured face, not gameplay.
    const frame = await readFrameRgb(path.join(out, "up", "short-01.mp4"), 1.5, { width: 1080, height: 1920 });
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
    // Down to the seam (960): the panel's last rows are the facecam's violet, not its white border and the dark HUD
    // strip under it (from row 894 they were white, then dark, when the box reached the frame's bottom).
    for (let y = 880; y < 958; y += 2) {
      let violetRow = 0;
      for (let x = 20; x < 1060; x += 8) {
        const i = (y * 1080 + x) * 3;
        if (colorDistance([frame.data[i]!, frame.data[i + 1]!, frame.data[i + 2]!], violet) < 60) violetRow++;
      }
      expect(violetRow / 130, `row ${y}`).toBeGreaterThan(0.9);
    }
  });
});
