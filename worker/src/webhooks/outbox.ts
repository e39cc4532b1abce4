/**
 * Durable webhook outbox kept in a job's Durable Object storage (SQLite). Deliveries survive restarts;
 * retries are driven by the object's alarm (durable timers, never sleeps). Every attempt is logged.
 */
export const WEBHOOK_EVENTS = ["job.running", "job.completed", "job.failed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_MAX_RETRIES = 3;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How long a claimed delivery is reserved for the runner that claimed it (longer than one attempt can take). */
const DELIVERY_LEASE_MS = WEBHOOK_TIMEOUT_MS + 20_000;

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface Delivery {
  id: string;
  event_id: string;
  event: WebhookEvent;
  url: string;
  status: "pending" | "delivered" | "failed";
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  created_at: string;
  redelivery_of: string | null;
}

export interface SendResult {
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export type Sender = (d: { id: string; event_id: string; event: WebhookEvent; url: string; body: string; attempt: number }) => Promise<SendResult>;

/** Delay before retry n (1-based): base, 4x base, 16x base. */
export function retryDelayMs(retry: number, baseSeconds: number): number {
  return Math.round(baseSeconds * 1000 * 4 ** (retry - 1));
}

function randomId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class WebhookOutbox {
  constructor(private readonly sql: SqlStorage, private readonly retryBaseSeconds: number) {
    sql.exec(`CREATE TABLE IF NOT EXISTS webhook_deliveries (
      id TEXT PRIMARY KEY, event_id TEXT NOT NULL, event TEXT NOT NULL, url TEXT NOT NULL, body TEXT NOT NULL,
      status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER,
      created_at INTEGER NOT NULL, redelivery_of TEXT)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS webhook_attempts (
      delivery_id TEXT NOT NULL, attempt INTEGER NOT NULL, at INTEGER NOT NULL, status_code INTEGER,
      error TEXT, duration_ms INTEGER NOT NULL, PRIMARY KEY (delivery_id, attempt))`);
  }

  enqueue(event: WebhookEvent, url: string, payload: unknown, now = Date.now()): { id: string; event_id: string } {
    const id = randomId("dlv_");
    const eventId = randomId("evt_");
    const body = JSON.stringify({ event, payload });
    this.sql.exec(
      `INSERT INTO webhook_deliveries (id, event_id, event, url, body, status, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)`,
      id, eventId, event, url, body, now, now,
    );
    return { id, event_id: eventId };
  }

  /** Sends the same event again as a new delivery (same event id, so receivers can still de-duplicate). */
  redeliver(deliveryId: string, now = Date.now()): { id: string } | null {
    const row = this.sql.exec<{ event_id: string; event: string; url: string; body: string }>(
      `SELECT event_id, event, url, body FROM webhook_deliveries WHERE id = ?`, deliveryId,
    ).toArray()[0];
    if (!row) return null;
    const id = randomId("dlv_");
    this.sql.exec(
      `INSERT INTO webhook_deliveries (id, event_id, event, url, body, status, next_attempt_at, created_at, redelivery_of) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      id, row.event_id, row.event, row.url, row.body, now, now, deliveryId,
    );
    return { id };
  }

  nextDueAt(): number | null {
    const row = this.sql.exec<{ t: number | null }>(`SELECT MIN(next_attempt_at) AS t FROM webhook_deliveries WHERE status = 'pending'`).toArray()[0];
    return row?.t ?? null;
  }

  /** Attempts every delivery that is due; returns how many were selected. */
  async runDue(send: Sender, now = Date.now()): Promise<number> {
    const due = this.sql.exec<{ id: string; event_id: string; event: WebhookEvent; url: string; body: string; attempts: number }>(
      `SELECT id, event_id, event, url, body, attempts FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY created_at`, now,
    ).toArray();
    for (const d of due) {
      // Claim the delivery before the await: a second runner (an overlapping alarm) finds it taken. The claim is
      // a lease, so a runner that dies mid-send leaves the delivery due again once the lease ends.
      const claim = this.sql.exec(
        `UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ? AND status = 'pending' AND attempts = ? AND next_attempt_at <= ?`,
        now + DELIVERY_LEASE_MS, d.id, d.attempts, now,
      );
      if (claim.rowsWritten === 0) continue;
      const attempt = d.attempts + 1;
      const result = await send({ id: d.id, event_id: d.event_id, event: d.event, url: d.url, body: d.body, attempt });
      const at = Date.now();
      this.sql.exec(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)`,
        d.id, attempt, at, result.status_code, result.error, result.duration_ms,
      );
      const ok = result.status_code !== null && result.status_code >= 200 && result.status_code < 300;
      if (ok) {
        this.sql.exec(`UPDATE webhook_deliveries SET status = 'delivered', attempts = ?, next_attempt_at = NULL WHERE id = ?`, attempt, d.id);
      } else if (attempt > WEBHOOK_MAX_RETRIES) {
        this.sql.exec(`UPDATE webhook_deliveries SET status = 'failed', attempts = ?, next_attempt_at = NULL WHERE id = ?`, attempt, d.id);
      } else {
        this.sql.exec(`UPDATE webhook_deliveries SET attempts = ?, next_attempt_at = ? WHERE id = ?`, attempt, at + retryDelayMs(attempt, this.retryBaseSeconds), d.id);
      }
    }
    return due.length;
  }

  list(): Delivery[] {
    const rows = this.sql.exec<{ id: string; event_id: string; event: WebhookEvent; url: string; status: Delivery["status"]; next_attempt_at: number | null; created_at: number; redelivery_of: string | null }>(
      `SELECT id, event_id, event, url, status, next_attempt_at, created_at, redelivery_of FROM webhook_deliveries ORDER BY created_at, rowid`,
    ).toArray();
    const attempts = this.sql.exec<{ delivery_id: string; attempt: number; at: number; status_code: number | null; error: string | null; duration_ms: number }>(
      `SELECT delivery_id, attempt, at, status_code, error, duration_ms FROM webhook_attempts ORDER BY delivery_id, attempt`,
    ).toArray();
    return rows.map((r) => ({
      id: r.id,
      event_id: r.event_id,
      event: r.event,
      url: r.url,
      status: r.status,
      next_attempt_at: r.next_attempt_at === null ? null : new Date(r.next_attempt_at).toISOString(),
      created_at: new Date(r.created_at).toISOString(),
      redelivery_of: r.redelivery_of,
      attempts: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({ attempt: a.attempt, at: new Date(a.at).toISOString(), status_code: a.status_code, error: a.error, duration_ms: a.duration_ms })),
    }));
  }
}

/**
 * What the delivery log says about a failed attempt: a category, never the network library's own text. The log is
 * shown to the client who chose the URL, and raw errors ("connection refused" against "reset" against a TLS
 * complaint) would let it map which hosts and ports answer; the categories say what the receiver's owner needs.
 */
export const DELIVERY_ERRORS = {
  timeout: (ms: number) => `timeout: no answer within ${ms} ms`,
  connection: "connection failed: the receiver could not be reached",
  status: (status: number) => `HTTP ${status}`,
  refused: "refused: the URL does not point to a public internet address",
} as const;

/** One HTTP attempt: 2xx within the timeout is success; redirects are not followed (a 3xx is a failure). */
export async function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<SendResult> {
  const started = Date.now();
  try {
    const res = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    const ok = res.status >= 200 && res.status < 300;
    return { status_code: res.status, error: ok ? null : DELIVERY_ERRORS.status(res.status), duration_ms: Date.now() - started };
  } catch (err) {
    const timedOut = (err as Error)?.name === "TimeoutError";
    // The detail stays in the operator's log.
    console.warn(JSON.stringify({ level: "warn", msg: "webhook attempt failed", error: String((err as Error)?.message ?? err) }));
    return { status_code: null, error: timedOut ? DELIVERY_ERRORS.timeout(timeoutMs) : DELIVERY_ERRORS.connection, duration_ms: Date.now() - started };
  }
}
