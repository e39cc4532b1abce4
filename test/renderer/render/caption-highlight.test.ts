import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HIGHLIGHT_RGB } from "../../../render-container/src/captions/ass";
import { wordsToCues } from "../../../render-container/src/captions/cues";
import { renderShort } from "../../../render-container/src/render/render-short";
import { pixelAt, readFrameRgb, type RgbFrame, type TestClip } from "../../support/media";
import { renderTestSource, SOURCE_START } from "./fixtures";

const SIZE = { width: 540, height: 960 };
/** Where captions sit: the lower part of the frame, clear of the bottom fifth. */
const AREA = { x: 0, y: Math.round(SIZE.height * 0.6), w: SIZE.width, h: Math.round(SIZE.height * 0.25) };

let clip: TestClip;
let dir: string;
let highlighted: string;
let plain: string;

// Three words said one after another: each should be lit in turn, left to right.
const CUES = wordsToCues([
  { word: "alpha", start: 0.2, end: 1.0 },
  { word: "bravo", start: 1.1, end: 2.0 },
  { word: "charlie", start: 2.1, end: 3.0 },
]);

beforeAll(async () => {
  clip = await renderTestSource();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "caption-highlight-"));
  highlighted = path.join(dir, "highlight.mp4");
  plain = path.join(dir, "plain.mp4");
  const base = { clip, start: SOURCE_START + 1, end: SOURCE_START + 6, layout: "crop" as const, size: SIZE, captions: CUES };
  await renderShort({ ...base, out: highlighted, captionLook: "word_highlight" });
  await renderShort({ ...base, out: plain, captionLook: "plain" });
}, 120_000);
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const isHighlight = (p: readonly number[]) => Math.abs(p[0]! - HIGHLIGHT_RGB.r) < 40 && Math.abs(p[1]! - HIGHLIGHT_RGB.g) < 45 && p[2]! < 90;
const isWhite = (p: readonly number[]) => p[0]! > 225 && p[1]! > 225 && p[2]! > 225;

/** Columns of caption-area pixels that are highlight-coloured here and not in the plain render of the same frame. */
function litColumns(frame: RgbFrame, reference: RgbFrame): number[] {
  const xs: number[] = [];
  for (let y = AREA.y; y < AREA.y + AREA.h; y++) {
    for (let x = AREA.x; x < AREA.x + AREA.w; x++) {
      if (isHighlight(pixelAt(frame, x, y)) && !isHighlight(pixelAt(reference, x, y))) xs.push(x);
    }
  }
  return xs;
}

function whiteCount(frame: RgbFrame): number {
  let n = 0;
  for (let y = AREA.y; y < AREA.y + AREA.h; y++) for (let x = AREA.x; x < AREA.x + AREA.w; x++) if (isWhite(pixelAt(frame, x, y))) n++;
  return n;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

describe("word_highlight captions", () => {
  it("light the word being said, moving left to right, with the other words still white", async () => {
    const centres: number[] = [];
    expect(CUES).toHaveLength(1);
    for (const t of [0.6, 1.5, 2.6]) {
      const h = await readFrameRgb(highlighted, t, SIZE);
      const p = await readFrameRgb(plain, t, SIZE);
      const lit = litColumns(h, p);
      expect(lit.length, `t=${t}`).toBeGreaterThan(150);
      centres.push(mean(lit));
      // The caption's other two words are drawn white as in the plain style: fewer white pixels, but many.
      expect(whiteCount(h), `t=${t}`).toBeGreaterThan(whiteCount(p) * 0.3);
      expect(whiteCount(h), `t=${t}`).toBeLessThan(whiteCount(p) * 0.95);
    }
    expect(centres[0]!).toBeLessThan(centres[1]! - 40);
    expect(centres[1]!).toBeLessThan(centres[2]! - 40);
    // The lit word sits where that word is in the line: first third, middle, last third of the text's extent.
    expect(centres[0]!).toBeLessThan(SIZE.width / 2);
    expect(centres[2]!).toBeGreaterThan(SIZE.width / 2);
  });

  it("the plain style shows no highlight colour, and both show nothing after the caption ends", async () => {
    const p = await readFrameRgb(plain, 1.5, SIZE);
    const h = await readFrameRgb(highlighted, 1.5, SIZE);
    const lit = litColumns(h, p).length;
    // Only encoding noise at glyph edges is highlight-coloured in the plain render and not in the other.
    expect(litColumns(p, h).length).toBeLessThan(lit * 0.05);
    const afterH = await readFrameRgb(highlighted, 4.5, SIZE);
    const afterP = await readFrameRgb(plain, 4.5, SIZE);
    expect(litColumns(afterH, afterP).length).toBeLessThan(lit * 0.05);
  });
});
