import { readFileSync } from "node:fs";
import path from "node:path";

/** vCPUs of Cloudflare's instance types (docs/CLOUDFLARE-LIMITS.md). */
export const VCPU: Record<string, number> = { lite: 1 / 16, basic: 0.25, "standard-1": 0.5, "standard-2": 1, "standard-3": 2, "standard-4": 4 };

/**
 * The instance type wrangler.toml gives a Container class (a name, or a custom `{ vcpu = n, ... }`): by default the
 * general one (RenderContainer); `RecutContainer` for the re-cut class (worker/src/orchestration/recut-route.ts).
 */
export function configuredInstance(className = "RenderContainer"): { name: string; vcpu: number } {
  const toml = readFileSync(path.join(import.meta.dirname, "..", "..", "wrangler.toml"), "utf8");
  // The [[containers]] table of that class: from its class_name to the next table.
  const table = toml.split(/^\[\[?/m).find((t) => t.startsWith("containers]]") && new RegExp(`^class_name\\s*=\\s*"${className}"`, "m").test(t)) ?? "";
  const line = /^instance_type\s*=\s*(.+)$/m.exec(table)?.[1]?.trim() ?? '"lite"';
  const custom = /vcpu\s*=\s*([\d.]+)/.exec(line);
  if (custom) return { name: `custom-${custom[1]}vcpu`, vcpu: Number(custom[1]) };
  const name = line.replace(/"/g, "");
  return { name, vcpu: VCPU[name] ?? 1 / 16 };
}

/** Seconds allowed per step of a job's critical path for a Container instance to start (BENCH_CONTAINER_START_S). */
export const CONTAINER_START_S = Number(process.env.BENCH_CONTAINER_START_S ?? 10);

/**
 * Seconds a task takes on an instance of `vcpu` vCPUs: its CPU over the vCPUs; with 2 or more, never below its
 * wall time on the 2 local cores (what does not spread over cores, e.g. the recogniser, does not get faster).
 */
export const secondsOnInstance = (task: { cpu_s: number; wall_s: number }, vcpu: number): number => Math.max(task.cpu_s / vcpu, vcpu >= 2 ? task.wall_s : 0);
