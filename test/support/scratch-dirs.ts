import { rm } from "node:fs/promises";
import type { RunnerTask, RunnerTestFile, RunnerTestSuite } from "vitest";

/** Whether anything under `task` (a test, a describe or its hooks) has failed so far. */
function failed(task: Readonly<RunnerTask>): boolean {
  if (task.result?.state === "fail" || (task.result?.errors?.length ?? 0) > 0) return true;
  return "tasks" in task && task.tasks.some(failed);
}

/**
 * The folders a test file writes its outputs, logs and downloads to (a job's files, a stack's state): removed in
 * its `afterAll` once every test and hook of the file passed, kept (and named on stderr) after a failure, where
 * they are what there is to read. Large ones add up in the system temp folder over many runs otherwise (a
 * job-lifecycle run left about 320 MB).
 */
export async function removeScratchUnlessFailed(suite: Readonly<RunnerTestSuite | RunnerTestFile>, dirs: readonly string[], completed = true): Promise<void> {
  if (!completed || failed(suite)) {
    if (dirs.length > 0) console.error(`kept for reading after a failure: ${dirs.join(", ")}`);
    return;
  }
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
