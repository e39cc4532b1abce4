import { describe, expect, it } from "vitest";
import type { Moment } from "../../../render-container/src/selection/types";
import { splitAtSources, splitRange, STORY_WINDOW, storyRanges, subtractRanges } from "../../../render-container/src/pipeline/stages/transcribe";

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

describe("what is transcribed for a plan", () => {
  const m = (start: number, end: number, peak: number) => ({ start, end, peak }) as Moment;
  const a = m(100, 160, 140);
  const b = m(300, 330, 302);
  const c = m(600, 640, 639);
  const plan = { reels: [{ profile: "balanced" as const, moments: [a, b, c], coldOpen: [{ start: 135, end: 145 }] }], shorts: [{ index: 1, moment: c }] };

  it("for the texts alone (shorts make their own captions), takes the window around every moment's and short's peak", () => {
    const short = m(700, 760, 730);
    const withShort = { ...plan, shorts: [{ index: 1, moment: c }, { index: 2, moment: short }] };
    expect(storyRanges(withShort, true)).toEqual([
      { start: 140 - STORY_WINDOW.beforePeak, end: 140 + STORY_WINDOW.afterPeak },
      { start: 300, end: 302 + STORY_WINDOW.afterPeak },
      { start: 639 - STORY_WINDOW.beforePeak, end: 640 },
      { start: 730 - STORY_WINDOW.beforePeak, end: 730 + STORY_WINDOW.afterPeak },
    ]);
    expect(storyRanges(withShort, false)).toEqual([
      { start: 100, end: 160 },
      { start: 300, end: 330 },
      { start: 600, end: 640 },
      { start: 700, end: 760 },
    ]);
  });
});
