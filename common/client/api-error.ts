import type { ErrorDetailItem, ErrorEnvelope } from "../contract";

/** Body of the `error` member of every non-2xx answer. */
export type ApiErrorBody = ErrorEnvelope["error"];

/**
 * A non-2xx answer of the API. `code` is the stable thing to branch on (`validation_failed`,
 * `insufficient_credits`, `job_not_found`, ...); `detail` lists every problem of a 422. Answers that are not the
 * API's envelope (a proxy's HTML error page, say) get the code `http_<status>`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: ErrorDetailItem[] | undefined;
  /** The whole `error` object, including extra members such as `needed`, `available` or `status`. */
  readonly body: ApiErrorBody | null;
  readonly requestId: string | null;
  /** From Retry-After (429, some 503s); null when the answer gives none. */
  readonly retryAfterSeconds: number | null;

  constructor(status: number, body: ApiErrorBody | null, headers: Headers) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.code = body?.code ?? `http_${status}`;
    this.detail = body?.detail;
    this.body = body;
    this.requestId = headers.get("X-Request-Id") ?? body?.request_id ?? null;
    const retryAfter = Number(headers.get("Retry-After") ?? body?.retry_after_seconds ?? Number.NaN);
    this.retryAfterSeconds = Number.isFinite(retryAfter) ? retryAfter : null;
  }

  /** Reads a failed response into an ApiError (consumes its body). */
  static async fromResponse(res: Response): Promise<ApiError> {
    let body: ApiErrorBody | null = null;
    try {
      const parsed = (await res.json()) as Partial<ErrorEnvelope> | null;
      const candidate = parsed?.error;
      if (candidate && typeof candidate.code === "string" && typeof candidate.message === "string") body = candidate;
    } catch {
      // Not JSON: keep the generic http_<status> error.
    }
    return new ApiError(res.status, body, res.headers);
  }
}
