import type { ArtifactRef, Manifest, MomentSignals } from "../contract/render";
import { memberResults, type JobPlan, type PlanMoment, type TaskResult } from "../contract/job-plan";
import { reelEditTimeline } from "../handoff/edit-timeline";
import { formatEdl } from "../handoff/edl";
import { HANDOFF_CONTENT_TYPES, handoffNames } from "../handoff/names";
import { formatOtio } from "../handoff/otio";
import { restateEdges } from "./edge-reasons";
import { buildManifest } from "./manifest";

/** File names of the two documents the finalising step writes. */
export const METADATA_FILE = "metadata.json";
export const MANIFEST_FILE = "manifest.json";

/** Something that stores a small text document in the job's folder and says how many bytes it wrote. */
export type WriteDocument = (name: string, body: string, contentType?: string) => Promise<{ size_bytes: number }>;

export interface FinalisedJob {
  manifest: Manifest;
  /** Every deliverable: the render tasks' files, then metadata.json, each reel's .otio and .edl, and manifest.json. */
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
 * highlight at the edges its render task settled on (scene-cut snapping happens there) and its "why" restated for
 * them (atFinalEdges); metadata.json gives every moment the same edges, so the two documents agree. Each
 * delivered reel gets its editor timeline (.otio and .edl) here too, since only this step sees every piece's final
 * edges and encoded length (common/handoff/). `results` holds the result of every render task that completed.
 */
export async function finaliseJob(plan: JobPlan, taskResults: readonly TaskResult[], write: WriteDocument): Promise<FinalisedJob> {
  const results = memberResults(taskResults);
  const artifacts = deliveredArtifacts(results);
  const bounds = finalBounds(results);

  const metadata = await write(METADATA_FILE, JSON.stringify(withMomentTimes(plan, bounds), null, 2));
  artifacts.push({ name: METADATA_FILE, kind: "metadata", content_type: "application/json", size_bytes: metadata.size_bytes, run_name: null, index: null, title: "Titles, descriptions, tags and stories", duration_seconds: null, tags: null });

  artifacts.push(...(await writeEditTimelines(plan, results, artifacts, write)));

  const highlights = plan.moments
    .filter((m) => m.highlight)
    .map((m) => {
      const at = bounds.get(m.id) ?? { start: m.start, end: m.end };
      return { profile: m.profile, ...at, label: m.label, signals: atFinalEdges(m, at), story: m.story, title: m.title };
    });
  const taskWarnings = results.flatMap((r) => (r.kind === "analyse" ? [] : (r.warnings ?? [])));
  const warnings = [...new Set([...plan.warnings, ...taskWarnings])];
  const manifest = buildManifest({ sourceDurationSeconds: plan.source.duration_seconds, highlights, artifacts, warnings });
  const written = await write(MANIFEST_FILE, JSON.stringify(manifest, null, 2));
  artifacts.push({ name: MANIFEST_FILE, kind: "manifest", content_type: "application/json", size_bytes: written.size_bytes, run_name: null, index: null, title: "Manifest", duration_seconds: null, tags: null });
  return { manifest, artifacts };
}

/** Each delivered reel's cuts as OpenTimelineIO (.otio) and a CMX 3600 EDL (.edl), beside the reel. */
async function writeEditTimelines(plan: JobPlan, results: readonly TaskResult[], delivered: readonly ArtifactRef[], write: WriteDocument): Promise<ArtifactRef[]> {
  const out: ArtifactRef[] = [];
  for (const reel of delivered) {
    if (reel.kind !== "reel" || reel.run_name === null) continue;
    const timeline = reelEditTimeline(plan, results, { run_name: reel.run_name, name: reel.name, title: reel.title, duration_seconds: reel.duration_seconds });
    if (!timeline) continue;
    const common = { run_name: reel.run_name, index: null, title: reel.title, duration_seconds: reel.duration_seconds, tags: null };
    for (const [kind, name, body] of [
      ["timeline", handoffNames.reelTimeline(reel.run_name), formatOtio(timeline)],
      ["edl", handoffNames.reelEdl(reel.run_name), formatEdl(timeline)],
    ] as const) {
      const written = await write(name, body, HANDOFF_CONTENT_TYPES[kind]);
      out.push({ ...common, name, kind, content_type: HANDOFF_CONTENT_TYPES[kind], size_bytes: written.size_bytes });
    }
  }
  return out;
}

/** What moves an edge after the plan was written: only a render task's snap to the scene cuts of its video. */
const SNAPPED = () => "by its render task's snap to the video's scene cuts";

/**
 * The moment's "why" for the edges the manifest lists: the plan's reasons were written for the planned edges, so
 * an edge its render task moved gets its sentence restated (the seconds from the peak, and how far it moved).
 */
export function atFinalEdges(m: Pick<PlanMoment, "signals" | "peak" | "start" | "end">, at: { start: number; end: number }): MomentSignals {
  if (Math.abs(at.start - m.start) < 1e-9 && Math.abs(at.end - m.end) < 1e-9) return m.signals;
  return { ...m.signals, reasons: restateEdges(m.signals.reasons, m.peak, m, at, SNAPPED) };
}

/**
 * Where each moment's render task put its edges: a reel moment's task first (the edges the manifest lists), else
 * the short's (an automatic short may nudge its start to a scene cut).
 */
export function finalBounds(results: readonly TaskResult[]): Map<string, { start: number; end: number }> {
  const bounds = new Map<string, { start: number; end: number }>();
  const members = memberResults(results);
  for (const r of members) if (r.kind === "reel_moment") bounds.set(r.moment.id, { start: r.moment.start, end: r.moment.end });
  for (const r of members) if (r.kind === "short" && !bounds.has(r.moment.id)) bounds.set(r.moment.id, { start: r.moment.start, end: r.moment.end });
  return bounds;
}

const ms = (n: number) => Math.round(n * 1000) / 1000;

/** metadata.json with each moment's final edges (`start`, `end`, VOD seconds, as the manifest rounds them). */
export function withMomentTimes(plan: Pick<JobPlan, "metadata" | "moments">, bounds: ReadonlyMap<string, { start: number; end: number }>): Record<string, unknown> {
  const moments = plan.metadata.moments;
  if (!Array.isArray(moments)) return plan.metadata;
  const planned = new Map(plan.moments.map((m) => [m.id, { start: m.start, end: m.end }]));
  return {
    ...plan.metadata,
    moments: moments.map((entry: unknown) => {
      if (typeof entry !== "object" || entry === null || typeof (entry as { id?: unknown }).id !== "string") return entry;
      const id = (entry as { id: string }).id;
      const at = bounds.get(id) ?? planned.get(id);
      return at ? { ...entry, start: ms(at.start), end: ms(at.end) } : entry;
    }),
  };
}
