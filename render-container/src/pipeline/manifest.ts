import type { RunProfile } from "../../../common/contract/enums";
import type { ArtifactRef, Manifest, ManifestAsset } from "../../../common/contract/render";
import type { Moment } from "../selection/types";

export interface ManifestInput {
  sourceDurationSeconds: number;
  /** Each executed profile's chosen moments with their story and title. */
  highlights: { profile: RunProfile; moment: Moment; story: string; title: string }[];
  artifacts: ArtifactRef[];
  warnings: string[];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function asset(a: ArtifactRef): ManifestAsset {
  return { name: a.name, run_name: a.run_name, index: a.index, title: a.title, duration_seconds: a.duration_seconds, size_bytes: a.size_bytes };
}

/** The manifest of spec 2.9; every group in artifacts.assets is an array (several profiles per job). */
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
    highlights: input.highlights
      .sort((a, b) => a.profile.localeCompare(b.profile) || a.moment.start - b.moment.start)
      .map(({ profile, moment, story, title }) => ({
        story,
        start: round(moment.start),
        end: round(moment.end),
        duration: round(moment.end - moment.start),
        run_name: profile,
        title,
        label: moment.label,
        signals: moment.signals,
      })),
    shorts_count: shorts.length,
    artifacts: {
      assets: {
        compilation: of("reel"),
        shorts: shorts.map(asset),
        thumbnails: of("thumbnail"),
        captions: of("captions"),
        metadata: of("metadata"),
      },
    },
    warnings: input.warnings,
  };
}
