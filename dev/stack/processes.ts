import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import net from "node:net";

/** A child process of the local stack, with its output kept in a log file for post-mortems. */
export interface Managed {
  name: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function startProcess(name: string, command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; logFile: string; echo?: boolean }): Managed {
  const log = createWriteStream(opts.logFile, { flags: "a" });
  const child = spawn(command, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (d: Buffer) => {
      log.write(d);
      if (opts.echo) process.stderr.write(`[${name}] ${d}`);
    });
  }
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  return {
    name,
    child,
    stop: async () => {
      if (exited || child.pid === undefined) {
        log.end();
        return;
      }
      // The whole process group: wrangler starts workerd, tsx starts node.
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
      const deadline = Date.now() + 5000;
      while (!exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (!exited) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          /* gone */
        }
      }
      log.end();
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function waitForHttp(url: string, opts: { timeoutMs?: number; proc?: Managed } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (opts.proc && opts.proc.child.exitCode !== null) throw new Error(`${opts.proc.name} exited with code ${opts.proc.child.exitCode} before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.body?.cancel();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${url}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export function runToEnd(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${out.slice(-3000)}`))));
  });
}
