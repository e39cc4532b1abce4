import type { Logger } from "../log";

export interface EventPosterOptions {
  minIntervalMs?: number;
  retries?: number;
  fetchImpl?: typeof fetch;
  /** Repeat the last progress after this long without any event, so the Worker's watchdog sees a live run. */
  heartbeatSeconds?: number;
  /** The Worker answered 409/410: the job (or task) is over there (cancelled, failed, superseded); stop working. */
  onSettled?: () => void;
}

/**
 * Posts one run's events (a job's or a task's) to its callback URL with the bearer token. Every event carries a
 * sequence number so the Worker can ignore duplicates and reordering; events go out one after another, terminal
 * ones retried until the Worker acknowledges them, progress sent once. A 409/410 means the Worker has settled the
 * run: nothing more is sent and `onSettled` stops the work. The heartbeat repeats the last progress event (with
 * a new seq) while nothing else was sent for `heartbeatSeconds`.
 */
export class EventPoster<E extends { type: string }> {
  private seq = 0;
  private chain: Promise<void> = Promise.resolve();
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private lastProgress: E | null = null;
  private settledByWorker = false;
  /** When the last event was queued (ms). */
  lastSentAt = 0;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly log: Logger,
    readonly opts: EventPosterOptions = {},
  ) {}

  get settled(): boolean {
    return this.settledByWorker;
  }

  /**
   * Queues an event behind the ones before it; resolves once it was delivered (or given up on), with the
   * Worker's JSON answer when it took it (null otherwise): the answer to a task's completion may hand over the
   * next task (TaskEventAnswer in common/contract/job-plan.ts).
   */
  send(event: E, mustDeliver: boolean): Promise<unknown> {
    const body = this.body(event);
    const sent = this.chain.then(() => this.post(body, mustDeliver ? (this.opts.retries ?? 8) : 1));
    this.chain = sent.then(() => undefined);
    return sent;
  }

  /**
   * Sends an event at once, beside whatever is still queued (its seq orders it for the Worker): for a shutdown,
   * which must not wait behind a slow progress post. Tries `attempts` times, `timeoutMs` each.
   */
  async sendNow(event: E, attempts: number, timeoutMs: number): Promise<void> {
    this.stopHeartbeat();
    await this.post(this.body(event), attempts, timeoutMs, 250);
  }

  /** Remembers a progress event (the heartbeat repeats it) and sends it. */
  progress(event: E): void {
    this.lastProgress = event;
    void this.send(event, false);
  }

  startHeartbeat(): void {
    const every = (this.opts.heartbeatSeconds ?? 0) * 1000;
    if (every <= 0 || this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastSentAt >= every && this.lastProgress && !this.settledByWorker) void this.send(this.lastProgress, false);
    }, Math.max(250, every / 4));
    this.heartbeat.unref?.();
  }

  stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** Waits for every queued event to be delivered (or given up on). */
  flush(): Promise<void> {
    this.stopHeartbeat();
    return this.chain;
  }

  private body(event: E): string {
    this.lastSentAt = Date.now();
    return JSON.stringify({ ...event, seq: ++this.seq });
  }

  private async post(body: string, attempts: number, timeoutMs = 15_000, firstBackoffMs = 500): Promise<unknown> {
    const doFetch = this.opts.fetchImpl ?? fetch;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (this.settledByWorker) return null;
      try {
        const res = await doFetch(this.url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${this.token}` },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        // 409/410 mean the Worker has already settled the run (cancelled, failed by the watchdog, a newer
        // attempt): nothing left to tell it, and nothing left worth rendering.
        if (res.status === 409 || res.status === 410) {
          await res.body?.cancel();
          if (!this.settledByWorker) {
            this.settledByWorker = true;
            this.stopHeartbeat();
            this.opts.onSettled?.();
          }
          return null;
        }
        if (res.ok) return await answerOf(res);
        if (res.status >= 400 && res.status < 500 && res.status !== 429) {
          this.log.warn("callback rejected", { status: res.status, body: (await res.text()).slice(0, 300) });
          return null;
        }
      } catch (err) {
        if (attempt === attempts) this.log.warn("callback failed", { error: String(err) });
      }
      if (attempt < attempts) await new Promise((r) => setTimeout(r, Math.min(30_000, firstBackoffMs * 2 ** (attempt - 1))));
    }
    return null;
  }
}

/** The Worker's answer as JSON, or null when it is none (an empty body, or not JSON). */
async function answerOf(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
