import { describe, expect, it } from "vitest";
import { cutRange, CutRangeError } from "../../../render-container/src/render/cut";
import { DEFAULT_FACECAM_REGION, facecamPixels, parseFacecamRegion } from "../../../render-container/src/render/facecam";
import { centredCrop, clampRect, cropClearOf, insetRect } from "../../../render-container/src/render/geometry";
import { buildShortLayout, splitPanelHeight } from "../../../render-container/src/render/short-layout";
import { balancedWrap, sanitizeDisplayText, wrapText } from "../../../render-container/src/render/text";

describe("sanitizeDisplayText", () => {
  it("drops emoji and control characters, keeps punctuation and accents", () => {
    expect(sanitizeDisplayText("GG 🎉🔥 it's 100%: \"wow\" \\o/ 👍🏽 ❤️ 🇩🇪 1️⃣ ça\tva\nbien\u0007")).toBe(
      "GG it's 100%: \"wow\" \\o/ 1 ça va bien",
    );
    expect(sanitizeDisplayText("👨‍👩‍👧 ")).toBe("");
    expect(sanitizeDisplayText("Mal\u00ADenia \u200Fboss\u2028fight")).toBe("Malenia boss fight");
  });
});

describe("wrapText", () => {
  it("wraps greedily and never exceeds the line length", () => {
    const lines = wrapText("the quick brown fox jumps over the lazy dog", 12, 5);
    expect(lines).toEqual(["the quick", "brown fox", "jumps over", "the lazy dog"]);
  });
  it("ends with an ellipsis when text is cut", () => {
    const lines = wrapText("one two three four five six seven eight", 10, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith("\u2026")).toBe(true);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(10);
  });
  it("splits words longer than a line", () => {
    expect(wrapText("abcdefghijkl", 5, 3)).toEqual(["abcde", "fghij", "kl"]);
  });
});

describe("balancedWrap", () => {
  it("wraps a title into as many lines as the greedy wrap, of even length, not ending on a lone word", () => {
    // The demo's title at a 1080-wide short's 24 characters a line.
    const title = "SynthStreamer's stream explodes in Synthetic Quest";
    expect(wrapText(title, 24, 3)).toEqual(["SynthStreamer's stream", "explodes in Synthetic", "Quest"]);
    expect(balancedWrap(title, 24, 3)).toEqual(["SynthStreamer's", "stream explodes in", "Synthetic Quest"]);
    expect(balancedWrap("Peak hype on SynthStreamer's stream in Synthetic Quest", 24, 3)).toEqual(["Peak hype on", "SynthStreamer's stream", "in Synthetic Quest"]);
  });
  it("leaves one line, and text cut to fit, as the greedy wrap has them", () => {
    expect(balancedWrap("short title", 24, 3)).toEqual(["short title"]);
    expect(balancedWrap("one two three four five six seven eight", 10, 2)).toEqual(wrapText("one two three four five six seven eight", 10, 2));
    expect(balancedWrap("abcdefghijkl", 5, 3)).toEqual(["abcde", "fghij", "kl"]);
  });
});

describe("cutRange", () => {
  const clip = { path: "x.ts", media_start_seconds: 100, media_end_seconds: 130 };
  it("maps VOD times onto the file", () => {
    expect(cutRange(clip, 105.5, 112)).toEqual({ from: 5.5, to: 12, duration: 6.5 });
  });
  it("clamps ranges that stick out of the clip", () => {
    expect(cutRange(clip, 98, 131)).toEqual({ from: 0, to: 30, duration: 30 });
  });
  it("rejects ranges outside the clip or inverted", () => {
    expect(() => cutRange(clip, 131, 140)).toThrow(CutRangeError);
    expect(() => cutRange(clip, 120, 110)).toThrow(CutRangeError);
    expect(() => cutRange(clip, Number.NaN, 110)).toThrow(CutRangeError);
  });
});

describe("geometry", () => {
  it("centredCrop takes the largest centred box of an aspect, in even pixels", () => {
    expect(centredCrop({ x: 0, y: 0, w: 1280, h: 720 }, 1080 / 1920)).toEqual({ x: 436, y: 0, w: 406, h: 720 });
    expect(centredCrop({ x: 0, y: 0, w: 320, h: 180 }, 1080 / 768)).toEqual({ x: 32, y: 0, w: 254, h: 180 });
    const wide = centredCrop({ x: 10, y: 20, w: 320, h: 180 }, 4);
    expect(wide.w / wide.h).toBeCloseTo(4, 1);
    expect(wide.w % 2 + (wide.h % 2)).toBe(0);
  });
  it("cropClearOf moves a crop off a facecam it would show a sliver of, by the least distance", () => {
    const frame = { x: 0, y: 0, w: 1280, h: 720 };
    // A split short's gameplay panel (1080x960): centred it is x 234..1044, over the top-left cam's last 86 px.
    expect(centredCrop(frame, 1080 / 960)).toEqual({ x: 234, y: 0, w: 810, h: 720 });
    expect(cropClearOf(frame, 1080 / 960, { x: 0, y: 0, w: 320, h: 180 })).toEqual({ x: 320, y: 0, w: 810, h: 720 });
    expect(cropClearOf(frame, 1080 / 960, { x: 20, y: 20, w: 315, h: 235 })).toEqual({ x: 336, y: 0, w: 810, h: 720 });
    // Bottom-right: moved left.
    expect(cropClearOf(frame, 1080 / 960, { x: 1000, y: 500, w: 280, h: 220 })).toEqual({ x: 190, y: 0, w: 810, h: 720 });
    // Clear already: centred. Too wide to leave out: centred.
    expect(cropClearOf(frame, 1080 / 1920, { x: 0, y: 0, w: 320, h: 180 })).toEqual(centredCrop(frame, 1080 / 1920));
    expect(cropClearOf(frame, 1080 / 960, { x: 0, y: 0, w: 560, h: 300 })).toEqual(centredCrop(frame, 1080 / 960));
    // A wide panel crops rows: moved down under a top cam.
    expect(cropClearOf(frame, 3, { x: 0, y: 0, w: 320, h: 180 })).toEqual({ x: 0, y: 180, w: 1280, h: 426 });
  });
  it("insetRect leaves out a share of each side", () => {
    expect(insetRect({ x: 20, y: 20, w: 316, h: 236 }, 0.04)).toEqual({ x: 32, y: 29, w: 292, h: 218 });
    expect(insetRect({ x: 0, y: 0, w: 4, h: 4 }, 0.49)).toEqual({ x: 1, y: 1, w: 2, h: 2 });
  });
  it("clampRect keeps a configured facecam inside smaller frames", () => {
    expect(clampRect({ x: 1200, y: 700, w: 400, h: 300 }, { width: 1280, height: 720 })).toEqual({ x: 1200, y: 700, w: 80, h: 20 });
  });
});

describe("facecam region", () => {
  it("defaults to the top-left quarter", () => {
    expect(facecamPixels(DEFAULT_FACECAM_REGION, { width: 1280, height: 720 })).toEqual({ x: 0, y: 0, w: 320, h: 180 });
  });
  it("parses FACECAM_REGION shares and rejects nonsense", () => {
    expect(parseFacecamRegion("0.7, 0.7, 0.3, 0.3")).toEqual({ x: 0.7, y: 0.7, w: 0.3, h: 0.3 });
    expect(parseFacecamRegion("0.8,0,0.3,0.3")).toBeNull();
    expect(parseFacecamRegion("a,b,c,d")).toBeNull();
    expect(parseFacecamRegion("0,0,1")).toBeNull();
    expect(parseFacecamRegion(undefined)).toBeNull();
  });
});

describe("buildShortLayout", () => {
  const base = {
    source: { width: 1280, height: 720 },
    output: { width: 1080, height: 1920 },
    splitRatio: 0.5,
    facecam: { x: 0, y: 0, w: 320, h: 180 },
    frame: { enabled: false, color: "white" as const },
  };
  it("split gives the panel splitRatio of the height, clamped to 0.15..0.85", () => {
    expect(splitPanelHeight(base.output, 0.5)).toBe(960);
    expect(splitPanelHeight(base.output, 0.33)).toBe(634);
    expect(splitPanelHeight(base.output, 0.01)).toBe(288);
    expect(splitPanelHeight(base.output, 2)).toBe(1632);
    const l = buildShortLayout({ ...base, layout: "split", splitRatio: 0.25, frame: { enabled: true, color: "violet" } });
    expect(l.panelHeight).toBe(480);
    expect(l.graph).toContain("scale=1080:480");
    expect(l.graph).toContain("scale=1080:1440");
    expect(l.graph).toContain("color=0x8A2BE2@1:t=8");
  });
  it("every layout ends in [vlayout] from [vin]", () => {
    for (const layout of ["crop", "fit", "split"] as const) {
      const g = buildShortLayout({ ...base, layout }).graph;
      expect(g.startsWith("[vin]")).toBe(true);
      expect(g.endsWith("[vlayout]")).toBe(true);
    }
  });
});
