import { ANALYSE_TASK_ID, type JobPlan, type RenderTaskSpec, type TaskKind } from "../../../common/contract/job-plan";

/**
 * The tasks of one job as its Durable Object tracks them. Pure data and rules; JobState stores the book and
 * carries out what these functions decide (queue messages, renderer stops, the job's own transitions).
 *
 *   waiting ──(dependencies done)──▶ queued ──claim──▶ dispatching ──renderer took it──▶ running ──▶ done
 *                                      ▲                   │ busy / unreachable              │
 *                                      └───────────────────┘◀── failed (retryable), lost, interrupted
 */
export type TaskState = "waiting" | "queued" | "dispatching" | "running" | "done";

export interface TaskRecord {
  id: string;
  kind: TaskKind;
  /** What the client would call it, for error messages: "short 3", "the balanced reel (moment 2)". */
  label: string;
  state: TaskState;
  depends_on: string[];
  /** Expected encode seconds (+1 so every task moves the bar): its share of the job's progress. */
  weight: number;
  /** Attempt number of the current (or last) run, from 1; a busy renderer does not use one up. */
  attempt: number;
  /** Attempts that failed or were lost; bounded by MAX_TASK_FAILURES. */
  failures: number;
  /**
   * Starts in a row that could not reach a renderer (connection failure, 5xx, a container that did not start);
   * bounded by UNREACHABLE_ATTEMPTS, reset when a renderer takes the task. Busy answers never count here: waiting
   * for capacity is not failing to reach a renderer. (Absent in books stored before it existed: read as 0.)
   */
  unreachable?: number;
  /** Epoch ms of the first busy answer of the current wait for a slot (null: not waiting); reset when taken. */
  waiting_since?: number | null;
  /** Epoch ms at which an ending task of this job handed it its slot (so two endings hand two different tasks). */
  offered_at?: number | null;
  /**
   * Set when the current attempt was claimed by a Worker that hands each attempt its own storage URL and token
   * (task-storage-scope.ts). Absent on attempts claimed before that: only those are served on the job-wide
   * storage paths. Goes with those paths, in the release after.
   */
  scoped_storage?: boolean;
  /**
   * Set when the current attempt was claimed by a Worker that hands each attempt its own token for its events and
   * Workers AI too (task-call-scope.ts). Absent on attempts claimed before that: only those are served on the
   * job-wide event and AI paths with the job's token. Goes with those paths, in the release after.
   */
  scoped_calls?: boolean;
  /**
   * The task contract the current attempt was sent as (common/contract/task-contract.ts), set at its claim: the
   * analysis' instance is handed the next task only when its renderer took a contract that reads such an answer
   * (task-handoff.ts). Absent on attempts claimed before it existed.
   */
  contract?: number;
  /** Runs stopped by SIGTERM (rollout, eviction); retried at once, bounded by MAX_TASK_INTERRUPTIONS. */
  interruptions: number;
  /** Progress of the current attempt, 0..1 (1 when done). */
  fraction: number;
  stage: string | null;
  /** Highest event sequence number applied for the current attempt. */
  seq: number;
  /** Where it runs: a renderer URL (local pool) or a container name. */
  instance: string | null;
  /** Epoch ms of the last report (or of the claim while dispatching); the watchdog measures from it. */
  heard_at: number | null;
  last_error: { code: string; message: string } | null;
}

/**
 * What every path that records an attempt as dispatched sets (claimTask, and any hand-over of a task to a running
 * instance): the attempt is handed its own URLs and token for its files, events and Workers AI (render-job.ts), so
 * the job-wide legacy paths never serve it (task-storage-scope.ts, task-call-scope.ts).
 */
export const SCOPED_ATTEMPT = { scoped_storage: true, scoped_calls: true } as const;

/** Failed or lost attempts of one task before the job fails (3 runs in all). */
export const MAX_TASK_FAILURES = 3;
/** SIGTERMs one task may survive (a rollout stops every instance once; more means something is wrong). */
export const MAX_TASK_INTERRUPTIONS = 5;
/** A claim not confirmed within this long (the consumer died between claim and start) is queued again. */
export const DISPATCH_CLAIM_MS = 2 * 60 * 1000;
/** Share of the job's progress bar the analysis task owns; render tasks share the rest by weight. */
export const ANALYSIS_SHARE = 20;

export function newTask(id: string, kind: TaskKind, label: string, weight: number, depends_on: string[] = []): TaskRecord {
  return { id, kind, label, state: depends_on.length ? "waiting" : "queued", depends_on, weight, attempt: 0, failures: 0, unreachable: 0, waiting_since: null, offered_at: null, interruptions: 0, fraction: 0, stage: null, seq: 0, instance: null, heard_at: null, last_error: null };
}

export const analysisTask = (): TaskRecord => newTask(ANALYSE_TASK_ID, "analyse", "the analysis of the VOD", 1);

function labelOf(spec: RenderTaskSpec, plan: JobPlan): string {
  switch (spec.kind) {
    case "short":
      return `short ${spec.index}`;
    case "reel_join":
      return `the ${spec.run_name} reel (joining its parts)`;
    case "reel_moment": {
      const reel = plan.reels.find((r) => r.run_name === spec.run_name);
      const n = (reel?.moment_ids.indexOf(spec.moment_id) ?? -1) + 1;
      return `the ${spec.run_name} reel (moment ${n > 0 ? n : spec.moment_id})`;
    }
    case "clip_group":
      // "the balanced reel (moment 2), the audience reel (moment 1) and short 3": what a failure message names.
      return listed(spec.members.map((m) => labelOf(m, plan)));
  }
}

const listed = (items: string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** One record per render task of the plan; joins wait for their moments. */
export function renderTasksOf(plan: JobPlan): TaskRecord[] {
  return plan.tasks.map((spec) => newTask(spec.id, spec.kind, labelOf(spec, plan), spec.expected_encode_seconds + 1, spec.kind === "reel_join" ? spec.depends_on : []));
}

/** Waiting tasks whose dependencies are all done become queued; returns them (to be sent to the queue). */
export function releaseReady(book: TaskRecord[]): TaskRecord[] {
  const done = new Set(book.filter((t) => t.state === "done").map((t) => t.id));
  const ready = book.filter((t) => t.state === "waiting" && t.depends_on.every((d) => done.has(d)));
  for (const t of ready) t.state = "queued";
  return ready;
}

/** The job's percent: the analysis owns the first ANALYSIS_SHARE, the render tasks the rest by weight. */
export function jobPercent(book: readonly TaskRecord[]): number {
  const analysis = book.find((t) => t.kind === "analyse");
  const renders = book.filter((t) => t.kind !== "analyse");
  const a = analysis ? (analysis.state === "done" ? 1 : analysis.fraction) : 0;
  if (renders.length === 0) return ANALYSIS_SHARE * a;
  const total = renders.reduce((s, t) => s + t.weight, 0) || 1;
  const rendered = renders.reduce((s, t) => s + t.weight * (t.state === "done" ? 1 : t.fraction), 0);
  // 99 at most until the job is completed (the finalising step writes the manifest).
  return Math.min(99, ANALYSIS_SHARE + (99 - ANALYSIS_SHARE) * (rendered / total));
}

export const allRenderTasksDone = (book: readonly TaskRecord[]): boolean => book.some((t) => t.kind !== "analyse") && book.every((t) => t.state === "done");

/** Tasks a renderer may be working on (to be stopped when the job ends). */
export const activeTasks = (book: readonly TaskRecord[]): TaskRecord[] => book.filter((t) => (t.state === "running" || t.state === "dispatching") && t.instance !== null);

/**
 * What happens to a task whose attempt did not finish: run again (queued, sent at once) or, when its budget is
 * spent, the job fails naming it.
 */
export function retryOrGiveUp(t: TaskRecord, why: "failed" | "lost" | "interrupted", error: { code: string; message: string }): "retry" | "give_up" {
  t.last_error = error;
  t.instance = null;
  t.fraction = 0;
  t.heard_at = null;
  if (why === "interrupted") t.interruptions += 1;
  else t.failures += 1;
  const spent = why === "interrupted" ? t.interruptions >= MAX_TASK_INTERRUPTIONS : t.failures >= MAX_TASK_FAILURES;
  // A task given up on stays queued: its job fails now, and a failed job's tasks are never claimed again.
  t.state = "queued";
  return spent ? "give_up" : "retry";
}

/** A slot offered to a waiting task is its own this long; after that another ending may offer it again. */
export const SLOT_OFFER_MS = 30_000;

/**
 * A task of this job ended and its slot is free: the queued task that has waited longest for a slot (refused as
 * busy at least once) and was not just offered one, marked as offered; null when none waits.
 */
export function takeNextWaiting(book: TaskRecord[], now: number): TaskRecord | null {
  const waiting = book
    .filter((t) => t.state === "queued" && (t.waiting_since ?? null) !== null && (t.offered_at == null || now - t.offered_at >= SLOT_OFFER_MS))
    .sort((a, b) => a.waiting_since! - b.waiting_since!);
  const next = waiting[0] ?? null;
  if (next) next.offered_at = now;
  return next;
}

/** Epoch ms at which the watchdog must next look at the tasks, or null when none is in flight. */
export function nextTaskDeadline(book: readonly TaskRecord[], watchdogMs: number): number | null {
  let at: number | null = null;
  for (const t of book) {
    if (t.heard_at === null) continue;
    const limit = t.state === "running" ? t.heard_at + watchdogMs : t.state === "dispatching" ? t.heard_at + DISPATCH_CLAIM_MS : null;
    if (limit !== null && (at === null || limit < at)) at = limit;
  }
  return at;
}
