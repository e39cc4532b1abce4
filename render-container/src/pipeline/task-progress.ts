import type { RenderStage } from "../../../common/contract/render";

/** Where a task reports its own progress: the stage it is in and its fraction done, 0..1. */
export type TaskProgressSink = (stage: RenderStage, fraction: number) => void;

/** One step of a task: the stage it shows and its share of the task, [from, to] of 0..1. */
export interface TaskStep {
  stage: RenderStage;
  from: number;
  to: number;
}

/**
 * A task's steps laid out on its own 0..1 bar (the Worker weights each task into the job's percent). Steps follow
 * each other; a step's share is where its time goes (encoding dominates). The bar never moves back.
 */
export class TaskProgress<Step extends string> {
  private last = 0;

  constructor(private readonly steps: Record<Step, TaskStep>, private readonly sink: TaskProgressSink) {}

  report(step: Step, fraction: number): void {
    const { stage, from, to } = this.steps[step];
    const f = from + (to - from) * Math.max(0, Math.min(1, fraction));
    if (f < this.last) return;
    this.last = f;
    this.sink(stage, f);
  }

  reporter(step: Step): (fraction: number) => void {
    return (f) => this.report(step, f);
  }
}
