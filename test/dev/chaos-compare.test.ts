import { describe, expect, it } from "vitest";
import { compareOutcomes, type JobOutcome } from "../../dev/chaos/compare";

/** The chaos run's verdict (dev/chaos/compare.ts): what counts as "the same outcome", and that each kind of difference is caught. */

function outcome(jobId: string): JobOutcome {
  const file = (name: string, type: string, size: number, sha: string) => ({ name, type, size_bytes: size, sha256: sha.repeat(64 / sha.length) });
  return {
    job_id: jobId,
    job: { status: "completed", progress: 100, credit_cost: 80, refunded_credits: 0, error: null },
    files: [file("reel-balanced.mp4", "reel", 1_000_000, "aa"), file("short-01.mp4", "short", 500_000, "bb"), file("short-01.srt", "captions", 300, "cc")],
    manifest: { summary: { total_videos: 2 }, artifacts: { assets: { shorts: [{ name: "short-01.mp4", url: `https://x/files/${jobId}/short-01.mp4?sig=1`, size_bytes: 500_000 }] } } },
    webhooks: [
      { event: "job.running", signatureValid: true, payload: { job_id: jobId, status: "running", created_at: "2026-11-27T05:00:00Z" } },
      { event: "job.completed", signatureValid: true, payload: { job_id: jobId, status: "completed", zip_url: `https://x/jobs/${jobId}/download-all?token=t`, refunded_credits: 0 } },
    ],
    ledger: [{ kind: "reserve", amount: -80, reason: `job ${jobId}` }],
  };
}

describe("compareOutcomes", () => {
  it("finds two jobs the same when only their ids, links and timestamps differ", () => {
    const a = outcome("job_A");
    const b = outcome("job_B");
    (b.webhooks[0]!.payload as { created_at: string }).created_at = "2026-11-27T05:09:00Z";
    expect(compareOutcomes(a, b)).toEqual({ differences: [], withinTolerance: [], identicalFiles: 3 });
  });

  it("allows a video of other bytes within the size tolerance (listed), not a caption file", () => {
    const a = outcome("job_A");
    const b = outcome("job_B");
    b.files[1] = { ...b.files[1]!, size_bytes: 505_000, sha256: "d".repeat(64) };
    const video = compareOutcomes(a, b);
    expect(video.differences).toEqual([]);
    expect(video.withinTolerance).toEqual(["short-01.mp4: 500000 vs 505000 bytes"]);
    b.files[2] = { ...b.files[2]!, sha256: "e".repeat(64) };
    expect(compareOutcomes(a, b).differences).toEqual([expect.stringMatching(/^file short-01\.srt/)]);
    b.files[1] = { ...b.files[1]!, size_bytes: 600_000 };
    expect(compareOutcomes(a, b).differences.some((d) => d.startsWith("file short-01.mp4"))).toBe(true);
  });

  it("catches a missing file, a webhook sent twice or unsigned, an extra ledger entry and another refund", () => {
    const a = outcome("job_A");
    const missing = outcome("job_B");
    missing.files.pop();
    expect(compareOutcomes(a, missing).differences).toEqual([expect.stringMatching(/^file names/)]);

    const twice = outcome("job_B");
    twice.webhooks.push(twice.webhooks[1]!);
    expect(compareOutcomes(a, twice).differences).toEqual([expect.stringMatching(/^webhook events/)]);

    const unsigned = outcome("job_B");
    unsigned.webhooks[0] = { ...unsigned.webhooks[0]!, signatureValid: false };
    expect(compareOutcomes(a, unsigned).differences).toEqual(["disturbed: webhooks with a bad signature: job.running"]);

    const charged = outcome("job_B");
    charged.ledger.push({ kind: "reserve", amount: -80, reason: "job job_B" });
    expect(compareOutcomes(a, charged).differences).toEqual([expect.stringMatching(/^ledger entries/)]);

    const refunded = outcome("job_B");
    refunded.job.refunded_credits = 10;
    (refunded.webhooks[1]!.payload as { refunded_credits: number }).refunded_credits = 10;
    expect(compareOutcomes(a, refunded).differences).toEqual([expect.stringMatching(/^job record/), expect.stringMatching(/^webhook 2 \(job\.completed\) payload/)]);
  });
});
