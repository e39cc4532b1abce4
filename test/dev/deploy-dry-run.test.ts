import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * `wrangler deploy --dry-run` succeeds on this repository's wrangler.toml (issue 23, point 11): the Worker bundles,
 * every binding, the observability setting and the container application validate, offline and without Docker.
 * With [[containers]] a dry run still builds the image, so `docker` is a stand-in (WRANGLER_DOCKER_BIN) that
 * answers `info`, records the build it is asked for and succeeds; the image itself is built where Docker runs
 * (`npm run test:containers`).
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
let tmp: string;
let output: { status: number; out: string };

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "deploy-dry-run-"));
  const docker = path.join(tmp, "docker");
  await writeFile(docker, `#!/usr/bin/env bash\necho "$@" >> "${tmp}/calls"\nif [ "$1" = build ]; then cat > "${tmp}/Dockerfile"; fi\nexit 0\n`);
  await chmod(docker, 0o755);
  output = await new Promise((resolve) => {
    execFile(
      path.join(ROOT, "node_modules/.bin/wrangler"),
      ["deploy", "--dry-run", "--outdir", path.join(tmp, "out")],
      { cwd: ROOT, env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", WRANGLER_DOCKER_BIN: docker }, timeout: 120_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}, 150_000);
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("wrangler deploy --dry-run", () => {
  it("succeeds and stays within the Free plan's 3 MB gzipped Worker size", () => {
    expect(output.status, output.out).toBe(0);
    const gzip = /gzip: ([\d.]+) KiB/.exec(output.out);
    expect(Number(gzip?.[1])).toBeLessThan(3 * 1024);
  });

  it("builds the renderer image from render-container/Dockerfile on a supported Node LTS (22), context the repository root", async () => {
    const calls = await readFile(path.join(tmp, "calls"), "utf8");
    expect(calls).toMatch(new RegExp(`^build .*-f - ${ROOT.replace(/[/.]/g, "\\$&")}$`, "m"));
    const dockerfile = await readFile(path.join(tmp, "Dockerfile"), "utf8");
    expect(dockerfile).toBe(await readFile(path.join(ROOT, "render-container/Dockerfile"), "utf8"));
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])).toEqual(["node:22-bookworm-slim", "node:22-bookworm-slim"]);
  });
});

describe("wrangler.toml as wrangler reads it", () => {
  it("sends the Worker's and the containers' logs to the dashboard ([observability] enabled)", async () => {
    const { unstable_readConfig } = await import("wrangler");
    const config = unstable_readConfig({ config: path.join(ROOT, "wrangler.toml") });
    expect(config.observability).toMatchObject({ enabled: true });
  });

  it("lets a running task finish before a rollout replaces its instance (rollout_active_grace_period, default 0)", async () => {
    const { unstable_readConfig } = await import("wrangler");
    const [container] = unstable_readConfig({ config: path.join(ROOT, "wrangler.toml") }).containers ?? [];
    // 900 s: several times the longest measured task (docs/DEPLOY.md, "Containers and capacity"); issue 23, point 2.
    expect(container).toMatchObject({ class_name: "RenderContainer", rollout_active_grace_period: 900, max_instances: 100 });
  });

  it("runs re-cuts on a second Container class of the same image, standard-4, with few instances: both classes within the account's 1,500 vCPU", async () => {
    const { unstable_readConfig } = await import("wrangler");
    const config = unstable_readConfig({ config: path.join(ROOT, "wrangler.toml") });
    const [general, recut] = config.containers ?? [];
    // One instance type per class (docs/CLOUDFLARE-LIMITS.md): the faster type for re-cuts is a class of its own.
    expect(recut).toMatchObject({ class_name: "RecutContainer", image: general?.image, instance_type: "standard-4", rollout_active_grace_period: 900 });
    expect(recut?.max_instances).toBeLessThanOrEqual(20);
    // The Worker reaches it through its own Durable Object binding, and the class was added by a migration.
    expect(config.durable_objects.bindings).toContainEqual(expect.objectContaining({ name: "RECUT_CONTAINER", class_name: "RecutContainer" }));
    expect(config.migrations.flatMap((m: { new_sqlite_classes?: string[] }) => m.new_sqlite_classes ?? [])).toContain("RecutContainer");
    const vcpu = (c: typeof general) => (typeof c?.instance_type === "object" ? (c.instance_type as { vcpu: number }).vcpu : c?.instance_type === "standard-4" ? 4 : 0);
    expect(vcpu(general) * general!.max_instances! + vcpu(recut) * recut!.max_instances!).toBeLessThanOrEqual(1_500);
  });

  it("asks for a custom instance type within the documented limits (docs/CLOUDFLARE-LIMITS.md, \"Custom instance types\")", async () => {
    const { unstable_readConfig } = await import("wrangler");
    const [container] = unstable_readConfig({ config: path.join(ROOT, "wrangler.toml") }).containers ?? [];
    const type = container?.instance_type as { vcpu: number; memory_mib: number; disk_mb: number };
    // All three keys: a key left out falls back to lite's value (1/16 vCPU, 256 MiB, 2 GB).
    expect(Object.keys(type).sort()).toEqual(["disk_mb", "memory_mib", "vcpu"]);
    expect(type.vcpu).toBeGreaterThanOrEqual(1);
    expect(type.vcpu).toBeLessThanOrEqual(4);
    expect(type.memory_mib).toBeLessThanOrEqual(12 * 1024);
    expect(type.memory_mib).toBeGreaterThanOrEqual(3 * 1024 * type.vcpu);
    expect(type.disk_mb).toBeLessThanOrEqual(20_000);
    expect(type.disk_mb).toBeLessThanOrEqual(2_000 * (type.memory_mib / 1024));
  });
});
