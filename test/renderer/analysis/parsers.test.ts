import { describe, expect, it } from "vitest";
import { createMetadataLineParser, parseLevel, type MetadataFrame } from "../../../render-container/src/analysis/metadata-lines";
import { createPerSecondLevels, secondsCovering } from "../../../render-container/src/analysis/per-second";

describe("ametadata print parser", () => {
  it("groups key=value lines under their frame header and emits the last frame on end()", () => {
    const frames: MetadataFrame[] = [];
    const p = createMetadataLineParser((f) => frames.push(f));
    for (const l of [
      "frame:0    pts:0       pts_time:0",
      "lavfi.r128.M=-23.5",
      "lavfi.astats.1.RMS_level=-inf",
      "frame:1    pts:800     pts_time:0.1",
      "lavfi.silence_start=0.05",
      "",
    ])
      p.push(l);
    expect(frames).toHaveLength(1);
    p.end();
    expect(frames).toHaveLength(2);
    expect(frames[0]!.time).toBe(0);
    expect(frames[0]!.values.get("lavfi.r128.M")).toBe("-23.5");
    expect(frames[1]!.time).toBeCloseTo(0.1);
    expect(frames[1]!.values.get("lavfi.silence_start")).toBe("0.05");
  });

  it("ignores lines before the first header", () => {
    const frames: MetadataFrame[] = [];
    const p = createMetadataLineParser((f) => frames.push(f));
    p.push("lavfi.r128.M=-1");
    p.end();
    expect(frames).toHaveLength(0);
  });

  it("maps ffmpeg's -inf to the floor and rejects garbage", () => {
    expect(parseLevel("-inf")).toBe(-120);
    expect(parseLevel("-12.5")).toBe(-12.5);
    expect(parseLevel("-400")).toBe(-120);
    expect(parseLevel("nan")).toBeNull();
    expect(parseLevel(undefined)).toBeNull();
  });
});

describe("per-second folding of 100 ms blocks", () => {
  it("keeps the loudest momentary value of each second", () => {
    const l = createPerSecondLevels();
    for (let i = 0; i < 20; i++) {
      const t = i / 10;
      l.addBlock(t, t === 1.3 ? -10 : i < 10 ? -30 : Number.NEGATIVE_INFINITY);
    }
    const out = l.finish(2);
    expect(out.loudnessLufs).toEqual([-30, -10]);
    expect(l.seenSeconds).toBeCloseTo(2, 6);
  });

  it("keeps silences within the audio's duration", () => {
    const l = createPerSecondLevels();
    l.addSilence(0.8, 2.0);
    l.addSilence(3.0, 3.0); // empty: dropped
    l.addSilence(3.5, 5.04); // codec padding past the end
    l.addSilence(5.2, 6);
    const out = l.finish(5);
    expect(out.silences).toEqual([
      { start: 0.8, end: 2 },
      { start: 3.5, end: 5 },
    ]);
  });

  it("does not open a second for codec padding", () => {
    expect(secondsCovering(40.02)).toBe(40);
    expect(secondsCovering(40.5)).toBe(41);
    expect(secondsCovering(0)).toBe(0);
  });
});
