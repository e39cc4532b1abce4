import { describe, expect, it } from "vitest";
import { createSilenceLogReader } from "../../../render-container/src/analysis/analysis-log";
import { createMetadataLineParser, parseLevel, type MetadataFrame } from "../../../render-container/src/analysis/metadata-lines";
import { createPerSecondLevels, secondsCovering } from "../../../render-container/src/analysis/per-second";
import { createVoiceEnvelopeBuilder } from "../../../render-container/src/analysis/voice-envelope";

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

describe("silence marks from the analysis log", () => {
  it("reads silencedetect's lines by their filter prefix and ignores every other line", () => {
    const marks: string[] = [];
    const read = createSilenceLogReader({ onSilenceStart: (t) => marks.push(`start ${t}`), onSilenceEnd: (e, d) => marks.push(`end ${e} ${d}`) });
    for (const l of [
      "Input #0, mpegts, from 'audio.ts':",
      "[silencedetect @ 0x5574c6215580] silence_start: 29.0205",
      "[Parsed_ametadata_5 @ 0x5574c6277540] lavfi.r128.M=-23.5",
      "silence_start: 99",
      "[silencedetect @ 0x5574c6215580] silence_end: 51.0224 | silence_duration: 22.0019",
      "size=N/A time=03:00:00.02 bitrate=N/A speed= 780x",
      "[silencedetect @ 0x5574c6215580] silence_start: -0.00125",
    ])
      read(l);
    expect(marks).toEqual(["start 29.0205", "end 51.0224 22.0019", "start 0"]);
  });
});

describe("per-second folding of 100 ms frames", () => {
  const frame = (time: number, kv: Record<string, string>): MetadataFrame => ({ time, values: new Map(Object.entries(kv)) });

  it("keeps the loudest momentary value of each second", () => {
    const l = createPerSecondLevels();
    for (let i = 0; i < 20; i++) {
      const t = i / 10;
      l.addFrame(frame(t, { "lavfi.r128.M": t === 1.3 ? "-10" : i < 10 ? "-30" : "-inf" }));
    }
    const out = l.finish(2);
    expect(out.loudnessLufs).toEqual([-30, -10]);
    expect(l.seenSeconds).toBeCloseTo(2, 6);
  });

  it("pairs silence marks into ranges and closes one left open at the end", () => {
    const l = createPerSecondLevels();
    l.silenceStart(0.8);
    l.silenceEnd(2.0, 1.2);
    l.silenceEnd(3.0, 0.5); // an end without a start: the duration tells where it began
    l.silenceStart(3.5);
    const out = l.finish(5);
    expect(out.silences).toEqual([
      { start: 0.8, end: 2 },
      { start: 2.5, end: 3 },
      { start: 3.5, end: 5 },
    ]);
  });

  it("does not open a second for codec padding", () => {
    expect(secondsCovering(40.02)).toBe(40);
    expect(secondsCovering(40.5)).toBe(41);
    expect(secondsCovering(0)).toBe(0);
  });
});

describe("voice envelope from s16le PCM", () => {
  function pcm(samples: number[]): Buffer {
    const b = Buffer.alloc(samples.length * 2);
    samples.forEach((s, i) => b.writeInt16LE(s, i * 2));
    return b;
  }

  it("computes frame energy in dBFS", () => {
    const env = createVoiceEnvelopeBuilder(8000, 0.02);
    // A full-scale square wave has power 1 (0 dBFS); half scale is -6 dB.
    env.push(pcm(Array.from({ length: 160 }, (_, i) => (i % 2 ? 32767 : -32768))));
    env.push(pcm(Array.from({ length: 160 }, (_, i) => (i % 2 ? 16384 : -16384))));
    const e = env.finish();
    expect(e).toHaveLength(2);
    expect(e[0]!).toBeCloseTo(0, 1);
    expect(e[1]!).toBeCloseTo(-6.02, 1);
    expect(env.samples).toBe(320);
  });

  it("gives the same envelope however the bytes are chunked (odd splits, unaligned buffers)", () => {
    const samples = Array.from({ length: 8000 }, (_, i) => Math.round(10000 * Math.sin(i / 7) * (i % 1000 < 500 ? 1 : 0.1)));
    const bytes = pcm(samples);
    const whole = createVoiceEnvelopeBuilder(8000);
    whole.push(bytes);
    const pieces = createVoiceEnvelopeBuilder(8000);
    for (let i = 0; i < bytes.length; ) {
      const n = Math.min(1 + ((i * 7) % 13), bytes.length - i);
      // Copy into an odd offset of a larger buffer so typed-array views would be misaligned.
      const host = Buffer.alloc(n + 1);
      bytes.copy(host, 1, i, i + n);
      pieces.push(host.subarray(1));
      i += n;
    }
    expect(Array.from(pieces.finish())).toEqual(Array.from(whole.finish()));
  });
});
