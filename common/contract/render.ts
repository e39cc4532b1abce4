import { z } from "zod";
import { RunProfile } from "./enums";
import { AnalysisReuseSource } from "./analysis-reuse";
import { NormalizedJobRequest } from "./normalized-request";

/**
 * The contract between the Worker and the renderer service (render-container): what every task request carries
 * (RenderJob, the job's part of a RenderTaskRequest), the files it stores and the stages it reports. The task
 * routes and their events are in job-plan.ts; GET {RENDER_URL}/health answers 200 {ok:true,...}.
 *
 * renderer -> Worker, files:
 *   upload.url and upload.token are the task attempt's own (.../internal/jobs/{id}/tasks/{task}/attempts/{n}/...):
 *   they open only the files that task makes, and, to read, the parts a reel's join reads (common/plan/task-files.ts),
 *   while the attempt is current; anything else answers 403 outside_task_scope or 409 task_superseded.
 *   upload.mode "worker" (no R2 API credentials), all with Authorization: Bearer {upload.token}:
 *                      PUT    {upload.url}/{name}                          one request, files up to 64 MiB
 *                                                                          (the Worker refuses > 100,000,000: 413)
 *                      POST   {upload.url}/{name}?uploads                  body {size_bytes, content_type}
 *                                                                          -> 201 {upload_id, part_size_bytes, part_count}
 *                      PUT    {upload.url}/{name}?uploadId=U&partNumber=N  Content-Length = part_size_bytes, the
 *                                                                          last part the rest -> 200 {part_number, etag}
 *                      POST   {upload.url}/{name}?uploadId=U               body {parts: [{part_number, etag}]} -> 201
 *                      DELETE {upload.url}/{name}?uploadId=U               abort (after a failure or cancel) -> 204
 *                      GET    {upload.url}/{name}                          a file stored earlier (Range supported)
 *   Why these sizes: one request to a Worker carries at most 100 MB (Cloudflare Free/Pro), so files above 64 MiB
 *   go in parts of UPLOAD_PART_BYTES (64 MiB), streamed by the Worker into an R2 multipart upload (R2: every part
 *   but the last the same size and >= 5 MiB, <= 10,000 parts: up to 625 GiB a file). upload_id is opaque, signed,
 *   and carries the size and part size, so the Worker checks each part's exact length.
 *   upload.mode "presigned" (R2 API credentials configured; the renderer never sees them): per object and operation
 *   it asks POST {upload.url}/{name} (StorageOperation, Bearer {upload.token}) for a presigned R2 URL, then sends
 *   the request to R2 itself: one PUT up to 64 MiB, above that parts of 32 MiB (the Worker creates and completes
 *   the multipart upload). upload.mode "s3" (task contract 1 only) carried the credentials themselves.
 *   ai (when the job has it): POST {ai.url}/audio/transcriptions and {ai.url}/chat/completions, Bearer {ai.token}:
 *   Whisper and an instruct LLM on Workers AI, OpenAI-compatible (workers-ai.ts).
 */

export const VodInfo = z.object({
  vod_id: z.string(),
  title: z.string(),
  duration_seconds: z.number(),
  streamer_login: z.string().nullable(),
  streamer_display_name: z.string().nullable(),
  game_name: z.string().nullable(),
  created_at: z.string().nullable(),
  language: z.string().nullable(),
});
export type VodInfo = z.infer<typeof VodInfo>;

export const UploadTarget = z.discriminatedUnion("mode", [
  z.object({
    /** PUT each file to `${url}/${name}` with the bearer token (in parts above 64 MiB); the Worker stores it in R2. The task attempt's own URL and token. */
    mode: z.literal("worker"),
    url: z.string(),
    token: z.string(),
  }),
  z.object({
    /**
     * Straight to R2 through URLs the Worker presigns, one object and one operation at a time (R2 API credentials
     * configured; the renderer never holds them): POST `${url}/${name}` with a StorageOperation and the bearer
     * token, both the task attempt's own (worker/src/routes/internal-storage.ts).
     */
    mode: z.literal("presigned"),
    url: z.string(),
    token: z.string(),
  }),
  z.object({
    /**
     * Task contract 1 only (a Worker from before contract 2, during a rollout): R2 API credentials in the task
     * body. Current Workers never send it; drop it with contract 1.
     */
    mode: z.literal("s3"),
    endpoint: z.string(),
    bucket: z.string(),
    access_key_id: z.string(),
    secret_access_key: z.string(),
    region: z.string().default("auto"),
    /** Object key prefix, e.g. `jobs/<job_id>/`. */
    prefix: z.string(),
  }),
]);
export type UploadTarget = z.infer<typeof UploadTarget>;

const UploadId = z.string().min(1).max(1024);
/** R2: at most 10,000 parts. */
const PartNumber = z.number().int().min(1).max(10_000);

/**
 * Upload mode "presigned": what the renderer asks of POST {upload.url}/{name} for one object of its job.
 * put, get, head, upload_part, abort_multipart -> 200 PresignedRequest (send that request to R2 yourself);
 * create_multipart -> 201 {upload_id}; complete_multipart -> 201 {size_bytes} (the Worker makes these two calls:
 * R2 presigns only GET, HEAD, PUT and DELETE).
 */
export const StorageOperation = z.discriminatedUnion("operation", [
  z.object({ operation: z.literal("put") }),
  z.object({ operation: z.literal("get") }),
  z.object({ operation: z.literal("head") }),
  z.object({ operation: z.literal("create_multipart"), content_type: z.string().min(1).max(255).default("application/octet-stream") }),
  z.object({ operation: z.literal("upload_part"), upload_id: UploadId, part_number: PartNumber }),
  z.object({
    operation: z.literal("complete_multipart"),
    upload_id: UploadId,
    /** The whole file's size: a repeated completion whose first answer was lost is recognised by it. */
    size_bytes: z.number().int().positive(),
    parts: z.array(z.object({ part_number: PartNumber, etag: z.string().min(1).max(512) })).min(1).max(10_000),
  }),
  z.object({ operation: z.literal("abort_multipart"), upload_id: UploadId }),
]);
export type StorageOperation = z.input<typeof StorageOperation>;

/** One request to send to R2 as given (the signature is in the URL's query, valid until expires_at, Unix seconds). */
export const PresignedRequest = z.object({ method: z.enum(["GET", "HEAD", "PUT", "DELETE"]), url: z.string(), expires_at: z.number().int() });
export type PresignedRequest = z.infer<typeof PresignedRequest>;

export const RenderJob = z.object({
  job_id: z.string(),
  request: NormalizedJobRequest,
  vod: VodInfo,
  callback: z.object({
    url: z.string(),
    token: z.string(),
    /**
     * Report at least this often, even when nothing changed (repeat the last progress event with a new seq):
     * the Worker gives up a running task that is silent for 4x this long (WATCHDOG_SECONDS) as lost.
     */
    heartbeat_seconds: z.number().positive().optional(),
  }),
  upload: UploadTarget,
  twitch: z.object({ gql_url: z.string(), usher_url: z.string() }),
  /**
   * Workers AI through the Worker for this task attempt (contract: workers-ai.ts): an OpenAI-compatible base URL
   * (`{url}/audio/transcriptions`, `{url}/chat/completions`) and the bearer token it takes (the attempt's token,
   * the same as callback.token; both opaque to the renderer). Absent or null: the Worker offers none (no binding, or WORKERS_AI = "off"). TRANSCRIBE_API_URL and
   * METADATA_API_URL in the renderer's environment take precedence.
   */
  ai: z.object({ url: z.string(), token: z.string() }).nullish(),
  /**
   * The analysis task of a job reusing an earlier job's stored analysis (analysis-reuse.ts): where to read it.
   * Absent or null: analyse the VOD (and store the analysis for later jobs).
   */
  reuse: AnalysisReuseSource.nullish(),
});
export type RenderJob = z.infer<typeof RenderJob>;

/**
 * Kinds of stored file. `reel`/`short` are the deliverable videos. The editor hand-off files: `timeline` (a reel's
 * cuts as OpenTimelineIO, .otio), `edl` (the same cuts as a CMX 3600 EDL) and `transcript` (a short's words as JSON).
 */
export const ArtifactKind = z.enum(["reel", "short", "thumbnail", "captions", "metadata", "manifest", "timeline", "edl", "transcript"]);
export type ArtifactKind = z.infer<typeof ArtifactKind>;

export const ArtifactRef = z.object({
  /** File name inside the job's folder (R2 key = `jobs/<job_id>/<name>`). */
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
  kind: ArtifactKind,
  content_type: z.string(),
  size_bytes: z.number().int().nonnegative(),
  /** Reels: the profile. Thumbnails/metadata of a reel: its profile too. */
  run_name: RunProfile.nullable().default(null),
  /** Shorts (and their thumbnails/captions): 1-based position. */
  index: z.number().int().positive().nullable().default(null),
  title: z.string().nullable().default(null),
  duration_seconds: z.number().nullable().default(null),
  tags: z.array(z.string()).nullable().default(null),
});
export type ArtifactRef = z.infer<typeof ArtifactRef>;

/** Why a moment was chosen: its scores and the signals behind them. */
export const MomentSignals = z.object({
  score: z.number(),
  audience_score: z.number(),
  streamer_score: z.number(),
  audio_hype: z.number(),
  chat_rate_ratio: z.number().nullable(),
  unique_chatters: z.number().nullable(),
  hype_density: z.number().nullable(),
  speech_activity: z.number(),
  loudness_db_above_baseline: z.number(),
  source: z.enum(["auto", "manual"]),
  reasons: z.array(z.string()),
});
export type MomentSignals = z.infer<typeof MomentSignals>;

export const ManifestHighlight = z.object({
  story: z.string(),
  start: z.number(),
  end: z.number(),
  duration: z.number(),
  run_name: RunProfile,
  title: z.string().optional(),
  label: z.string().nullable().optional(),
  signals: MomentSignals.optional(),
});

/**
 * The job's manifest.json. Asset entries carry `name` (the stored file); the Worker adds `url` when it
 * publishes the manifest (results, job.completed webhook); the ZIP holds the renderer's manifest.json as stored.
 */
export const ManifestAsset = z.object({
  name: z.string(),
  url: z.string().optional(),
  run_name: RunProfile.nullable().optional(),
  index: z.number().int().nullable().optional(),
  title: z.string().nullable().optional(),
  duration_seconds: z.number().nullable().optional(),
  size_bytes: z.number().int().optional(),
});
export type ManifestAsset = z.infer<typeof ManifestAsset>;

export const Manifest = z.object({
  summary: z.object({
    total_videos: z.number().int(),
    generated_video_duration_seconds: z.number(),
    total_shorts: z.number().int(),
    source_vod_duration_seconds: z.number(),
  }),
  highlights: z.array(ManifestHighlight),
  shorts_count: z.number().int(),
  artifacts: z.object({
    assets: z.object({
      compilation: z.array(ManifestAsset),
      shorts: z.array(ManifestAsset),
      thumbnails: z.array(ManifestAsset),
      captions: z.array(ManifestAsset),
      metadata: z.array(ManifestAsset),
      // The editor hand-off files; absent in manifests stored before they existed.
      timelines: z.array(ManifestAsset).default([]).meta({ description: "Each reel's cuts on the VOD's clock as OpenTimelineIO (.otio)." }),
      edls: z.array(ManifestAsset).default([]).meta({ description: "Each reel's cuts as a CMX 3600 EDL (.edl)." }),
      transcripts: z.array(ManifestAsset).default([]).meta({ description: "Each short's recognised words with times and confidences, the shown ones marked (.json)." }),
    }),
  }),
  /** Notes a client may want to see (e.g. "chat replay unavailable; scored on audio only"). */
  warnings: z.array(z.string()).default([]),
});
export type Manifest = z.infer<typeof Manifest>;

export const RENDER_STAGES = [
  "resolving",
  "downloading_audio",
  "fetching_chat",
  "analysing",
  "selecting",
  "downloading_video",
  "transcribing",
  "writing_metadata",
  "rendering_reels",
  "rendering_shorts",
  "uploading",
  "finalising",
] as const;
export const RenderStage = z.enum(RENDER_STAGES);
export type RenderStage = z.infer<typeof RenderStage>;
