import type { RunProfile } from "../contract/enums";
import type { ArtifactRef, Manifest, ManifestAsset, MomentSignals } from "../contract/render";

/** One listed highlight: a profile's chosen moment, with its final edges and texts. */
export interface ManifestHighlightInput {
  profile: RunProfile;
  start: number;
  end: number;
  label: string | null;
  signals: MomentSignals;
  story: string;
  title: string;
}

export interface ManifestInput {
  sourceDurationSeconds: number;
  highlights: ManifestHighlightInput[];
  artifacts: readonly ArtifactRef[];
  warnings: string[];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function asset(a: ArtifactRef): ManifestAsset {
  return { name: a.name, run_name: a.run_name, index: a.index, title: a.title, duration_seconds: a.duration_seconds, size_bytes: a.size_bytes };
}

/**
 * The job's manifest.json (schema `Manifest`, common/contract/render.ts); every group in artifacts.assets is an
 * array (several profiles per job). Pure, so the Worker (finalising a fanned-out job) and the renderer (a whole
 * job in one process) build the same document.
 */
export function buildManifest(input: ManifestInput): Manifest {
  const videos = input.artifacts.filter((a) => a.kind === "reel" || a.kind === "short");
  const shorts = input.artifacts.filter((a) => a.kind === "short").sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const of = (kind: ArtifactRef["kind"]) => input.artifacts.filter((a) => a.kind === kind).map(asset);
  return {
    summary: {
      total_videos: videos.length,
      generated_video_duration_seconds: round(videos.reduce((s, v) => s + (v.duration_seconds ?? 0), 0)),
      total_shorts: shorts.length,
      source_vod_duration_seconds: round(input.sourceDurationSeconds),
    },
    highlights: [...input.highlights]
      .sort((a, b) => a.profile.localeCompare(b.profile) || a.start - b.start)
      .map((h) => ({
        story: h.story,
        start: round(h.start),
        end: round(h.end),
        duration: round(h.end - h.start),
        run_name: h.profile,
        title: h.title,
        label: h.label,
        signals: h.signals,
      })),
    shorts_count: shorts.length,
    artifacts: {
      assets: {
        compilation: of("reel"),
        shorts: shorts.map(asset),
        thumbnails: of("thumbnail"),
        captions: of("captions"),
        metadata: of("metadata"),
        timelines: of("timeline"),
        edls: of("edl"),
        transcripts: of("transcript").sort((a, b) => (a.index ?? 0) - (b.index ?? 0)),
      },
    },
    warnings: input.warnings,
  };
}
