import type { ArtifactRef, Manifest } from "../contract/render";
import { memberResults, type JobPlan, type TaskResult } from "../contract/job-plan";
import { buildManifest } from "./manifest";

/** File names of the two documents the finalising step writes. */
export const METADATA_FILE = "metadata.json";
export const MANIFEST_FILE = "manifest.json";

/** Something that stores a small JSON document in the job's folder and says how many bytes it wrote. */
export type WriteDocument = (name: string, body: string) => Promise<{ size_bytes: number }>;

export interface FinalisedJob {
  manifest: Manifest;
  /** Every deliverable: the render tasks' files, then metadata.json and manifest.json. */
  artifacts: ArtifactRef[];
}

/** Deliverable files the render tasks reported (reel parts are intermediate and never listed). */
export function deliveredArtifacts(results: Iterable<TaskResult>): ArtifactRef[] {
  const out: ArtifactRef[] = [];
  for (const r of memberResults([...results])) if (r.kind === "reel_join" || r.kind === "short") out.push(...r.artifacts);
  return out;
}

/**
 * The last step of a job: metadata.json from the plan, then the manifest over every delivered file, with each
 * highlight at the edges its render task settled on (scene-cut snapping happens there). `results` holds the
 * result of every render task that completed.
 */
export async function finaliseJob(plan: JobPlan, taskResults: readonly TaskResult[], write: WriteDocument): Promise<FinalisedJob> {
  const results = memberResults(taskResults);
  const artifacts = deliveredArtifacts(results);
  const bounds = new Map<string, { start: number; end: number }>();
  for (const r of results) if (r.kind === "reel_moment") bounds.set(r.moment.id, { start: r.moment.start, end: r.moment.end });

  const metadata = await write(METADATA_FILE, JSON.stringify(plan.metadata, null, 2));
  artifacts.push({ name: METADATA_FILE, kind: "metadata", content_type: "application/json", size_bytes: metadata.size_bytes, run_name: null, index: null, title: "Titles, descriptions, tags and stories", duration_seconds: null, tags: null });

  const highlights = plan.moments
    .filter((m) => m.highlight)
    .map((m) => ({ profile: m.profile, ...(bounds.get(m.id) ?? { start: m.start, end: m.end }), label: m.label, signals: m.signals, story: m.story, title: m.title }));
  const taskWarnings = results.flatMap((r) => (r.kind === "analyse" ? [] : (r.warnings ?? [])));
  const warnings = [...new Set([...plan.warnings, ...taskWarnings])];
  const manifest = buildManifest({ sourceDurationSeconds: plan.source.duration_seconds, highlights, artifacts, warnings });
  const written = await write(MANIFEST_FILE, JSON.stringify(manifest, null, 2));
  artifacts.push({ name: MANIFEST_FILE, kind: "manifest", content_type: "application/json", size_bytes: written.size_bytes, run_name: null, index: null, title: "Manifest", duration_seconds: null, tags: null });
  return { manifest, artifacts };
}
