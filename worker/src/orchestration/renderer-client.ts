import type { RenderJob } from "../../../common/contract/render";
import { RendererUnavailableError, rendererUrls, type RendererBindings } from "./renderers";

/**
 * Whole-job mode (RENDER_MODE=job): one renderer process runs every task of a job itself and reports job-level
 * events (common/contract/render.ts). For a single machine; on Cloudflare a job fans out over tasks (renderers.ts).
 * Reaches the pool's first renderer at RENDER_URL, otherwise the job's own Container instance (named after the
 * job, so cancel reaches the same instance).
 */
function rendererFetch(env: RendererBindings, jobId: string, path: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  if (env.RENDERER_TOKEN) headers.set("authorization", `Bearer ${env.RENDERER_TOKEN}`);
  const url = rendererUrls(env)[0];
  if (url) return fetch(`${url}${path}`, { ...init, headers });
  const container = env.RENDER_CONTAINER.get(env.RENDER_CONTAINER.idFromName(jobId));
  return container.fetch(new Request(`http://container${path}`, { ...init, headers }));
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
