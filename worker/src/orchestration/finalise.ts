import type { ArtifactRef } from "../../../common/contract/render";
import type { JobPlan, TaskResult } from "../../../common/contract/job-plan";
import { finaliseJob, type FinalisedJob } from "../../../common/plan/finalise";
import { artifactKey } from "../artifacts/links";

/** Prefix of the intermediate reel parts (common/contract/job-plan.ts reelPartName). */
const PART_PREFIX = "part-";

/**
 * The job's last step, run by its Durable Object when every render task is done (no container needed):
 * metadata.json, the reels' editor timelines (.otio, .edl) and manifest.json written to R2 through the binding,
 * the reel parts deleted.
 */
export async function finaliseInWorker(bucket: R2Bucket, jobId: string, plan: JobPlan, results: readonly TaskResult[]): Promise<FinalisedJob> {
  const finalised = await finaliseJob(plan, results, async (name, body, contentType = "application/json") => {
    const bytes = new TextEncoder().encode(body);
    await bucket.put(artifactKey(jobId, name), bytes, { httpMetadata: { contentType } });
    return { size_bytes: bytes.byteLength };
  });
  await deleteReelParts(bucket, jobId);
  return finalised;
}

/** Reel parts are intermediate: deleted once the reels are joined (and when a job fails, so nothing lingers). */
export async function deleteReelParts(bucket: R2Bucket, jobId: string): Promise<number> {
  const prefix = artifactKey(jobId, PART_PREFIX);
  let cursor: string | undefined;
  let deleted = 0;
  do {
    const page = await bucket.list({ prefix, cursor, limit: 1000 });
    const keys = page.objects.map((o) => o.key);
    if (keys.length) await bucket.delete(keys);
    deleted += keys.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}

/** Files a result names but R2 does not hold (or holds with another size). */
export async function missingArtifacts(bucket: R2Bucket, jobId: string, files: readonly Pick<ArtifactRef, "name" | "size_bytes">[]): Promise<string[]> {
  const heads = await Promise.all(files.map((a) => bucket.head(artifactKey(jobId, a.name))));
  return files.filter((a, i) => !heads[i] || heads[i]!.size !== a.size_bytes).map((a) => a.name);
}

/** Every stored file a task result names (parts and deliverables). */
export function filesOf(result: TaskResult): { name: string; size_bytes: number }[] {
  switch (result.kind) {
    case "analyse":
      return [];
    case "reel_moment":
      return result.parts;
    case "reel_join":
    case "short":
      return result.artifacts;
    case "clip_group":
      return result.results.flatMap(filesOf);
  }
}
