import type { RenderEvent, RenderStage } from "../../../common/contract/render";
import type { Logger } from "../log";
import { EventPoster, type EventPosterOptions } from "./event-poster";

type EventBody = RenderEvent extends infer E ? (E extends { seq: number } ? Omit<E, "seq"> : never) : never;

export interface ProgressSink {
  progress(stage: RenderStage, percent: number, message?: string): void;
  /**
   * The analysis measured the VOD's real length. Resolves once the Worker has answered; a Worker that cannot
   * bill the real length answers 409, which aborts the job's signal before anything is rendered.
   */
  analysed?(vodDurationSeconds: number): Promise<void>;
}

/**
 * Reports a whole job's life to the Worker (POST /jobs). Progress is monotonic and throttled because the Worker
 * only needs a few updates a second, while terminal events are retried until the Worker acknowledges them.
 */
export class CallbackReporter implements ProgressSink {
  private lastPercent = 0;
  private lastStage: RenderStage | null = null;
  private readonly poster: EventPoster<EventBody>;

  constructor(url: string, token: string, log: Logger, private readonly opts: EventPosterOptions = {}) {
    this.poster = new EventPoster(url, token, log, opts);
  }

  started(): Promise<void> {
    this.poster.startHeartbeat();
    return this.poster.send({ type: "started" }, true);
  }

  progress(stage: RenderStage, percent: number, message?: string): void {
    const p = Math.max(this.lastPercent, Math.min(99, Math.round(percent * 10) / 10));
    const stageChanged = stage !== this.lastStage;
    if (!stageChanged && (p - this.lastPercent < 1 || Date.now() - this.poster.lastSentAt < (this.opts.minIntervalMs ?? 1000))) return;
    this.lastPercent = p;
    this.lastStage = stage;
    this.poster.progress({ type: "progress", stage, percent: p, ...(message ? { message } : {}) });
  }

  analysed(vodDurationSeconds: number): Promise<void> {
    return this.poster.send({ type: "analysed", vod_duration_seconds: vodDurationSeconds }, true);
  }

  completed(body: Omit<Extract<RenderEvent, { type: "completed" }>, "seq" | "type">): Promise<void> {
    this.poster.stopHeartbeat();
    return this.poster.send({ type: "completed", ...body }, true);
  }

  failed(code: string, message: string): Promise<void> {
    this.poster.stopHeartbeat();
    return this.poster.send({ type: "failed", error: { code, message } }, true);
  }

  /** Waits for every queued event to be delivered (or given up on). */
  flush(): Promise<void> {
    return this.poster.flush();
  }
}
