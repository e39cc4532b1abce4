import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { LIFECYCLE_EXPIRE_DAYS } from "../../worker/src/orchestration/job-lifecycle";

/**
 * The deploy steps of docs/DEPLOY.md ("Deploying") leave nothing out (issue 23, point 11): every resource
 * wrangler.toml binds is created by a step, every secret the Worker reads is put (or, for the optional ones, shown
 * how), the lifecycle rule deletes files when retention says, and every wrangler command is one wrangler 4.86
 * knows, with flags it knows (asked offline with `--help`). Running them needs an account; this checks they are
 * the right ones.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const WRANGLER = path.join(ROOT, "node_modules/.bin/wrangler");

let steps: string[];
let deployDoc: string;
beforeAll(async () => {
  deployDoc = await readFile(path.join(ROOT, "docs/DEPLOY.md"), "utf8");
  const section = deployDoc.slice(deployDoc.indexOf("\n## Deploying\n"));
  const block = /```\n([\s\S]*?)```/.exec(section)![1]!;
  steps = block.split("\n").map((line) => line.trim()).filter(Boolean);
});

/** The step lines that run (not commented out), without their trailing comment. */
const commands = () => steps.filter((l) => !l.startsWith("#")).map((l) => l.replace(/\s+#.*$/, ""));
/** Lines that run or that the block shows commented out as an option (`# npx wrangler secret put ...`). */
const shown = () => steps.map((l) => l.replace(/^#\s*/, "").replace(/\s+#.*$/, ""));

async function config() {
  const { unstable_readConfig } = await import("wrangler");
  return unstable_readConfig({ config: path.join(ROOT, "wrangler.toml") });
}

/** Secrets the Worker reads: the members of Env after its "Secrets" comment (worker/src/env.ts). */
async function declaredSecrets(): Promise<string[]> {
  const source = await readFile(path.join(ROOT, "worker/src/env.ts"), "utf8");
  const tail = source.slice(source.indexOf("// Secrets:"));
  return [...tail.slice(0, tail.indexOf("\n}")).matchAll(/^\s+([A-Z][A-Z0-9_]*)\??:/gm)].map((m) => m[1]!);
}

function wranglerHelp(args: string[]): Promise<{ status: number; out: string }> {
  return new Promise((resolve) => {
    execFile(WRANGLER, [...args, "--help"], { cwd: ROOT, env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** Splits a shell line into words, keeping quoted strings whole. */
const words = (line: string) => [...line.matchAll(/"[^"]*"|'[^']*'|\S+/g)].map((m) => m[0].replace(/^["']|["']$/g, ""));

describe("docs/DEPLOY.md's deploy steps", () => {
  it("create every D1 database, R2 bucket and queue wrangler.toml binds, and apply the migrations", async () => {
    const c = await config();
    const run = commands();
    for (const db of c.d1_databases) {
      expect(run).toContain(`npx wrangler d1 create ${db.database_name}`);
      expect(run).toContain(`npx wrangler d1 migrations apply ${db.binding} --remote`);
    }
    for (const bucket of c.r2_buckets) expect(run).toContain(`npx wrangler r2 bucket create ${bucket.bucket_name}`);
    const queues = new Set([
      ...(c.queues.producers ?? []).map((q: { queue: string }) => q.queue),
      ...(c.queues.consumers ?? []).flatMap((q: { queue: string; dead_letter_queue?: string }) => [q.queue, q.dead_letter_queue]),
    ].filter((q): q is string => Boolean(q)));
    expect(queues.size).toBeGreaterThan(0);
    for (const q of queues) expect(run).toContain(`npx wrangler queues create ${q}`);
    // Created before the first deploy, which needs them.
    const deployAt = run.indexOf("npx wrangler deploy");
    expect(deployAt).toBeGreaterThan(run.findIndex((l) => l.startsWith("npx wrangler queues create")));
    expect(deployAt).toBeGreaterThan(run.findIndex((l) => l.startsWith("npx wrangler d1 migrations apply")));
  });

  it("add the lifecycle rule that deletes a job's files LIFECYCLE_EXPIRE_DAYS after upload, on the bucket and folder the Worker writes", async () => {
    const [bucket] = (await config()).r2_buckets;
    const rule = commands().find((l) => l.startsWith("npx wrangler r2 bucket lifecycle add"));
    // <bucket> [name] [prefix]: the files live under jobs/<id>/ (worker/src/artifacts/links.ts, artifactKey).
    expect(rule && words(rule).slice(6)).toEqual([bucket!.bucket_name, expect.any(String), "jobs/", "--expire-days", String(LIFECYCLE_EXPIRE_DAYS)]);
  });

  it("put every secret the Worker reads, or show how (the optional ones commented); the rotation's previous key in its own section", async () => {
    const secrets = await declaredSecrets();
    expect(secrets).toEqual(expect.arrayContaining(["ADMIN_TOKEN", "LINK_SIGNING_KEY", "RENDERER_TOKEN"]));
    const run = commands();
    for (const required of ["ADMIN_TOKEN", "LINK_SIGNING_KEY", "RENDERER_TOKEN"]) expect(run).toContain(`npx wrangler secret put ${required}`);
    for (const name of secrets) {
      if (name === "LINK_SIGNING_KEY_PREVIOUS") expect(deployDoc).toMatch(/"LINK_SIGNING_KEY_PREVIOUS":.*npx wrangler secret bulk/);
      else expect(shown(), name).toContain(`npx wrangler secret put ${name}`);
    }
    expect(steps.some((l) => l.includes("PUBLIC_BASE_URL"))).toBe(true);
  });

  it("use wrangler commands and flags that wrangler knows", async () => {
    const lines = [...new Set(shown().filter((l) => l.startsWith("npx wrangler ")))];
    expect(lines.length).toBeGreaterThan(10);
    // One `--help` per command shape: the secret steps differ only in the secret's name.
    const shape = (line: string) => words(line).slice(2).map((w) => (/^[A-Z][A-Z0-9_]+$/.test(w) ? "NAME" : w)).join(" ");
    const helps = new Map<string, Promise<{ status: number; out: string }>>();
    for (const line of lines) if (!helps.has(shape(line))) helps.set(shape(line), wranglerHelp(words(line).slice(2)));
    for (const line of lines) {
      const args = words(line).slice(2);
      const help = await helps.get(shape(line))!;
      expect(help.status, `${line}\n${help.out}`).toBe(0);
      // The usage line is the command the step runs (for an unknown one wrangler shows its parent's usage), and
      // the step gives no more positionals than it takes.
      const usage = /^wrangler (.*)$/m.exec(help.out)?.[1] ?? "";
      const literal = usage.split(" ").filter((w) => /^[a-z0-9-]+$/.test(w));
      const positionals = usage.split(" ").filter((w) => /^[<[]/.test(w)).length;
      const given: string[] = [];
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (!a.startsWith("-")) given.push(a);
        else {
          // Every flag the step uses is one wrangler lists for this command; a flag that is not boolean takes the next word.
          const listed = new RegExp(`^\\s+(?:-\\w, )?${a.split("=")[0]}\\s.*$`, "m").exec(help.out)?.[0];
          expect(listed, `${line}: ${a}`).toBeTruthy();
          if (!a.includes("=") && !listed!.includes("[boolean]")) i++;
        }
      }
      expect(given.slice(0, literal.length), `${line}: usage "${usage}"`).toEqual(literal);
      expect(given.length - literal.length, `${line}: usage "${usage}"`).toBeLessThanOrEqual(positionals);
    }
  }, 240_000);
});
