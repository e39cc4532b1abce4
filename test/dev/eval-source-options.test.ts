import { describe, expect, it } from "vitest";
import { sourceOfOptions } from "../../scripts/highlight-eval/source-b";

describe("eval:highlights: which source --source and the variant options (--voices, --mix, --sounds) name", () => {
  it("names b, c and c's five variants", () => {
    expect(sourceOfOptions("b")).toBe("b");
    expect(sourceOfOptions("c")).toBe("c");
    expect(sourceOfOptions("c", { voices: "flat" })).toBe("c-flat");
    expect(sourceOfOptions("c", { mix: "compressed" })).toBe("c-compressed");
    expect(sourceOfOptions("c", { mix: "loudnorm" })).toBe("c-loudnorm");
    expect(sourceOfOptions("c", { sounds: "loud" })).toBe("c-loud");
    expect(sourceOfOptions("c", { moments: "none" })).toBe("c-calm");
  });

  it("says which option is wrong and why", () => {
    expect(() => sourceOfOptions("c", { voices: "loud" })).toThrow("--voices takes flat (every voice on one pitch), got loud");
    expect(() => sourceOfOptions("c", { mix: "limited" })).toThrow("--mix takes compressed (the mix through a broadcast compressor) or loudnorm (the mix through FFmpeg's loudness normaliser), got limited");
    expect(() => sourceOfOptions("c", { sounds: "quiet" })).toThrow("--sounds takes loud (game sounds louder than the streamer), got quiet");
    expect(() => sourceOfOptions("b", { voices: "flat" })).toThrow("--voices, --mix, --sounds, --moments are variants of source c, not of source b");
    expect(() => sourceOfOptions("c", { moments: "all" })).toThrow("--moments takes none (no moment to find, only the distractors), got all");
    expect(() => sourceOfOptions("a", { sounds: "loud" })).toThrow("are variants of source c, not of source a");
    expect(() => sourceOfOptions("c", { voices: "flat", mix: "compressed" })).toThrow("--voices and --mix are separate variants of source c: give one");
    expect(() => sourceOfOptions("d")).toThrow("--source must be b or c here, got d");
  });
});
