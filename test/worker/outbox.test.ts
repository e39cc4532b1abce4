import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { postWebhook, retryDelayMs, WebhookOutbox, type Sender } from "../../worker/src/webhooks/outbox";
import { webhookBox } from "./job-steps";

/** Each test gets its own object's SQLite storage. */
let n = 0;
function withOutbox<T>(base: number, fn: (outbox: WebhookOutbox) => Promise<T>): Promise<T> {
  n += 1;
  const stub = env.JOB_STATE.get(env.JOB_STATE.idFromName(`outbox-test-${n}-${Date.now()}`));
  return runInDurableObject(stub, (_instance, state) => fn(new WebhookOutbox(state.storage.sql, base)));
}

/** A sender answering from a script of status codes (null = network error), recording every call. */
function scripted(codes: (number | null)[]): { send: Sender; calls: Parameters<Sender>[0][] } {
  const calls: Parameters<Sender>[0][] = [];
  return {
    calls,
    send: async (d) => {
      calls.push(d);
      const code = codes[Math.min(calls.length - 1, codes.length - 1)] ?? null;
      return { status_code: code, error: code !== null && code >= 200 && code < 300 ? null : code === null ? "connection refused" : `HTTP ${code}`, duration_ms: 1 };
    },
  };
}

describe("retry schedule", () => {
  it("waits base, 4x base and 16x base (30 s, 2 min, 8 min by default)", () => {
    expect([1, 2, 3].map((r) => retryDelayMs(r, 30))).toEqual([30_000, 120_000, 480_000]);
    expect([1, 2, 3].map((r) => retryDelayMs(r, 0.1))).toEqual([100, 400, 1600]);
  });
});

describe("WebhookOutbox", () => {
  it("delivers on the first 2xx and records the attempt", () =>
    withOutbox(30, async (outbox) => {
      const t0 = 1_000_000;
      const { id, event_id } = outbox.enqueue("job.running", "https://hooks.example/x", { job_id: "j1" }, t0);
      expect(outbox.nextDueAt()).toBe(t0);
      const { send, calls } = scripted([204]);
      expect(await outbox.runDue(send, t0)).toBe(1);
      expect(calls).toEqual([{ id, event_id, event: "job.running", url: "https://hooks.example/x", body: JSON.stringify({ event: "job.running", payload: { job_id: "j1" } }), attempt: 1 }]);
      const [d] = outbox.list();
      expect(d).toMatchObject({ id, status: "delivered", next_attempt_at: null });
      expect(d!.attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([[1, 204, null]]);
      expect(outbox.nextDueAt()).toBeNull();
    }));

  it("retries 3 times on the schedule, then marks the delivery failed", () =>
    withOutbox(30, async (outbox) => {
      outbox.enqueue("job.failed", "https://hooks.example/x", { job_id: "j2" });
      const { send, calls } = scripted([500, null, 302, 503]);
      // Each retry is due its delay after the previous attempt; before that, nothing is sent.
      const waits: number[] = [];
      await outbox.runDue(send);
      for (let retry = 1; retry <= 3; retry++) {
        const d = outbox.list()[0]!;
        const due = Date.parse(d.next_attempt_at!);
        waits.push(due - Date.parse(d.attempts.at(-1)!.at));
        expect(outbox.nextDueAt()).toBe(due);
        expect(await outbox.runDue(send, due - 1)).toBe(0);
        await outbox.runDue(send, due);
      }
      expect(waits).toEqual([30_000, 120_000, 480_000]);
      expect(outbox.nextDueAt()).toBeNull();
      expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3, 4]);
      const [d] = outbox.list();
      expect(d!.status).toBe("failed");
      expect(d!.attempts.map((a) => [a.status_code, a.error])).toEqual([
        [500, "HTTP 500"],
        [null, "connection refused"],
        [302, "HTTP 302"],
        [503, "HTTP 503"],
      ]);
      // Nothing more is ever sent.
      expect(await outbox.runDue(send, Date.now() + 10 * 3600_000)).toBe(0);
    }));

  it("a delivery claimed by one runner is skipped by an overlapping one", () =>
    withOutbox(30, async (outbox) => {
      const t0 = 9_000_000;
      outbox.enqueue("job.running", "https://hooks.example/x", {}, t0);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let sends = 0;
      const slow: Sender = async () => {
        sends += 1;
        await gate;
        return { status_code: 200, error: null, duration_ms: 1 };
      };
      const first = outbox.runDue(slow, t0);
      const second = outbox.runDue(slow, t0);
      await Promise.resolve();
      release();
      await Promise.all([first, second]);
      expect(sends).toBe(1);
      expect(outbox.list()[0]!.attempts).toHaveLength(1);
    }));

  it("redelivery creates a new delivery of the same event, due at once", () =>
    withOutbox(30, async (outbox) => {
      const t0 = 2_000_000;
      const first = outbox.enqueue("job.completed", "https://hooks.example/x", { a: 1 }, t0);
      await outbox.runDue(scripted([200]).send, t0);
      const again = outbox.redeliver(first.id, t0 + 5000)!;
      expect(again.id).not.toBe(first.id);
      expect(outbox.nextDueAt()).toBe(t0 + 5000);
      const { send, calls } = scripted([200]);
      await outbox.runDue(send, t0 + 5000);
      expect(calls[0]).toMatchObject({ id: again.id, event_id: first.event_id, attempt: 1 });
      expect(outbox.list().map((d) => [d.id, d.status, d.redelivery_of])).toEqual([
        [first.id, "delivered", null],
        [again.id, "delivered", first.id],
      ]);
      expect(outbox.redeliver("dlv_missing")).toBeNull();
    }));
});

describe("postWebhook (one HTTP attempt)", () => {
  it("2xx is success; other answers and redirects are failures with the status", async () => {
    const box = await webhookBox();
    for (const [status, ok] of [[200, true], [201, true], [299, true], [301, false], [400, false], [500, false]] as const) {
      await box.configure({ status });
      const r = await postWebhook(box.url, "{}", { "content-type": "application/json" });
      expect([status, r.status_code, r.error === null]).toEqual([status, status, ok]);
    }
  });

  it("gives up after the timeout", async () => {
    // A TCP listener that never answers: the receiver double's /__test/hang holds the request open.
    const r = await postWebhook(`${env.TEST_HOOKS_URL}/__test/hang`, "{}", {}, 300);
    expect(r.status_code).toBeNull();
    expect(r.error).toBe("timeout: no answer within 300 ms");
    expect(r.duration_ms).toBeGreaterThanOrEqual(250);
  });
});
