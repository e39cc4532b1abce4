import { taskKey, type RenderTaskRequest } from "../../../common/contract/job-plan";
import { CONTRACT_UNSUPPORTED_STATUS } from "../../../common/contract/task-contract";
import { workerConfig } from "../config";
import type { Assignment } from "../durable/container-assignment";
import type { RenderContainer } from "../durable/render-container";
import { runsOnRecutClass } from "./recut-route";

export interface RendererBindings {
  /** One renderer URL, or several separated by commas (a local pool); empty: Cloudflare Containers. */
  RENDER_URL?: string;
  /** Locally: the renderers re-cut tasks try first (recut-route.ts), as RECUT_CONTAINER in production; empty: none. */
  RECUT_RENDER_URL?: string;
  RENDERER_TOKEN?: string;
  RENDER_CONTAINER: DurableObjectNamespace<RenderContainer>;
  /** The re-cut Container class (`standard-4`): re-cut tasks start there first; absent: every task on RENDER_CONTAINER. */
  RECUT_CONTAINER?: DurableObjectNamespace<RenderContainer>;
}

/**
 * No renderer can take the task now: each is busy (503 from each pool member, or no container instance free), or
 * speaks an older task contract (a rollout under way). The task waits for capacity; nothing failed.
 */
export class RendererBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RendererBusyError";
  }
}

/** The renderer could not take the task. `permanent`: it rejected the task itself (4xx), so retrying cannot help. */
export class RendererUnavailableError extends Error {
  constructor(message: string, readonly permanent = false) {
    super(message);
    this.name = "RendererUnavailableError";
  }
}

/** A task's `instance` names its Container class by this prefix (a pool process is named by its URL). */
const CONTAINER_PREFIX = "container:";
const RECUT_CONTAINER_PREFIX = "recut-container:";

export const rendererUrls = (env: Pick<RendererBindings, "RENDER_URL">): string[] => workerConfig(env).rendererUrls;
export const recutRendererUrls = (env: Pick<RendererBindings, "RENDER_URL" | "RECUT_RENDER_URL">): string[] => workerConfig(env).recutRendererUrls;

/** The Container Durable Object of one task: one instance per task, named after it. */
export function taskContainer(env: Pick<RendererBindings, "RENDER_CONTAINER">, name: string): DurableObjectStub<RenderContainer> {
  return env.RENDER_CONTAINER.get(env.RENDER_CONTAINER.idFromName(name));
}

/** The Container object a task's recorded `instance` names, in the class it started on; null for a pool process. */
export function instanceContainer(env: Pick<RendererBindings, "RENDER_CONTAINER" | "RECUT_CONTAINER">, instance: string): DurableObjectStub<RenderContainer> | null {
  if (instance.startsWith(CONTAINER_PREFIX)) return taskContainer(env, instance.slice(CONTAINER_PREFIX.length));
  if (instance.startsWith(RECUT_CONTAINER_PREFIX) && env.RECUT_CONTAINER) return env.RECUT_CONTAINER.get(env.RECUT_CONTAINER.idFromName(instance.slice(RECUT_CONTAINER_PREFIX.length)));
  return null;
}

function authHeaders(env: RendererBindings, extra: Record<string, string> = {}): Headers {
  const headers = new Headers(extra);
  if (env.RENDERER_TOKEN) headers.set("authorization", `Bearer ${env.RENDERER_TOKEN}`);
  return headers;
}

/**
 * Reads a renderer's answer to POST /tasks: 202 taken, 503/429 busy, 409 a contract version it does not speak
 * (an instance of the previous image during a rollout: another renderer, or this one replaced, will know it),
 * other 4xx permanent, the rest (5xx, "Container suddenly disconnected", "Failed to start container") transient.
 */
async function judge(status: number, text: () => Promise<string>, where: string): Promise<"taken" | "busy" | "outdated"> {
  if (status === 202) return "taken";
  if (status === 503 || status === 429) return "busy";
  if (status === CONTRACT_UNSUPPORTED_STATUS) return "outdated";
  const body = (await text()).slice(0, 300);
  const permanent = status >= 400 && status < 500 && status !== 408;
  throw new RendererUnavailableError(`${where} refused the task: HTTP ${status} ${body}`, permanent);
}

/**
 * Starts one task and returns where it runs. A re-cut's task (recut-route.ts) tries the re-cut class first — the
 * RECUT_CONTAINER binding in production, the RECUT_RENDER_URL pool locally — and, when none of it can take the task
 * now (busy, unreachable), the general one, so a re-cut never waits for the small class. Locally (RENDER_URL) the
 * pool's members are tried in turn, starting from a member picked by the task so that one job's tasks spread; each
 * answers 503 while it is full. In production the task gets its own Container instance (`max_instances` bounds
 * them; none free also means busy).
 */
export async function startTask(env: RendererBindings, request: RenderTaskRequest): Promise<{ instance: string }> {
  const key = taskKey(request.job_id, request.task.id);
  const body = JSON.stringify(request);
  const urls = rendererUrls(env);
  const recut = runsOnRecutClass(request);
  if (urls.length === 0) {
    if (recut && env.RECUT_CONTAINER) {
      try {
        return await startOnContainer(env, env.RECUT_CONTAINER, RECUT_CONTAINER_PREFIX, request, body);
      } catch (err) {
        if (!canTryElsewhere(err)) throw err;
      }
    }
    return startOnContainer(env, env.RENDER_CONTAINER, CONTAINER_PREFIX, request, body);
  }
  const recutUrls = recut ? recutRendererUrls(env) : [];
  if (recutUrls.length > 0) {
    try {
      return await startOnPool(env, recutUrls, key, body);
    } catch (err) {
      if (!canTryElsewhere(err)) throw err;
    }
  }
  return startOnPool(env, urls, key, body);
}

/** The re-cut class could not take the task now (busy, unreachable, an older image): the general class may. */
const canTryElsewhere = (err: unknown): boolean => err instanceof RendererBusyError || (err instanceof RendererUnavailableError && !err.permanent);

/** One Container instance per attempt: a retry after SIGTERM or a crash runs on a fresh instance, never the stopping one. */
async function startOnContainer(env: RendererBindings, ns: DurableObjectNamespace<RenderContainer>, prefix: string, request: RenderTaskRequest, body: string): Promise<{ instance: string }> {
  const name = `${taskKey(request.job_id, request.task.id)}.a${request.task.attempt}`;
  const container = ns.get(ns.idFromName(name));
  const answer = await container.startTask({ job_id: request.job_id, task_id: request.task.id, attempt: request.task.attempt }, body, env.RENDERER_TOKEN ?? null);
  const verdict = await judge(answer.status, async () => answer.body, `container ${prefix}${name}`);
  if (verdict === "busy") {
    // No instance was started: forget the assignment, so an object left behind (the task may start on the other
    // class) keeps no data; a later try of this class assigns it again.
    await container.finishTask();
    throw new RendererBusyError(`no container instance is free (${answer.status})`);
  }
  if (verdict === "outdated") {
    // An instance of the previous image: stop it, so that the next start boots one of the image being rolled out.
    await container.finishTask();
    throw new RendererBusyError(`container ${name} runs an older task contract (${answer.body.slice(0, 200)})`);
  }
  return { instance: `${prefix}${name}` };
}

async function startOnPool(env: RendererBindings, urls: readonly string[], key: string, body: string): Promise<{ instance: string }> {
  const first = [...key].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % urls.length;
  const failures: string[] = [];
  let outdated = 0;
  for (let i = 0; i < urls.length; i++) {
    const url = urls[(first + i) % urls.length]!;
    let res: Response;
    try {
      res = await fetch(`${url}/tasks`, { method: "POST", headers: authHeaders(env, { "content-type": "application/json" }), body, signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      failures.push(`${url}: ${String(err)}`);
      continue;
    }
    const verdict = await judge(res.status, () => res.text(), url);
    if (verdict === "taken") return { instance: url };
    if (verdict === "outdated") outdated += 1;
    await res.body?.cancel();
  }
  if (failures.length === urls.length) throw new RendererUnavailableError(`renderer unreachable: ${failures.join("; ")}`);
  throw new RendererBusyError(`no renderer of the pool can take the task now (${urls.length} in the pool, ${outdated} on an older task contract)`);
}

/** Asks the renderer running a task to stop it; best effort (the job's state is already settled by the caller). */
export async function cancelTask(env: RendererBindings, instance: string, key: string): Promise<boolean> {
  try {
    const container = instanceContainer(env, instance);
    if (container) return await container.cancelTask(key);
    const res = await fetch(`${instance}/tasks/${encodeURIComponent(key)}/cancel`, { method: "POST", headers: authHeaders(env), signal: AbortSignal.timeout(30_000) });
    if (!res.ok) return false;
    return ((await res.json()) as { cancelled?: boolean }).cancelled === true;
  } catch {
    return false;
  }
}

/**
 * A task's instance is handed the job's next task (task-handoff.ts): a container instance's assignment moves to
 * it (false when the container stopped or runs something else meanwhile); a pool process keeps no assignment.
 */
export async function handOverInstance(env: RendererBindings, instance: string, from: Assignment, to: Assignment): Promise<boolean> {
  const container = instanceContainer(env, instance);
  if (container) return container.handOverTask(from, to);
  // A re-cut class instance whose binding is gone (removed by a deploy) cannot be asked: the task goes through the queue.
  return !instance.startsWith(RECUT_CONTAINER_PREFIX);
}

/** A task ended: its container instance is stopped at once (a pool process just takes the next task). */
export async function releaseInstance(env: RendererBindings, instance: string): Promise<void> {
  const container = instanceContainer(env, instance);
  if (!container) return;
  try {
    await container.finishTask();
  } catch (err) {
    console.warn(JSON.stringify({ level: "warn", msg: "container stop failed", instance, error: String(err) }));
  }
}
