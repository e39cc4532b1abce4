import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { STORED_ANALYSIS_NAME, type AnalysisReuseSource } from "../../common/contract/analysis-reuse";
import type { JobPlan } from "../../common/contract/job-plan";

/** A short's heard words (common/contract/heard-words.ts heardWordsName). */
const HEARD = /^short-\d{2}\.heard\.json$/;

/**
 * The job runner's stand-in for the Worker's signed links to a stored analysis and to the earlier shorts' heard
 * words: an HTTP server on 127.0.0.1 serving what an earlier in-process job stored in its folder, so a second
 * job's analysis task reads them as it would from R2 (one GET each). `withHeard: false` gives no heard words (as
 * a Worker whose earlier jobs kept none). For the re-cut benchmark and tests; close() stops it.
 */
export async function storedAnalysisLink(filesDir: string, earlier: { jobId: string; plan: JobPlan }, opts: { withHeard?: boolean } = {}): Promise<{ reuse: AnalysisReuseSource; requests: () => number; close: () => Promise<void> }> {
  const stored = earlier.plan.analysis?.stored;
  if (!stored) throw new Error(`job ${earlier.jobId} stored no analysis`);
  const file = path.join(filesDir, STORED_ANALYSIS_NAME);
  const { size } = await stat(file);
  let served = 0;
  const heard = opts.withHeard === false ? [] : (await readdir(filesDir)).filter((n) => HEARD.test(n)).sort();
  const server = createServer((req, res) => {
    const name = (req.url ?? "").slice(1);
    if (name === STORED_ANALYSIS_NAME) {
      served += 1;
      res.writeHead(200, { "content-type": "application/gzip", "content-length": String(size) });
      createReadStream(file).pipe(res);
    } else if (heard.includes(name)) {
      res.writeHead(200, { "content-type": "application/json" });
      createReadStream(path.join(filesDir, name)).pipe(res);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    reuse: { from_job_id: earlier.jobId, analysed_at: stored.analysed_at, url: `http://127.0.0.1:${port}/${STORED_ANALYSIS_NAME}`, heard: heard.map((n) => `http://127.0.0.1:${port}/${n}`) },
    requests: () => served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
