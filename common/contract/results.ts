import { z } from "zod";
import { ArtifactKind, Manifest } from "./render";

/**
 * Published results of a completed job: the answer of GET /jobs/{id}/results and the payload
 * of the job.completed webhook. The Worker builds them in worker/src/dispatch/results.ts; the OpenAPI document and
 * the typed client read these definitions.
 */

export const Deliverable = z
  .object({
    type: ArtifactKind.meta({
      description:
        "reel and short are the videos; thumbnail, captions (.srt), metadata and manifest belong to them. Editor hand-off: timeline (a reel's cuts on the source VOD's clock as OpenTimelineIO, .otio), edl (the same cuts as a CMX 3600 EDL, .edl) and transcript (a short's words with start, end and confidence, the shown ones marked, .json).",
    }),
    name: z.string().meta({ description: "File name inside the job (also its name in the download-all ZIP)." }),
    title: z.string().meta({ description: "Generated title; non-video files name the video they belong to." }),
    duration_seconds: z.number().meta({ description: "Length of the video (of the video it belongs to, for other files)." }),
    url: z.string().meta({ description: "Presigned download link; expires at links_expire_at." }),
    size_bytes: z.number().int(),
    content_type: z.string(),
    run_name: z.string().optional().meta({ description: "Reels and their files: the run profile." }),
    index: z.number().int().optional().meta({ description: "Shorts and their files: 1-based position." }),
    tags: z.array(z.string()).optional().meta({ description: "Shorts only: generated tags." }),
  })
  .meta({ description: "One downloadable file." });
export type Deliverable = z.infer<typeof Deliverable>;

export const JobResults = z
  .object({
    job_id: z.string(),
    status: z.literal("completed"),
    deliverables: z.array(Deliverable),
    zip_url: z.string().meta({ description: "GET /jobs/{id}/download-all with a token that grants this job's ZIP." }),
    links_expire_at: z
      .string()
      .meta({ description: "When every link above stops working (ISO 8601 UTC); never after the files are deleted." }),
    refunded_credits: z.number().int().meta({
      description:
        "Credits returned at completion for billed outputs that were not delivered (25 per missing reel, 10 per missing short; the manifest's warnings say why). 0 when everything billed was delivered.",
    }),
    /** The job's manifest.json with a url on every asset. */
    manifest: Manifest,
  })
  .meta({ description: "Answer of GET /jobs/{id}/results and payload of job.completed." });
export type JobResults = z.infer<typeof JobResults>;
