import type { Plan } from "../../common/contract/enums";
import type { RenderJob, UploadTarget } from "../../common/contract/render";
import { probeVod } from "../../common/twitch";
import { prepareJob, toVodInfo } from "../../worker/src/domain/prepare-job";

export interface LocalJobOptions {
  /** Twitch endpoints the VOD is probed on and the renderer reads from (a local Twitch-compatible server). */
  twitch: { gqlUrl: string; usherUrl: string };
  jobId: string;
  plan?: Plan;
  /** Where progress and files go; nowhere by default (the caller uploads to a folder itself). */
  callback?: RenderJob["callback"];
  upload?: UploadTarget;
}

/**
 * The render job the Worker would dispatch for a POST /jobs body, without the Worker: the body is validated and
 * normalised by the API's own rules (prepareJob, as an account of `plan` that has purchased) and the VOD probed on
 * the given endpoints. For the render CLI, the benchmark and tests.
 */
export async function localRenderJob(body: Record<string, unknown>, opts: LocalJobOptions): Promise<RenderJob> {
  const { twitch } = opts;
  const prepared = await prepareJob(body, { plan: opts.plan ?? "pro", purchased: true }, (id) => probeVod(twitch, id));
  return {
    job_id: opts.jobId,
    request: prepared.request,
    vod: prepared.probe
      ? toVodInfo(prepared.probe)
      : { vod_id: prepared.request.vod_id, title: "", duration_seconds: prepared.vodDurationSeconds, streamer_login: null, streamer_display_name: null, game_name: null, created_at: null, language: null },
    callback: opts.callback ?? { url: "about:blank", token: "" },
    upload: opts.upload ?? { mode: "worker", url: "about:blank", token: "" },
    twitch: { gql_url: twitch.gqlUrl, usher_url: twitch.usherUrl },
  };
}
