import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startProcess, waitForHttp, type Managed } from "../../../dev/stack/processes";
import { generateSyntheticVod } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import { ANALYSE_TASK_ID, TaskEvent, type JobPlan, type RenderTaskRequest, type TaskResult } from "../../../common/contract/job-plan";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { startRecorder } from "../../support/http-recorder";
import { RENDERER_TASK_CONTRACTS } from "../../../common/contract/task-contract";

/**
 * The renderer as the container image runs it: bundled by scripts/bundle-renderer.mjs (the script the
 * Dockerfile's build stage runs, so the flags cannot drift), then `node renderer.mjs` started from a folder with
 * no node_modules anywhere above it. A CI-able stand-in for building the image; no Docker needed.
 *
 * RENDERER_UNDER_TEST=http://127.0.0.1:<port> points the same checks at a renderer that is already running
 * instead, e.g. the built image (`docker run --network host -e PORT=<port> -e RENDERER_TOKEN=bundle-test-token
 * highlight-renderer:local`, see docs/CONTAINERS.md, "The renderer image"); it must reach this machine's 127.0.0.1.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const TOKEN = "bundle-test-token";
const EXTERNAL = process.env.RENDERER_UNDER_TEST;
let tmp: string;
let bundle: string;
let renderer: Managed | undefined;
let rendererUrl: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "renderer-bundle-"));
  if (EXTERNAL) {
    rendererUrl = EXTERNAL.replace(/\/$/, "");
    return;
  }
  bundle = path.join(tmp, "renderer.mjs");
  await promisify(execFile)(process.execPath, [path.join(ROOT, "scripts/bundle-renderer.mjs"), bundle], { cwd: ROOT });
  const port = await freePort();
  rendererUrl = `http://127.0.0.1:${port}`;
  // The image's environment (see the Dockerfile's ENV) on a free port.
  renderer = startProcess("renderer", process.execPath, [bundle], {
    cwd: tmp,
    env: { NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", WORK_DIR: path.join(tmp, "work"), RENDERER_TOKEN: TOKEN, RENDERER_VERSION: "bundle-test", NODE_PATH: "", FACECAM_REGION: "top-left" },
    logFile: path.join(tmp, "renderer.log"),
  });
  await waitForHttp(`${rendererUrl}/health`, { proc: renderer, timeoutMs: 20_000 });
}, 60_000);

afterAll(async () => {
  await renderer?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("the bundled renderer (what the container image runs)", () => {
  it.skipIf(EXTERNAL)("is one file outside the repository, beside only the voice model's runtime and weights", async () => {
    expect(existsSync(bundle)).toBe(true);
    expect((await readdir(path.join(tmp, "node_modules"))).sort()).toEqual(["onnxruntime-common", "onnxruntime-node"]);
    expect((await readdir(path.join(tmp, "node_modules/onnxruntime-node/bin/napi-v6"))).sort()).toEqual([process.platform]);
    expect(existsSync(path.join(tmp, "models/silero_vad.onnx"))).toBe(true);
    expect(path.relative(ROOT, tmp).startsWith("..")).toBe(true);
  });

  it.skipIf(EXTERNAL)("says in its log that a malformed FACECAM_REGION is ignored", async () => {
    await expect
      .poll(async () => (await readFile(path.join(tmp, "renderer.log"), "utf8")).split("\n").some((l) => l.includes("FACECAM_REGION ignored") && l.includes("top-left")), { timeout: 5000 })
      .toBe(true);
  });

  it("answers GET /health without the token, and guards the task routes with it", async () => {
    const res = await fetch(`${rendererUrl}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, running_tasks: 0, max_tasks: 1, tasks: [], task_contracts: EXTERNAL ? expect.any(Array) : [...RENDERER_TASK_CONTRACTS], version: EXTERNAL ? expect.any(String) : "bundle-test" });
    expect((await fetch(`${rendererUrl}/tasks`, { method: "POST", body: "{}" })).status).toBe(401);
  });

  it("runs a job's tasks end to end: Twitch fetch, analysis, pocketsphinx, burned captions and title font, upload, callbacks", async () => {
    await generateSyntheticVod(SMALL_VOD);
    const twitch: TwitchServer = await startTwitchServer({ root: SMALL_VOD.root });
    const worker = await startRecorder();
    try {
      const job = await localRenderJob(
        {
          vod_url: `https://www.twitch.tv/videos/${SMALL_VOD.vodId}`,
          compilation_enabled: false,
          final_video_length_minutes: 0,
          num_shorts: 1,
          burn_captions: true,
          parameters: { min_highlight_duration: 20, max_highlight_duration: 24, shorts_crop_mode: "crop", shorts_title_card_enabled: true },
        },
        {
          twitch,
          jobId: `job_bundle_${Date.now()}`,
          callback: { url: `${worker.url}/events`, token: "cb" },
          upload: { mode: "worker", url: `${worker.url}/upload`, token: "up" },
        },
      );
      // The Worker's side of the task path: the analysis task, then the plan's render tasks, one at a time.
      const events = (taskId: string) => worker.requests.filter((r) => r.url === `/events/${taskId}`).map((r) => TaskEvent.parse(JSON.parse(r.body.toString())));
      const runTask = async (task: RenderTaskRequest["task"], plan: JobPlan | null): Promise<TaskResult> => {
        const request: RenderTaskRequest = { ...job, callback: { url: `${worker.url}/events/${task.id}`, token: "cb" }, task, plan };
        const res = await fetch(`${rendererUrl}/tasks`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(request) });
        expect(res.status).toBe(202);
        await expect.poll(() => events(task.id).find((e) => e.type === "completed" || e.type === "failed")?.type, { timeout: 280_000, interval: 500 }).toBeDefined();
        const last = events(task.id).at(-1)!;
        if (last.type !== "completed") throw new Error(JSON.stringify(last));
        return last.result;
      };
      const analysed = await runTask({ id: ANALYSE_TASK_ID, kind: "analyse", attempt: 1 }, null);
      if (analysed.kind !== "analyse") throw new Error(analysed.kind);
      // A missing pocketsphinx binary or model would not fail the job, only warn: captions must have been made.
      expect(analysed.plan.warnings.filter((w) => /captions/i.test(w))).toEqual([]);
      // Nor would a voice-activity model that cannot load: it must have run from the staged runtime.
      expect(analysed.plan.warnings.filter((w) => /voice-activity/i.test(w))).toEqual([]);
      for (const t of analysed.plan.tasks) await runTask({ id: t.id, kind: t.kind, attempt: 1 }, analysed.plan);

      const uploads = worker.requests.filter((r) => r.method === "PUT" && r.url.startsWith("/upload/"));
      const names = uploads.map((u) => decodeURIComponent(u.url.slice("/upload/".length))).sort();
      // metadata.json and manifest.json are the Worker's finalising step; the analysis task stores what it found
      // (for re-cuts).
      expect(names).toEqual(["analysis.json.gz", "short-01.heard.json", "short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
      const mp4 = path.join(tmp, "short-01.mp4");
      await mkdir(path.dirname(mp4), { recursive: true });
      await writeFile(mp4, uploads.find((u) => u.url.endsWith("short-01.mp4"))!.body);
      expect((await probeMedia(mp4)).video).toMatchObject({ width: 1080, height: 1920 });
      expect(uploads.find((u) => u.url.endsWith("short-01.srt"))!.body.toString()).toMatch(/-->/);
    } finally {
      await twitch.close();
      await worker.close();
    }
  }, 600_000);
});
