import type { RenderEvent, RenderStage } from "../../../common/contract/render";
import type { Logger } from "../log";

type EventBody = RenderEvent extends infer E ? (E extends { seq: number } ? Omit<E, "seq"> : never) : never;

export interface ProgressSink {
  progress(stage: RenderStage, percent: number, message?: string): void;
}

/**
 * Reports a job's life to the Worker. Every event carries a sequence number so the Worker can ignore
 * duplicates and reordering; progress is monotonic and throttled because the Worker only needs a few
 * updates a second, while terminal events are retried until the Worker acknowledges them.
 */
export class CallbackReporter implements ProgressSink {
  private seq = 0;
  private lastPercent = 0;
  private lastStage: RenderStage | null = null;
  private lastSentAt = 0;
  private chain: Promise<void> = Promise.resolve();
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private settled = false;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly log: Logger,
    private readonly opts: {
      minIntervalMs?: number;
      retries?: number;
      fetchImpl?: typeof fetch;
      /** Repeat the last progress after this long without any event, so the Worker's watchdog sees a live job. */
      heartbeatSeconds?: number;
      /** The Worker answered 409/410: the job is over there (cancelled, failed by the watchdog); stop working. */
      onSettled?: () => void;
    } = {},
  ) {}

  started(): Promise<void> {
    const every = (this.opts.heartbeatSeconds ?? 0) * 1000;
    if (every > 0 && !this.heartbeat) {
      this.heartbeat = setInterval(() => {
        if (Date.now() - this.lastSentAt >= every && this.lastStage) {
          this.lastSentAt = Date.now();
          void this.enqueue({ type: "progress", stage: this.lastStage, percent: this.lastPercent }, false);
        }
      }, Math.max(250, every / 4));
      this.heartbeat.unref?.();
    }
    this.lastSentAt = Date.now();
    return this.enqueue({ type: "started" }, true);
  }

  progress(stage: RenderStage, percent: number, message?: string): void {
    const p = Math.max(this.lastPercent, Math.min(99, Math.round(percent * 10) / 10));
    const now = Date.now();
    const stageChanged = stage !== this.lastStage;
    if (!stageChanged && (p - this.lastPercent < 1 || now - this.lastSentAt < (this.opts.minIntervalMs ?? 1000))) return;
    this.lastPercent = p;
    this.lastStage = stage;
    this.lastSentAt = now;
    void this.enqueue({ type: "progress", stage, percent: p, ...(message ? { message } : {}) }, false);
  }

  completed(body: Omit<Extract<RenderEvent, { type: "completed" }>, "seq" | "type">): Promise<void> {
    this.stopHeartbeat();
    return this.enqueue({ type: "completed", ...body }, true);
  }

  failed(code: string, message: string): Promise<void> {
    this.stopHeartbeat();
    return this.enqueue({ type: "failed", error: { code, message } }, true);
  }

  /** Waits for every queued event to be delivered (or given up on). */
  flush(): Promise<void> {
    this.stopHeartbeat();
    return this.chain;
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private enqueue(event: EventBody, mustDeliver: boolean): Promise<void> {
    const body = JSON.stringify({ ...event, seq: ++this.seq });
    this.chain = this.chain.then(() => this.post(body, mustDeliver ? (this.opts.retries ?? 8) : 1));
    return this.chain;
  }

  private async post(body: string, attempts: number): Promise<void> {
    const doFetch = this.opts.fetchImpl ?? fetch;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const res = await doFetch(this.url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${this.token}` },
          body,
          signal: AbortSignal.timeout(15_000),
        });
        // 409/410 mean the Worker has already settled the job (cancelled, failed by the watchdog): nothing
        // left to tell it, and nothing left worth rendering.
        if (res.status === 409 || res.status === 410) {
          await res.body?.cancel();
          if (!this.settled) {
            this.settled = true;
            this.stopHeartbeat();
            this.opts.onSettled?.();
          }
          return;
        }
        if (res.ok) {
          await res.body?.cancel();
          return;
        }
        if (res.status >= 400 && res.status < 500 && res.status !== 429) {
          this.log.warn("callback rejected", { status: res.status, body: (await res.text()).slice(0, 300) });
          return;
        }
      } catch (err) {
        if (attempt === attempts) this.log.warn("callback failed", { error: String(err) });
      }
      if (attempt < attempts) await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** (attempt - 1))));
    }
  }
}
