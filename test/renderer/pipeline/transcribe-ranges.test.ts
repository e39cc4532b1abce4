import { describe, expect, it } from "vitest";
import { splitAtSources, splitRange, subtractRanges } from "../../../render-container/src/pipeline/stages/transcribe";

const part = (start: number, end: number) => ({ path: `/tmp/p${start}`, media_start_seconds: start, media_end_seconds: end, bytes: 0, muted_ranges: [] });

describe("what is left to transcribe", () => {
  it("subtracts what was already transcribed", () => {
    expect(subtractRanges({ start: 10, end: 40 }, [])).toEqual([{ start: 10, end: 40 }]);
    expect(subtractRanges({ start: 10, end: 40 }, [{ start: 8, end: 20 }, { start: 25, end: 30 }])).toEqual([
      { start: 20, end: 25 },
      { start: 30, end: 40 },
    ]);
    expect(subtractRanges({ start: 10, end: 40 }, [{ start: 0, end: 50 }])).toEqual([]);
    expect(subtractRanges({ start: 10, end: 40 }, [{ start: 40, end: 50 }])).toEqual([{ start: 10, end: 40 }]);
  });

  it("cuts a range where the audio part holding it changes, and refuses audio nobody downloaded", () => {
    const parts = [part(0, 5400.5), part(5399.9, 10800)];
    const pieces = splitAtSources({ start: 5390, end: 5410 }, parts);
    expect(pieces.map((p) => [p.range.start, p.range.end, p.source.media_start_seconds])).toEqual([
      [5390, 5400.5, 0],
      [5400.5, 5410, 5399.9],
    ]);
    expect(() => splitAtSources({ start: 10790, end: 10810 }, parts)).toThrow(/No downloaded audio covers 10800/);
  });

  it("splits long ranges into pieces of about a minute", () => {
    expect(splitRange({ start: 0, end: 150 }, 60).map((r) => r.end - r.start)).toEqual([50, 50, 50]);
    expect(splitRange({ start: 0, end: 20 }, 60)).toEqual([{ start: 0, end: 20 }]);
  });
});
