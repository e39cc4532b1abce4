import { mkdtemp } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { ShortTask } from "../../../common/contract/job-plan";
import type { RenderJob } from "../../../common/contract/render";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { silentLogger, type Logger } from "../../../render-container/src/log";
import type { TaskRunner } from "../../../render-container/src/pipeline/types";
import { createRenderServer } from "../../../render-container/src/service/http-server";
import { TaskRegistry } from "../../../render-container/src/service/task-registry";
import { SMALL_VOD } from "../../dev/fixture-vods";

/**
 * What the renderer service's tests share: servers to close after each test (`afterEach(closeAll)` in the file),
 * the service's bearer token, a short of the small synthetic VOD, a real job for that VOD whose callbacks and
 * uploads go where the test listens, and a renderer service (registry and HTTP server) on a free port.
 */
export const closers: (() => Promise<unknown>)[] = [];
export async function closeAll(): Promise<void> {
  while (closers.length) await closers.pop()!();
}

export const TOKEN = "svc-token";

/** A short of the small VOD's moment m1 (30-50 s by default). */
export function smallVodShort(over: Partial<ShortTask> = {}): ShortTask {
  return {
    kind: "short", id: "short-01", index: 1, moment_id: "m1", start: 30, end: 50, peak: 38, snap: false, title_text: null,
    title: "A short", description: "d", tags: ["t"], expected_encode_seconds: 20, ...over,
  };
}

/** A real one-short job for the small VOD; its task events go to `events`, its files to `upload`. */
export function smallVodJob(twitch: Parameters<typeof localRenderJob>[1]["twitch"], jobId: string, to: { events: string; upload: string; heartbeatSeconds?: number }): Promise<RenderJob> {
  return localRenderJob(
    { vod_url: `https://www.twitch.tv/videos/${SMALL_VOD.vodId}`, compilation_enabled: false, final_video_length_minutes: 0, num_shorts: 1, parameters: { shorts_crop_mode: "fit" } },
    { twitch, jobId, callback: { url: to.events, token: "cb", heartbeat_seconds: to.heartbeatSeconds ?? 30 }, upload: { mode: "worker", url: to.upload, token: "up" } },
  );
}

/** A renderer service on a free port; closed (its tasks cancelled) after the test. */
export async function startRenderService(runner: TaskRunner, opts: { maxTasks?: number; contracts?: readonly number[]; log?: Logger; prefix?: string } = {}) {
  const root = await mkdtemp(path.join(os.tmpdir(), opts.prefix ?? "renderer-tasks-"));
  const tasks = new TaskRegistry(root, runner, opts.log ?? silentLogger, { maxTasks: opts.maxTasks ?? 1 });
  const server = createRenderServer(tasks, silentLogger, { token: TOKEN, ...(opts.contracts ? { contracts: opts.contracts } : {}) });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(async () => {
    for (const t of tasks.list()) await tasks.cancel(t.task_key);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const postTo = (p: string, body: unknown) => fetch(`${url}${p}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body) });
  return { url, root, tasks, post: (body: unknown) => postTo("/tasks", body), postTo };
}
