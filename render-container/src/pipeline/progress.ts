import type { RenderStage } from "../../../common/contract/render";

/** Where the analysis' stages report: the stage and its percent of the analysis task's bar (0..ANALYSIS_END_PERCENT). */
export interface ProgressSink {
  progress(stage: RenderStage, percent: number, message?: string): void;
}

/** Where the analysis' stages end on their bar (run-task.ts maps it onto the analysis task's 0..1). */
export const ANALYSIS_END_PERCENT = 34;

/**
 * Maps each analysis stage's own 0..1 progress onto the analysis' bar, up to ANALYSIS_END_PERCENT (the shares
 * the stages had of a whole job's bar, where the encodes owned the rest; run-task.ts rescales it to 0..1). Some stages run side by side (the audio downloads while it is analysed; the texts are written while the facecam
 * sample downloads): their spans start together and the bar never moves back, so the stage shown is whichever is
 * further along.
 */
export class JobProgress {
  private spans = new Map<RenderStage, [number, number]>([
    ["resolving", [0, 2]],
    ["downloading_audio", [2, 12]],
    ["fetching_chat", [2, 12]],
    ["analysing", [2, 16]],
    ["selecting", [16, 18]],
    ["downloading_video", [18, 26]],
    ["transcribing", [18, 32]],
    ["writing_metadata", [32, ANALYSIS_END_PERCENT]],
  ]);

  constructor(private readonly sink: ProgressSink) {}

  private last = 0;

  report(stage: RenderStage, fraction: number, message?: string): void {
    const [a, b] = this.spans.get(stage) ?? [0, 0];
    const percent = a + (b - a) * Math.max(0, Math.min(1, fraction));
    if (percent < this.last) return;
    this.last = percent;
    this.sink.progress(stage, percent, message);
  }

  reporter(stage: RenderStage): (fraction: number) => void {
    return (f) => this.report(stage, f);
  }
}
