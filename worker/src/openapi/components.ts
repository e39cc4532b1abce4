import type { z } from "zod";
import * as contract from "../../../common/contract";
import { namedSchemas, type JsonSchema } from "./json-schema";

/**
 * The named schemas of the document, straight from the zod contract. What clients send is converted as input
 * (defaults optional, transforms before they run); what they receive as output. A schema nested in a named one
 * becomes a `$ref` when it is named here too, else it is inlined.
 */
export const REQUEST_SCHEMAS = {
  JobRequest: contract.JobRequestInput,
  ManualHighlight: contract.ManualHighlightInput,
  RunOverride: contract.RunOverrideInput,
  Parameters: contract.ParametersInput,
  FeedbackRequest: contract.FeedbackInput,
  CreateAccountRequest: contract.CreateAccountInput,
  UpdateAccountRequest: contract.UpdateAccountInput,
  CreditsRequest: contract.CreditsInput,
} satisfies Record<string, z.ZodType>;

export const RESPONSE_SCHEMAS = {
  ErrorEnvelope: contract.ErrorEnvelope,
  Error: contract.ErrorBody,
  ErrorDetail: contract.ErrorDetailItem,
  JobAck: contract.JobAck,
  JobRecord: contract.JobRecord,
  JobError: contract.JobError,
  JobList: contract.JobList,
  NormalizedJobRequest: contract.NormalizedJobRequest,
  CostEstimate: contract.CostEstimate,
  CostBreakdown: contract.CostBreakdown,
  CancelResponse: contract.CancelResponse,
  VideoMetadata: contract.VideoMetadata,
  PricingTable: contract.PricingTable,
  JobResults: contract.JobResults,
  Deliverable: contract.Deliverable,
  Manifest: contract.Manifest,
  ManifestHighlight: contract.ManifestHighlight,
  ManifestAsset: contract.ManifestAsset,
  MomentSignals: contract.MomentSignals,
  CreatedAccount: contract.CreatedAccount,
  AccountSummary: contract.AccountSummary,
  AccountDetail: contract.AccountDetail,
  AccountList: contract.AccountList,
  ApiKeySummary: contract.ApiKeySummary,
  LedgerEntry: contract.LedgerEntry,
  CreatedApiKey: contract.CreatedApiKey,
  RevokedApiKey: contract.RevokedApiKey,
  CreditBalance: contract.CreditBalance,
  WebhookDeliveryList: contract.WebhookDeliveryList,
  WebhookDelivery: contract.WebhookDelivery,
  WebhookDeliveryAttempt: contract.WebhookDeliveryAttempt,
  WebhookRedelivery: contract.WebhookRedelivery,
  // Bodies of the `webhooks` the service sends.
  JobRunningEvent: contract.JobRunningEvent,
  JobCompletedEvent: contract.JobCompletedEvent,
  JobFailedEvent: contract.JobFailedEvent,
  JobRunningPayload: contract.JobRunningPayload,
  JobFailedPayload: contract.JobFailedPayload,
} satisfies Record<string, z.ZodType>;

export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;

export function componentSchemas(): Record<string, JsonSchema> {
  return { ...namedSchemas(REQUEST_SCHEMAS, "input"), ...namedSchemas(RESPONSE_SCHEMAS, "output") };
}

const requestNames = new Map<z.ZodType, string>(Object.entries(REQUEST_SCHEMAS).map(([name, schema]) => [schema, name]));
const responseNames = new Map<z.ZodType, string>(Object.entries(RESPONSE_SCHEMAS).map(([name, schema]) => [schema, name]));

/** The component a request schema is published as, or undefined when it is not a named one (then inlined). */
export function requestSchemaName(schema: z.ZodType): string | undefined {
  return requestNames.get(schema);
}

export function responseSchemaName(schema: z.ZodType): string | undefined {
  return responseNames.get(schema);
}
