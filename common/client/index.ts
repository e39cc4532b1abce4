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
