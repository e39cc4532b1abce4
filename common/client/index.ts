export { ApiError, type ApiErrorBody } from "./api-error";
export {
  HighlightClient,
  createClient,
  type CallOptions,
  type ClientOptions,
  type CreateJobOptions,
  type FeedbackRequest,
  type FetchLike,
  type JobRequest,
  type ListJobsParams,
} from "./client";
export { WaitTimeoutError, type WaitForJobOptions } from "./wait-for-job";
export {
  parseWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookVerification,
} from "./verify-webhook";
export type {
  AnalysisReused,
  CancelResponse,
  CostBreakdown,
  CostEstimate,
  Deliverable,
  JobAck,
  JobList,
  JobRecord,
  JobResults,
  PricingTable,
  VideoMetadata,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEvent,
  WebhookRedelivery,
} from "../contract";
/** Every deliverable `type` (an open set within v1: ignore one you do not know). */
export type { ArtifactKind as DeliverableType } from "../contract/render";
/** The shape of a short's `transcript` deliverable (short-NN.transcript.json), for clients that read it. */
export type { ShortTranscript, TranscriptWord } from "../handoff/transcript";
