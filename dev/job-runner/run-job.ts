import { ANALYSE_TASK_ID, type JobPlan, type RenderTaskRequest, type RenderTaskSpec, type TaskResult } from "../../common/contract/job-plan";
import type { RenderJob } from "../../common/contract/render";
import { finaliseJob, type FinalisedJob, type WriteDocument } from "../../common/plan/finalise";
import { handedOffTask } from "../../common/plan/task-handoff";

/**
 * One job run outside Cloudflare, the way production runs it: the analysis task (-> the job plan), then every
 * render task of the plan, each reel's join once its moments are done (as the job's Durable Object releases
 * them, worker/src/orchestration/task-book.ts), then the finalising step that writes metadata.json and
 * manifest.json (common/plan/finalise.ts, the code the Worker runs). It only schedules: each task is run by
 * `runTask`, which runs what the renderer's POST /tasks runs (in-process.ts), or hands it to a process of its
 * own (scripts/bench-fanout.ts). For the render CLI, the benchmarks and the evaluations.
 *
 * A re-cut's one short, which the Worker hands to the analysis task's instance in its answer to the analysis'
 * completion (common/plan/task-handoff.ts, the same rule), runs here right after the analysis like any render
 * task; with an executor that runs every task in this one process (`oneProcess`), that is where the analysis
 * ran, as on the instance, and it is marked `handed_off` (no container start of its own).
 */

/** Runs one task of the job to its result, with whatever figures the caller measures. */
export type TaskExecutor<F> = (req: RenderTaskRequest, signal: AbortSignal) => Promise<{ result: TaskResult; figures: F }>;

export interface RunJobOptions<F> {
  runTask: TaskExecutor<F>;
  /** Render tasks run at once (renderer processes, or slots of one); longest first among those ready. */
  concurrency: number;
  /** Where the finalising step writes metadata.json and manifest.json (the Worker: R2). */
  writeDocument: WriteDocument;
  /**
   * True when `runTask` runs every task in this process (in-process.ts), as one renderer instance runs the tasks
   * it is given; false when it starts a process per task (bench-fanout): then no task runs where the analysis
   * ran, and none is marked handed off.
   */
  oneProcess: boolean;
  signal?: AbortSignal;
}

export interface TaskFigures<F> {
  id: string;
  kind: RenderTaskRequest["task"]["kind"];
  /** Wall seconds, and when it started and ended, seconds from the job's start. */
  seconds: number;
  start: number;
  end: number;
  /** Ran in the analysis task's process right after it, as the Worker hands it to the analysis' instance: no start of its own. */
  handed_off: boolean;
  figures: F;
}

export type Phase = "analyse" | "render" | "join" | "finalise";

export interface JobRun<F> extends FinalisedJob {
  plan: JobPlan;
  analysis: TaskFigures<F>;
  /** Render tasks in the order they finished. */
  tasks: TaskFigures<F>[];
  /** Wall seconds of the phases: `analyse`, `render` (moments, shorts, groups), `join` (reel joins), `finalise`. */
  phaseSeconds: Record<Phase, number>;
  /** When each phase ran, seconds from the job's start (render and join may overlap). */
  phaseWindows: Record<Phase, { start: number; end: number }>;
  wallSeconds: number;
}

/** The request the Worker would send for one task of this job. */
export function taskRequest(job: RenderJob, plan: JobPlan | null, task: { id: string; kind: RenderTaskRequest["task"]["kind"] }, attempt = 1): RenderTaskRequest {
  return { ...job, task: { id: task.id, kind: task.kind, attempt }, plan };
}

export async function runJob<F>(job: RenderJob, opts: RunJobOptions<F>): Promise<JobRun<F>> {
  const signal = opts.signal ?? new AbortController().signal;
  const t0 = performance.now();
  const clock = () => (performance.now() - t0) / 1000;
  let handedOff: string | null = null;
  const timed = async (id: string, kind: TaskFigures<F>["kind"], req: RenderTaskRequest, taskSignal: AbortSignal) => {
    const start = clock();
    const { result, figures } = await opts.runTask(req, taskSignal);
    const end = clock();
    return { result, figures: { id, kind, seconds: end - start, start, end, handed_off: id === handedOff, figures } };
  };

  const analysed = await timed(ANALYSE_TASK_ID, "analyse", taskRequest(job, null, { id: ANALYSE_TASK_ID, kind: "analyse" }), signal);
  if (analysed.result.kind !== "analyse") throw new Error(`the analysis task returned a ${analysed.result.kind} result`);
  const plan = analysed.result.plan;
  // The one task a job's analysis instance runs next (null: every render task starts an instance of its own).
  handedOff = opts.oneProcess ? (handedOffTask(plan)?.id ?? null) : null;

  const rendered = await runRenderTasks(plan, opts.concurrency, signal, (spec, s) => timed(spec.id, spec.kind, taskRequest(job, plan, spec), s));
  const finaliseStart = clock();
  const finalised = await finaliseJob(plan, rendered.map((r) => r.result), opts.writeDocument);
  const end = clock();

  const tasks = rendered.map((r) => r.figures);
  const span = (of: TaskFigures<F>[], fallback: number) => (of.length ? { start: Math.min(...of.map((t) => t.start)), end: Math.max(...of.map((t) => t.end)) } : { start: fallback, end: fallback });
  const phaseWindows: JobRun<F>["phaseWindows"] = {
    analyse: { start: analysed.figures.start, end: analysed.figures.end },
    render: span(tasks.filter((t) => t.kind !== "reel_join"), analysed.figures.end),
    join: span(tasks.filter((t) => t.kind === "reel_join"), finaliseStart),
    finalise: { start: finaliseStart, end },
  };
  const phaseSeconds = Object.fromEntries(Object.entries(phaseWindows).map(([k, w]) => [k, w.end - w.start])) as Record<Phase, number>;
  return { ...finalised, plan, analysis: analysed.figures, tasks, phaseSeconds, phaseWindows, wallSeconds: end };
}

/**
 * Every render task of the plan, `concurrency` at a time, a join only once its moments are done; the first
 * failure stops the others (their signal is aborted) and is thrown once they have ended.
 */
async function runRenderTasks<R>(plan: JobPlan, concurrency: number, parent: AbortSignal, run: (spec: RenderTaskSpec, signal: AbortSignal) => Promise<R>): Promise<R[]> {
  const controller = new AbortController();
  const onParent = () => controller.abort(parent.reason);
  if (parent.aborted) onParent();
  parent.addEventListener("abort", onParent, { once: true });
  const done = new Set<string>();
  const waiting = [...plan.tasks].sort((a, b) => b.expected_encode_seconds - a.expected_encode_seconds);
  const ready = (t: RenderTaskSpec) => t.kind !== "reel_join" || t.depends_on.every((d) => done.has(d));
  const results: R[] = [];
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  try {
    while (waiting.length > 0 || running.size > 0) {
      while (!failure && !controller.signal.aborted && running.size < Math.max(1, concurrency)) {
        const i = waiting.findIndex(ready);
        if (i < 0) break;
        const spec = waiting.splice(i, 1)[0]!;
        const p: Promise<void> = run(spec, controller.signal)
          .then((r) => {
            results.push(r);
            done.add(spec.id);
          })
          .catch((error: unknown) => {
            failure ??= { error };
            controller.abort(error);
          })
          .finally(() => running.delete(p));
        running.add(p);
      }
      if (running.size === 0) break;
      await Promise.race(running);
    }
  } finally {
    parent.removeEventListener("abort", onParent);
  }
  if (failure) throw (failure as { error: unknown }).error;
  controller.signal.throwIfAborted();
  if (waiting.length > 0) throw new Error(`render tasks never became ready: ${waiting.map((t) => t.id).join(", ")}`);
  return results;
}
