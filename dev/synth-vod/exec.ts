import { spawn } from "node:child_process";

/** Runs a tool to completion; the error carries the tail of stderr because that is where ffmpeg says why. */
export function run(cmd: string, args: string[], opts: { stdin?: Buffer } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${cmd} exited with ${code}: ${err.trim()}`));
    });
    child.stdin.end(opts.stdin);
  });
}
