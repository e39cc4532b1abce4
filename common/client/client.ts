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

export interface CreateJobOptions extends CallOptions {
  /**
   * Sent as Idempotency-Key. Default: a fresh random UUID per createJob call. Pass your own (and the same one again)
   * to retry a job creation from your side after a time-out without risking a second job or a second charge.
   */
  idempotencyKey?: string;
  /** Extra attempts with the same key when the request fails without an answer (network error). Default 2. */
  retries?: number;
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

  /**
   * POST /jobs with an Idempotency-Key (see CreateJobOptions): a request whose answer was lost is sent again with
   * the same key, and the API answers with the job it already created instead of creating (and billing) another.
   */
  async createJob(body: JobRequest, options: CreateJobOptions = {}): Promise<JobAck> {
    const { idempotencyKey = crypto.randomUUID(), retries = 2, ...call } = options;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.json<JobAck>("POST", "/jobs", { body, ...call, headers: { "Idempotency-Key": idempotencyKey } });
      } catch (error) {
        // Only failures without an answer are retried (an ApiError is an answer); an abort is the caller's choice.
        if (error instanceof ApiError || call.signal?.aborted || attempt >= retries) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
      }
    }
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
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
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
  /** Per-request headers (after the client's own). */
  headers?: Record<string, string>;
  query?: Query;
  /** false: leave X-API-Key out (token-authorised downloads). */
  withKey?: boolean;
}

const seg = (value: string) => encodeURIComponent(value);

export function createClient(options: ClientOptions): HighlightClient {
  return new HighlightClient(options);
}
