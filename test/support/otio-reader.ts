import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

/**
 * OpenTimelineIO's own readers (v0.11, pure Python, vendored in test/support/otio-reader/) run on a file with
 * python3: the independent reader of the .otio and .edl files the service writes. python3 is installed by
 * scripts/setup-system.sh, so a machine without it fails these tests rather than skipping them.
 */
const run = promisify(execFile);
const SCRIPT = path.join(import.meta.dirname, "otio-reader", "read.py");

export interface OtioTime {
  value: number;
  rate: number;
  seconds: number;
}
export interface OtioRange {
  start: OtioTime;
  duration: OtioTime;
}
export interface OtioItem {
  schema: string;
  name: string | null;
  source_range: OtioRange | null;
  range_in_parent: OtioRange;
  metadata: Record<string, unknown>;
  media_reference?: { schema: string; target_url: string | null; available_range: OtioRange | null };
}
export interface OtioTimeline {
  name: string;
  global_start_time: OtioTime | null;
  duration: OtioTime;
  metadata: Record<string, unknown>;
  tracks: { name: string; kind: string; items: OtioItem[]; duration: OtioTime }[];
}

/** What OpenTimelineIO read from `file`: an .otio (otio_json adapter) or a CMX 3600 EDL at `rate` (cmx_3600 adapter). */
export async function readTimeline(kind: "otio", file: string): Promise<OtioTimeline>;
export async function readTimeline(kind: "edl", file: string, rate: number): Promise<OtioTimeline>;
export async function readTimeline(kind: "otio" | "edl", file: string, rate?: number): Promise<OtioTimeline> {
  const args = kind === "edl" ? [SCRIPT, kind, file, String(rate)] : [SCRIPT, kind, file];
  try {
    const { stdout } = await run("python3", args, { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
    return (JSON.parse(stdout) as { timeline: OtioTimeline }).timeline;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`OpenTimelineIO could not read ${path.basename(file)}: ${(e.stderr ?? "").trim().split("\n").at(-1) || e.message}`);
  }
}
