import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "../../dev/stack/processes";

const REPO = path.resolve(import.meta.dirname, "../..");

export interface RendererProcess {
  url: string;
  child: ChildProcess;
  pid: number;
  /** Everything it wrote to stdout and stderr so far, by line. */
  lines: string[];
  /** Resolves with its exit code (or the signal that ended it). */
  exited: Promise<number | string>;
  /** Resolves once GET /health answers (rejects if it exits first). */
  ready(): Promise<void>;
}

/**
 * The renderer's entry point (render-container/src/main.ts) as its own process, run by node with tsx's loader so
 * the renderer itself is the child (its FFmpeg processes are its children). The environment is exactly `env` plus
 * PATH/HOME/TMPDIR and a free PORT: nothing of the test runner's leaks in.
 */
export async function startRendererProcess(env: Record<string, string>): Promise<RendererProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO, "render-container/src/main.ts")], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TMPDIR: process.env.TMPDIR ?? "/tmp", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = "";
    stream.on("data", (d: Buffer) => {
      const parts = (rest + d.toString()).split("\n");
      rest = parts.pop()!;
      lines.push(...parts.filter(Boolean));
    });
  }
  const exited = new Promise<number | string>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  const url = `http://127.0.0.1:${port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  return {
    url,
    child,
    pid: child.pid!,
    lines,
    exited,
    async ready() {
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (gone) throw new Error(`the renderer exited before answering: ${lines.join("\n")}`);
        try {
          if ((await fetch(`${url}/health`)).ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`the renderer did not answer within 30 s: ${lines.join("\n")}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
