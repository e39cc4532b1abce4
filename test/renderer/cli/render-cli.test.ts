import { execFile } from "node:child_process";
import { readdirSync, watch } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Manifest } from "../../../common/contract/render";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { ONE_MOMENT_VOD } from "../../dev/fixture-vods";
import { serveVodForTests } from "../../support/twitch-fixture";

const REPO = path.resolve(import.meta.dirname, "../../..");
const VOD_ID = ONE_MOMENT_VOD.vodId;
const twitchServer = serveVodForTests(ONE_MOMENT_VOD);

const TSX = path.join(REPO, "node_modules/.bin/tsx");

/** Runs the CLI as a user would (`npm run render:cli -- ...` runs the same file through tsx). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["dev/render-cli/cli.ts", ...args], { cwd: REPO, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const cliWorkDirs = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith("render-cli-"));

describe("render CLI", () => {
  it("renders one job from a JSON file into a local folder and prints a summary", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "cli-test-"));
    const request = path.join(dir, "job.json");
    const out = path.join(dir, "out");
    await writeFile(request, JSON.stringify({
      vod_url: `https://www.twitch.tv/videos/${VOD_ID}`,
      compilation_enabled: false,
      final_video_length_minutes: 0,
      num_shorts: 1,
      parameters: { min_highlight_duration: 12, max_highlight_duration: 15 },
    }));
    // The recogniser's accurate search alone (POCKETSPHINX_CROSS_CHECK=0, an operator's setting), half the
    // recogniser CPU of the default: this proves the CLI, not which words are heard (the default's cross-check:
    // test/renderer/captions, analyse-task, render-task).
    // A temp folder of its own (os.tmpdir() follows TMPDIR), so other runs in the shared one cannot interfere;
    // watching it shows the CLI really made its scratch folder there.
    const tmp = path.join(dir, "tmp");
    await mkdir(tmp);
    const created: string[] = [];
    const watcher = watch(tmp, (_event, name) => name && created.push(String(name)));
    const run = await cli(["--request", request, "--out", out, "--gql", twitchServer().gqlUrl, "--usher", twitchServer().usherUrl, "--quiet", "--stats", path.join(dir, "stats.json")], { X264_PRESET: "ultrafast", POCKETSPHINX_CROSS_CHECK: "0", TMPDIR: tmp });
    watcher.close();
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as { wall_seconds: number; artifacts: { name: string; kind: string }[] };
    expect(summary.wall_seconds).toBeGreaterThan(0);
    expect(JSON.parse(await readFile(path.join(dir, "stats.json"), "utf8"))).toEqual(summary);

    // The stored analysis and the short's heard words (for re-cuts) sit beside the deliverables; they are none of them.
    expect(await readdir(out)).toContain("short-01.heard.json");
    const files = (await readdir(out)).filter((f) => f !== "analysis.json.gz" && f !== "short-01.heard.json").sort();
    expect(files).toEqual(["manifest.json", "metadata.json", "short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
    expect(summary.artifacts.map((a) => a.name).sort()).toEqual(files);
    const manifest = Manifest.parse(JSON.parse(await readFile(path.join(out, "manifest.json"), "utf8")));
    expect(manifest.summary.total_shorts).toBe(1);
    const info = await probeMedia(path.join(out, "short-01.mp4"));
    expect(info.video).toMatchObject({ width: 1080, height: 1920 });
    expect(info.durationSeconds).toBeCloseTo(manifest.artifacts.assets.shorts[0]!.duration_seconds!, 1);
    // Its scratch folder was made in the temp folder, and is gone.
    expect(created.filter((f) => f.startsWith("render-cli-"))).not.toEqual([]);
    expect(cliWorkDirs(tmp)).toEqual([]);
    // Reached only when every check above passed: a failed run's folder is left to read.
    await rm(dir, { recursive: true, force: true });
  }, 180_000);

  it("explains its usage when an argument is missing", async () => {
    const run = await cli(["--out", "x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/usage: .*--request/);
  });
});
