import { describe, expect, it } from "vitest";
import { Manifest, type ArtifactRef } from "../../../common/contract/render";
import { buildManifest } from "../../../common/plan/manifest";
import { moment } from "./plan-fixtures";

function ref(name: string, kind: ArtifactRef["kind"], o: Partial<ArtifactRef> = {}): ArtifactRef {
  return { name, kind, content_type: "application/octet-stream", size_bytes: 1000, run_name: null, index: null, title: null, duration_seconds: null, tags: null, ...o };
}

/** Two profiles (two reels) and two shorts, stored in the order they finished. */
const artifacts: ArtifactRef[] = [
  ref("reel-balanced.mp4", "reel", { run_name: "balanced", title: "Best of", duration_seconds: 95.51234, size_bytes: 9_000_000 }),
  ref("reel-balanced.jpg", "thumbnail", { run_name: "balanced" }),
  ref("reel-audience.mp4", "reel", { run_name: "audience", title: "Chat's picks", duration_seconds: 60.25 }),
  ref("reel-audience.jpg", "thumbnail", { run_name: "audience" }),
  ref("short-02.mp4", "short", { run_name: "balanced", index: 2, title: "Second", duration_seconds: 30, tags: ["a"] }),
  ref("short-02.srt", "captions", { run_name: "balanced", index: 2 }),
  ref("short-01.mp4", "short", { run_name: "balanced", index: 1, title: "First", duration_seconds: 45.004, tags: ["b"] }),
  ref("short-01.srt", "captions", { run_name: "balanced", index: 1 }),
  ref("short-01.jpg", "thumbnail", { run_name: "balanced", index: 1 }),
  ref("short-02.jpg", "thumbnail", { run_name: "balanced", index: 2 }),
  ref("metadata.json", "metadata"),
];

const highlight = (m: ReturnType<typeof moment>) => ({ profile: m.profile, start: m.start, end: m.end, label: m.label, signals: m.signals });

describe("buildManifest", () => {
  const m1 = moment(100.12345, 130.5, 0.9);
  const m2 = moment(40, 80, 0.6);
  const m3 = moment(200, 230, 0.8, { profile: "audience" });
  const manifest = buildManifest({
    sourceDurationSeconds: 3600.0004,
    highlights: [
      { ...highlight(m1), story: "The clutch.", title: "Clutch" },
      { ...highlight(m3), story: "Chat explodes.", title: "Chat" },
      { ...highlight(m2), story: "The setup.", title: "Setup" },
    ],
    artifacts,
    warnings: ["chat partly missing"],
  });

  it("parses as the contract's Manifest and survives JSON", () => {
    expect(Manifest.parse(JSON.parse(JSON.stringify(manifest)))).toEqual(manifest);
  });

  it("sums the videos in summary: every reel and short, their measured lengths, the source's length", () => {
    expect(manifest.summary).toEqual({
      total_videos: 4,
      generated_video_duration_seconds: 230.766,
      total_shorts: 2,
      source_vod_duration_seconds: 3600,
    });
    expect(manifest.shorts_count).toBe(2);
  });

  it("lists every highlight with story, start, end, duration and run_name, per profile in VOD order", () => {
    expect(manifest.highlights.map(({ story, start, end, duration, run_name }) => ({ story, start, end, duration, run_name }))).toEqual([
      { story: "Chat explodes.", start: 200, end: 230, duration: 30, run_name: "audience" },
      { story: "The setup.", start: 40, end: 80, duration: 40, run_name: "balanced" },
      { story: "The clutch.", start: 100.123, end: 130.5, duration: 30.377, run_name: "balanced" },
    ]);
  });

  it("makes every asset group an array, compilation and metadata included", () => {
    const { assets } = manifest.artifacts;
    expect(Object.keys(assets).sort()).toEqual(["captions", "compilation", "edls", "metadata", "shorts", "thumbnails", "timelines", "transcripts"]);
    for (const group of Object.values(assets)) expect(Array.isArray(group)).toBe(true);
    expect(assets.compilation.map((a) => [a.name, a.run_name])).toEqual([["reel-balanced.mp4", "balanced"], ["reel-audience.mp4", "audience"]]);
    expect(assets.compilation[0]).toMatchObject({ title: "Best of", duration_seconds: 95.51234, size_bytes: 9_000_000 });
    expect(assets.shorts.map((a) => [a.name, a.index])).toEqual([["short-01.mp4", 1], ["short-02.mp4", 2]]);
    expect(assets.captions).toHaveLength(2);
    expect(assets.thumbnails).toHaveLength(4);
    expect(assets.metadata.map((a) => a.name)).toEqual(["metadata.json"]);
    expect(manifest.warnings).toEqual(["chat partly missing"]);
  });

  it("keeps empty groups as arrays in a shorts-only job", () => {
    const shortsOnly = buildManifest({ sourceDurationSeconds: 60, highlights: [], artifacts: artifacts.filter((a) => !a.name.startsWith("reel-")), warnings: [] });
    expect(shortsOnly.artifacts.assets.compilation).toEqual([]);
    expect(shortsOnly.summary).toMatchObject({ total_videos: 2, total_shorts: 2 });
  });
});
