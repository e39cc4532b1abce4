import { spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { currentTaskProcesses, type TaskProcesses } from "./task-processes";

/** A child process failed: carries the tail of stderr because ffmpeg explains itself only at the end. */
export class ProcessError extends Error {
  constructor(
    message: string,
    readonly command: string,
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly exitSignal: NodeJS.Signals | null,
    readonly stderrTail: string,
  ) {
    super(message);
    this.name = "ProcessError";
  }
}

export interface RunProcessOptions {
  signal?: AbortSignal;
  cwd?: string;
  /** Called with each complete stdout line (newline stripped). */
  onStdoutLine?: (line: string) => void;
  /** Called with each raw stdout chunk (binary output such as PCM). */
  onStdoutData?: (chunk: Buffer) => void;
  /**
   * Writes the process's stdin (e.g. media segments as they download); stdin is closed when it resolves. If it
   * rejects, the process is killed and its error is the result. Use writeWithBackpressure for each chunk.
   */
  feedStdin?: (stdin: Writable) => Promise<void>;
  /** Called with the process id once it runs (benchmarks sample its memory). */
  onSpawn?: (pid: number) => void;
  /** Called with each complete stderr line (newline stripped). */
  onStderrLine?: (line: string) => void;
  /** Keep stdout and return it; off by default so long runs do not accumulate output. */
  collectStdout?: boolean;
  /** Upper bound on collected stdout, so a runaway process cannot exhaust memory. Default 64 MiB. */
  maxStdoutBytes?: number;
  /** Characters of stderr kept for error messages. Default 4000. */
  stderrTailChars?: number;
  /** Time between SIGTERM and SIGKILL when aborted. Default 2000 ms. */
  killGraceMs?: number;
}

export interface ProcessResult {
  stdout: Buffer;
  stderrTail: string;
}

function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  if (r instanceof Error) return r;
  const e = new Error(typeof r === "string" ? r : "The operation was aborted");
  e.name = "AbortError";
  return e;
}

/** Splits a byte stream into lines without holding more than one partial line. */
function lineSplitter(onLine: (line: string) => void): { push(chunk: Buffer): void; end(): void } {
  let rest = "";
  return {
    push(chunk) {
      const text = rest + chunk.toString("utf8");
      const lines = text.split(/\r?\n|\r/);
      rest = lines.pop() ?? "";
      for (const l of lines) onLine(l);
    },
    end() {
      if (rest) onLine(rest);
      rest = "";
    },
  };
}

/**
 * Runs a command to completion. Rejects with ProcessError on a non-zero exit, and with the signal's reason
 * (after killing the process) when aborted, so callers never leave encoders running after a job is cancelled.
 */
export function runProcess(command: string, args: readonly string[], opts: RunProcessOptions = {}): Promise<ProcessResult> {
  const { signal } = opts;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const task = currentTaskProcesses();
  const held = task?.holdFor(command, args);
  return held ? held.then(() => spawnAndWait(command, args, opts, task)) : spawnAndWait(command, args, opts, task);
}

/** Starts the child (unless the task it belongs to is stopping) and settles once it has exited. */
function spawnAndWait(command: string, args: readonly string[], opts: RunProcessOptions, task: TaskProcesses | undefined): Promise<ProcessResult> {
  const { signal } = opts;
  try {
    // The task's own state decides, not the caller's signal: a cancel that is sweeping refuses every new child.
    task?.admit();
  } catch (err) {
    return Promise.reject(err);
  }
  const tailMax = opts.stderrTailChars ?? 4000;
  const maxStdout = opts.maxStdoutBytes ?? 64 * 1024 * 1024;

  return new Promise<ProcessResult>((resolve, reject) => {
    const stdio: ("ignore" | "pipe")[] = [opts.feedStdin ? "pipe" : "ignore", "pipe", "pipe"];
    const child = spawn(command, args, { cwd: opts.cwd, stdio });
    task?.track(child);
    if (child.pid !== undefined) opts.onSpawn?.(child.pid);
    let stderrTail = "";
    const stdoutChunks: Buffer[] = [];
    let stdoutBytes = 0;
    let overflow = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    let feedError: unknown = null;
    if (opts.feedStdin) {
      const stdin = child.stdin!;
      // A process that exits early makes the next write fail with EPIPE; its exit status tells why.
      stdin.on("error", () => undefined);
      opts.feedStdin(stdin).then(
        () => stdin.end(),
        (err: unknown) => {
          feedError = err;
          child.kill("SIGKILL");
        },
      );
    }

    const outLines = opts.onStdoutLine ? lineSplitter(opts.onStdoutLine) : null;
    const errLines = opts.onStderrLine ? lineSplitter(opts.onStderrLine) : null;

    child.stdout!.on("data", (chunk: Buffer) => {
      opts.onStdoutData?.(chunk);
      outLines?.push(chunk);
      if (opts.collectStdout && !overflow) {
        stdoutBytes += chunk.length;
        if (stdoutBytes > maxStdout) {
          overflow = true;
          child.kill("SIGKILL");
        } else stdoutChunks.push(chunk);
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      errLines?.push(chunk);
      stderrTail = (stderrTail + chunk.toString("utf8")).slice(-tailMax);
    });

    const onAbort = () => {
      aborted = true;
      child.kill("SIGTERM");
      killTimer = setTimeout(() => child.kill("SIGKILL"), opts.killGraceMs ?? 2000);
      killTimer.unref();
    };
    signal?.addEventListener("abort", onAbort, { once: true });

    child.on("error", (err) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new ProcessError(`${command} could not start: ${err.message}`, command, args, null, null, stderrTail));
    });
    child.on("close", (code, sig) => {
      signal?.removeEventListener("abort", onAbort);
      if (killTimer) clearTimeout(killTimer);
      outLines?.end();
      errLines?.end();
      if (aborted && signal) return reject(abortReason(signal));
      const brokenPipe = (feedError as NodeJS.ErrnoException | null)?.code === "EPIPE";
      if (feedError && !(brokenPipe && code !== 0)) return reject(feedError);
      if (overflow) {
        return reject(new ProcessError(`${command} wrote more than ${maxStdout} bytes to stdout`, command, args, code, sig, stderrTail));
      }
      if (code !== 0) {
        const last = stderrTail.trim().split("\n").slice(-3).join(" | ");
        const how = sig ? `killed by ${sig}` : `exited with code ${code}`;
        return reject(new ProcessError(`${command} ${how}: ${last}`, command, args, code, sig, stderrTail));
      }
      resolve({ stdout: Buffer.concat(stdoutChunks), stderrTail });
    });
  });
}

/** Writes a chunk to a pipe and waits while the reader is behind, so a slow consumer bounds memory. */
export async function writeWithBackpressure(stream: Writable, chunk: Buffer): Promise<void> {
  const closed = () => Object.assign(new Error("the process closed its input"), { code: "EPIPE" });
  if (stream.destroyed || stream.writableEnded) throw closed();
  if (stream.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (err?: unknown) => {
      stream.off("drain", onDrain);
      stream.off("close", onClose);
      stream.off("error", onError);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(closed());
    const onError = (err: unknown) => settle(err);
    stream.on("drain", onDrain);
    stream.on("close", onClose);
    stream.on("error", onError);
  });
}
