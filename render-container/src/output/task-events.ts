import { TaskEventAnswer, type TaskEvent, type TaskResult } from "../../../common/contract/job-plan";
import type { RenderStage } from "../../../common/contract/render";
import type { Logger } from "../log";
import { EventPoster, type EventPosterOptions } from "./event-poster";

type TaskEventBody = TaskEvent extends infer E ? (E extends { seq: number } ? Omit<E, "seq"> : never) : never;

/** How long a shutdown may spend telling the Worker a task was interrupted (the platform kills soon after SIGTERM). */
const INTERRUPT_ATTEMPTS = 3;
const INTERRUPT_TIMEOUT_MS = 5_000;

/**
 * Reports one task's life to the Worker as TaskEvents (common/contract/job-plan.ts), each carrying the task's
 * attempt: started, its own progress (0..1, throttled, never backwards; repeated as the heartbeat), and exactly one
 * of completed, failed (with whether a retry can help) or interrupted.
 */
export class TaskReporter {
  private lastFraction = 0;
  private lastStage: RenderStage | null = null;
  private readonly poster: EventPoster<TaskEventBody>;
  /** Stage and fraction last reported (GET /health). */
  state: { stage: RenderStage | null; fraction: number } = { stage: null, fraction: 0 };

  constructor(url: string, token: string, private readonly attempt: number, log: Logger, private readonly opts: EventPosterOptions = {}) {
    this.poster = new EventPoster(url, token, log, opts);
  }

  get settled(): boolean {
    return this.poster.settled;
  }

  async started(): Promise<void> {
    this.poster.startHeartbeat();
    await this.poster.send({ type: "started", attempt: this.attempt }, true);
  }

  progress(stage: RenderStage, fraction: number): void {
    const f = Math.max(this.lastFraction, Math.min(1, Math.round(fraction * 1000) / 1000));
    this.state = { stage, fraction: f };
    const stageChanged = stage !== this.lastStage;
    if (!stageChanged && (f - this.lastFraction < 0.01 || Date.now() - this.poster.lastSentAt < (this.opts.minIntervalMs ?? 1000))) return;
    this.lastFraction = f;
    this.lastStage = stage;
    this.poster.progress({ type: "progress", attempt: this.attempt, stage, fraction: f });
  }

  /**
   * Reports the result; resolves with the next task the Worker handed to this instance in its answer (`next_task`
   * of TaskEventAnswer, task contract 3: a re-cut's one short after its analysis), unchecked, or undefined.
   */
  async completed(result: TaskResult): Promise<unknown> {
    this.poster.stopHeartbeat();
    const answer = TaskEventAnswer.safeParse(await this.poster.send({ type: "completed", attempt: this.attempt, result }, true));
    return answer.success ? answer.data.next_task : undefined;
  }

  async failed(code: string, message: string, retryable: boolean): Promise<void> {
    this.poster.stopHeartbeat();
    await this.poster.send({ type: "failed", attempt: this.attempt, error: { code, message }, retryable }, true);
  }

  /** Sent at once (not behind queued progress) and briefly retried: the process is about to stop. */
  interrupted(reason: string): Promise<void> {
    return this.poster.sendNow({ type: "interrupted", attempt: this.attempt, reason }, INTERRUPT_ATTEMPTS, INTERRUPT_TIMEOUT_MS);
  }

  flush(): Promise<void> {
    return this.poster.flush();
  }
}
