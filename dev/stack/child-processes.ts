/** Processes under a process, read from /proc: the end-to-end tests and the chaos run find FFmpeg under a renderer with it. */
import { readdirSync, readFileSync } from "node:fs";

/** The child processes (name and pid) of `parent` (default: this process), from /proc. */
export function childProcesses(parent = process.pid): { pid: number; name: string }[] {
  const out: { pid: number; name: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      if (ppid === parent) out.push({ pid: Number(entry), name: stat.slice(stat.indexOf("(") + 1, close) });
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Whether a process with this pid exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z";
  } catch {
    return false;
  }
}

/** Every process below `root` (children, their children, ...): a renderer started by tsx runs FFmpeg two levels down. */
export function descendantProcesses(root: number): { pid: number; name: string }[] {
  const out: { pid: number; name: string }[] = [];
  const todo = [root];
  while (todo.length) {
    for (const c of childProcesses(todo.pop()!)) {
      out.push(c);
      todo.push(c.pid);
    }
  }
  return out;
}
