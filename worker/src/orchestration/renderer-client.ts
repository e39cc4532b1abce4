import type { RenderJob } from "../../../common/contract/render";
import type { RenderContainer } from "../durable/render-container";

export interface RendererBindings {
  RENDER_URL?: string;
  RENDERER_TOKEN?: string;
  RENDER_CONTAINER: DurableObjectNamespace<RenderContainer>;
}

/**
 * Reaches the renderer service: a plain HTTP process at RENDER_URL in development and tests, otherwise the
 * job's own Cloudflare Container instance (named after the job, so cancel reaches the same instance).
 */
function rendererFetch(env: RendererBindings, jobId: string, path: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  if (env.RENDERER_TOKEN) headers.set("authorization", `Bearer ${env.RENDERER_TOKEN}`);
  if (env.RENDER_URL) return fetch(`${env.RENDER_URL.replace(/\/$/, "")}${path}`, { ...init, headers });
  // What @cloudflare/containers' getContainer does: one instance per name.
  const container = env.RENDER_CONTAINER.get(env.RENDER_CONTAINER.idFromName(jobId));
  return container.fetch(new Request(`http://container${path}`, { ...init, headers }));
}

/** The renderer could not take the job. `permanent`: it rejected the job itself (4xx), so retrying cannot help. */
export class RendererUnavailableError extends Error {
  constructor(message: string, readonly permanent = false) {
    super(message);
    this.name = "RendererUnavailableError";
  }
}

/** Starts a job; the renderer answers 202 at once (also for a duplicate start, which it ignores). */
export async function startRender(env: RendererBindings, job: RenderJob): Promise<{ accepted: boolean }> {
  let res: Response;
  try {
    res = await rendererFetch(env, job.job_id, "/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(job),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    throw new RendererUnavailableError(`renderer unreachable: ${String(err)}`);
  }
  if (res.status !== 202) {
    const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
    throw new RendererUnavailableError(`renderer refused the job: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`, permanent);
  }
  const body = (await res.json()) as { accepted?: boolean };
  return { accepted: body.accepted === true };
}

/** Asks the renderer to stop a job; best effort, the job's state is already settled by the caller. */
export async function cancelRender(env: RendererBindings, jobId: string): Promise<boolean> {
  try {
    const res = await rendererFetch(env, jobId, `/jobs/${encodeURIComponent(jobId)}/cancel`, { method: "POST", signal: AbortSignal.timeout(30_000) });
    if (!res.ok) return false;
    return ((await res.json()) as { cancelled?: boolean }).cancelled === true;
  } catch {
    return false;
  }
}
