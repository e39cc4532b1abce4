import type { ArtifactRef, Manifest, ManifestAsset } from "../../../common/contract/render";
import type { Deliverable, JobResults } from "../../../common/contract/results";
import { artifactLink, linkTtlSeconds, zipToken, type LinkEnv } from "./links";

/** What the renderer reported on completion, stored with the job. */
export interface StoredResult {
  manifest: Manifest;
  artifacts: ArtifactRef[];
}

/** The results' shapes come from the contract, the same schemas the OpenAPI document is generated from. */
export type { Deliverable } from "../../../common/contract/results";
export type PublishedResults = JobResults;

/** Files the ZIP and the retention sweep cover: every stored artifact plus the published manifest. */
export const MANIFEST_FILE = "manifest.json";

/** Titles of non-video files name the video they belong to, so a flat list still reads well. */
function describe(a: ArtifactRef, videos: ArtifactRef[]): { title: string; duration_seconds: number } {
  if (a.kind === "reel" || a.kind === "short") return { title: a.title ?? a.name, duration_seconds: a.duration_seconds ?? 0 };
  const owner = videos.find((v) => (a.index !== null && v.kind === "short" && v.index === a.index) || (a.index === null && a.run_name !== null && v.kind === "reel" && v.run_name === a.run_name));
  const label = { thumbnail: "Thumbnail", captions: "Captions (.srt)", metadata: "Metadata", manifest: "Manifest", timeline: "Timeline (.otio)", edl: "EDL (.edl)", transcript: "Transcript (.json)" }[a.kind];
  if (owner) return { title: `${label}: ${owner.title ?? owner.name}`, duration_seconds: owner.duration_seconds ?? 0 };
  return { title: a.title ?? label, duration_seconds: a.duration_seconds ?? 0 };
}

const KIND_ORDER: Record<ArtifactRef["kind"], number> = { reel: 0, short: 1, thumbnail: 2, captions: 3, transcript: 4, timeline: 5, edl: 6, metadata: 7, manifest: 8 };

/**
 * Publishes a completed job's files: presigned expiring links for every file, the download-all link and the
 * manifest with links filled in. Links never outlive the files (artifacts_expires_at).
 */
export async function publishResults(env: LinkEnv, baseUrl: string, job: { id: string; artifacts_expires_at: string | null; refunded_credits: number }, result: StoredResult, now = Date.now()): Promise<PublishedResults> {
  const nowSec = Math.floor(now / 1000);
  const filesGoneAt = job.artifacts_expires_at ? Math.floor(Date.parse(job.artifacts_expires_at) / 1000) : Number.POSITIVE_INFINITY;
  const expiresAt = Math.max(nowSec + 1, Math.min(nowSec + linkTtlSeconds(env), filesGoneAt));

  const videos = result.artifacts.filter((a) => a.kind === "reel" || a.kind === "short");
  // Kind, then the reels' files (no index) before the shorts' in short order, then by profile.
  const sorted = [...result.artifacts].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.index ?? 0) - (b.index ?? 0) || (a.run_name ?? "").localeCompare(b.run_name ?? ""));
  const urls = new Map<string, string>();
  for (const a of sorted) urls.set(a.name, await artifactLink(env, baseUrl, job.id, a.name, expiresAt));

  const deliverables: Deliverable[] = sorted.map((a) => {
    const d: Deliverable = { type: a.kind, name: a.name, ...describe(a, videos), url: urls.get(a.name)!, size_bytes: a.size_bytes, content_type: a.content_type };
    if (a.run_name) d.run_name = a.run_name;
    if (a.index !== null) d.index = a.index;
    if (a.kind === "short") d.tags = a.tags ?? [];
    return d;
  });

  const withUrl = (assets: ManifestAsset[]) => assets.map((asset) => ({ ...asset, url: urls.get(asset.name) ?? asset.url }));
  const a = result.manifest.artifacts.assets;
  const manifest: Manifest = {
    ...result.manifest,
    artifacts: {
      ...result.manifest.artifacts,
      // The hand-off groups are absent in results stored before they existed (the stored result is not re-parsed).
      assets: { compilation: withUrl(a.compilation), shorts: withUrl(a.shorts), thumbnails: withUrl(a.thumbnails), captions: withUrl(a.captions), metadata: withUrl(a.metadata), timelines: withUrl(a.timelines ?? []), edls: withUrl(a.edls ?? []), transcripts: withUrl(a.transcripts ?? []) },
    },
  };

  return {
    job_id: job.id,
    status: "completed",
    deliverables,
    zip_url: `${baseUrl}/jobs/${encodeURIComponent(job.id)}/download-all?token=${await zipToken(env, job.id, expiresAt)}`,
    links_expire_at: new Date(expiresAt * 1000).toISOString(),
    refunded_credits: job.refunded_credits,
    manifest,
  };
}
