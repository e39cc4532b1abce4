import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountCredits, createAccount, minimalJob, postJob } from "./helpers";

describe("credits under concurrency", () => {
  it("never overdraws under 50 concurrent POST /jobs on one account", async () => {
    const initial = 1000;
    const acct = await createAccount({ plan: "pro", credits: initial, purchase: true });
    // 1 h on auto_balance: 40 + 25 = 65 credits; 1000 credits pay for 15 jobs.
    const responses = await Promise.all(Array.from({ length: 50 }, () => postJob(acct.api_key, minimalJob())));
    const statuses = responses.map((r) => r.status);
    const accepted = statuses.filter((s) => s === 202).length;
    expect(statuses.every((s) => s === 202 || s === 402)).toBe(true);
    expect(accepted).toBe(15);

    const balance = await accountCredits(acct.account_id);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(accepted * 65 + balance).toBe(initial);

    const jobs = await env.DB.prepare("SELECT count(*) AS n, sum(credit_cost) AS cost FROM jobs WHERE account_id = ?").bind(acct.account_id).first<{ n: number; cost: number }>();
    expect(jobs).toEqual({ n: accepted, cost: accepted * 65 });
    const ledger = await env.DB.prepare("SELECT kind, count(*) AS n, sum(amount) AS total, min(balance_after) AS lowest FROM credit_ledger WHERE account_id = ? GROUP BY kind ORDER BY kind")
      .bind(acct.account_id)
      .all();
    expect(ledger.results).toEqual([
      { kind: "purchase", n: 1, total: initial, lowest: initial },
      { kind: "reserve", n: accepted, total: -accepted * 65, lowest: balance },
    ]);
    // Each 402 reported the balance it saw, never a negative one.
    for (const res of responses.filter((r) => r.status === 402)) {
      const body = (await res.json()) as { error: { needed: number; available: number } };
      expect(body.error.needed).toBe(65);
      expect(body.error.available).toBeGreaterThanOrEqual(0);
      expect(body.error.available).toBeLessThan(65);
    }
  }, 30_000); // 50 requests at once through D1: 5 s ran out at a load average of 17
});
