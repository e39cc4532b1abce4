import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { STORED_ANALYSIS_NAME, type AnalysisReuseSource } from "../../common/contract/analysis-reuse";
import type { JobPlan } from "../../common/contract/job-plan";

/**
 * The job runner's stand-in for the Worker's signed link to a stored analysis: an HTTP server on 127.0.0.1
 * serving the analysis an earlier in-process job stored in its folder, so a second job's analysis task reads it
 * as it would from R2 (one GET). For the re-cut benchmark and tests; close() stops it.
 */
export async function storedAnalysisLink(filesDir: string, earlier: { jobId: string; plan: JobPlan }): Promise<{ reuse: AnalysisReuseSource; requests: () => number; close: () => Promise<void> }> {
  const stored = earlier.plan.analysis?.stored;
  if (!stored) throw new Error(`job ${earlier.jobId} stored no analysis`);
  const file = path.join(filesDir, STORED_ANALYSIS_NAME);
  const { size } = await stat(file);
  let served = 0;
  const server = createServer((req, res) => {
    if (req.url !== `/${STORED_ANALYSIS_NAME}`) {
      res.writeHead(404).end();
      return;
    }
    served += 1;
    res.writeHead(200, { "content-type": "application/gzip", "content-length": String(size) });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    reuse: { from_job_id: earlier.jobId, analysed_at: stored.analysed_at, url: `http://127.0.0.1:${port}/${STORED_ANALYSIS_NAME}` },
    requests: () => served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
