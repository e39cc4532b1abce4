import type { z } from "zod";
import type {
  CancelResponse,
  CostEstimate,
  FeedbackInput,
  JobAck,
  JobList,
  JobRecord,
  JobRequestInput,
  JobResults,
  JobStatus,
  PricingTable,
  VideoMetadata,
  WebhookDeliveryList,
  WebhookRedelivery,
} from "../contract";
import { ApiError } from "./api-error";
import { pollJob, type WaitForJobOptions } from "./wait-for-job";

/** What clients send: the input side of the contract's schemas (defaults optional, nulls allowed). */
export type JobRequest = z.input<typeof JobRequestInput>;
export type FeedbackRequest = z.input<typeof FeedbackInput>;

export interface ListJobsParams {
  page?: number;
  page_size?: number;
  status?: JobStatus;
  search?: string;
}

/** One-argument fetch: satisfied by globalThis.fetch and by a Worker's own `fetch` handler (tests, bindings). */
export type FetchLike = (request: Request) => Promise<Response>;

export interface ClientOptions {
  /** Where the API lives, e.g. https://api.example.com (no trailing path needed). */
  baseUrl: string;
  /** X-API-Key; every call but getPricing and token downloads needs it. */
  apiKey?: string;
  fetch?: FetchLike;
  /** Sent with every request (a User-Agent, tracing headers). */
  headers?: Record<string, string>;
}

export interface CallOptions {
  signal?: AbortSignal;
}

type Query = Record<string, string | number | undefined>;

/**
 * Typed client of the public API. Runs wherever fetch and Web Crypto exist (Workers, Node 18+, browsers).
 * Non-2xx answers throw ApiError; responses are typed from the contract, not re-validated, so fields added
 * within v1 reach the caller instead of breaking it.
 */
export class HighlightClient {
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly send: FetchLike;
  private readonly headers: Record<string, string>;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    // Bound once: Workers reject a fetch called with another `this` ("Illegal invocation").
    const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.send = (request) => fetchImpl(request);
    this.headers = { ...options.headers };
  }

  createJob(body: JobRequest, options?: CallOptions): Promise<JobAck> {
    return this.json("POST", "/jobs", { body, ...options });
  }

  estimateJob(body: JobRequest, options?: CallOptions): Promise<CostEstimate> {
    return this.json("POST", "/jobs/estimate", { body, ...options });
  }

  getJob(id: string, options?: CallOptions): Promise<JobRecord> {
    return this.json("GET", `/jobs/${seg(id)}`, options);
  }

  listJobs(params: ListJobsParams = {}, options?: CallOptions): Promise<JobList> {
    return this.json("GET", "/jobs", { query: { ...params }, ...options });
  }

  /** Polls GET /jobs/{id} until completed or failed; see WaitForJobOptions for backoff, progress and timeout. */
  waitForJob(id: string, options: WaitForJobOptions = {}): Promise<JobRecord> {
    return pollJob((signal) => this.getJob(id, { signal }), options);
  }

  getResults(id: string, options?: CallOptions): Promise<JobResults> {
    return this.json("GET", `/jobs/${seg(id)}/results`, options);
  }

  cancelJob(id: string, options?: CallOptions): Promise<CancelResponse> {
    return this.json("POST", `/jobs/${seg(id)}/cancel`, options);
  }

  async sendFeedback(id: string, body: FeedbackRequest, options?: CallOptions): Promise<void> {
    const res = await this.request("POST", `/jobs/${seg(id)}/feedback`, { body, ...options });
    await res.body?.cancel();
  }

  getVideoMetadata(vodUrl: string, options?: CallOptions): Promise<VideoMetadata> {
    return this.json("GET", "/videos/metadata", { query: { vod_url: vodUrl }, ...options });
  }

  getPricing(options?: CallOptions): Promise<PricingTable> {
    return this.json("GET", "/pricing", options);
  }

  listWebhookDeliveries(id: string, options?: CallOptions): Promise<WebhookDeliveryList> {
    return this.json("GET", `/jobs/${seg(id)}/webhooks`, options);
  }

  redeliverWebhook(id: string, deliveryId: string, options?: CallOptions): Promise<WebhookRedelivery> {
    return this.json("POST", `/jobs/${seg(id)}/webhooks/${seg(deliveryId)}/redeliver`, options);
  }

  /**
   * The job's files as one ZIP, streamed: the Response is returned unread (pipe `res.body` to a file). With
   * `token` (the query parameter of a results zip_url) no API key is sent.
   */
  downloadAll(id: string, options: CallOptions & { token?: string } = {}): Promise<Response> {
    const { token, ...rest } = options;
    return this.request("GET", `/jobs/${seg(id)}/download-all`, {
      ...rest,
      query: token === undefined ? undefined : { token },
      withKey: token === undefined,
    });
  }

  private async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const res = await this.request(method, path, options);
    return (await res.json()) as T;
  }

  private async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers = new Headers(this.headers);
    if (options.withKey !== false && this.apiKey) headers.set("X-API-Key", this.apiKey);
    let body: string | undefined;
    if (options.body !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(options.body);
    }
    const res = await this.send(new Request(url, { method, headers, body, signal: options.signal }));
    if (!res.ok) throw await ApiError.fromResponse(res);
    return res;
  }
}

interface RequestOptions extends CallOptions {
  body?: unknown;
  query?: Query;
  /** false: leave X-API-Key out (token-authorised downloads). */
  withKey?: boolean;
}

const seg = (value: string) => encodeURIComponent(value);

export function createClient(options: ClientOptions): HighlightClient {
  return new HighlightClient(options);
}
