import { describe, expect, it } from "vitest";
import { sourceOfOptions } from "../../scripts/highlight-eval/source-b";

describe("eval:highlights: which source --source, --voices and --mix name", () => {
  it("names b, c and c's two variants", () => {
    expect(sourceOfOptions("b")).toBe("b");
    expect(sourceOfOptions("c")).toBe("c");
    expect(sourceOfOptions("c", "flat")).toBe("c-flat");
    expect(sourceOfOptions("c", undefined, "compressed")).toBe("c-compressed");
  });

  it("says which option is wrong and why", () => {
    expect(() => sourceOfOptions("c", "loud")).toThrow("--voices takes flat (every voice on one pitch), got loud");
    expect(() => sourceOfOptions("c", undefined, "limited")).toThrow("--mix takes compressed");
    expect(() => sourceOfOptions("b", "flat")).toThrow("--voices and --mix are variants of source c, not of source b");
    expect(() => sourceOfOptions("c", "flat", "compressed")).toThrow("give one");
    expect(() => sourceOfOptions("d")).toThrow("--source must be b or c here, got d");
  });
});
