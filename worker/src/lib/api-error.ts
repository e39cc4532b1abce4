import type { ErrorDetailItem } from "../../../common/contract";

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 409 | 410 | 411 | 413 | 415 | 416 | 422 | 429 | 500 | 501 | 502 | 503;

/**
 * An answer that is not a success. Thrown anywhere in a request; `app.onError` turns it into the one error
 * envelope `{"error": {code, message, ...extra}}`. `extra` carries the documented additions (detail, needed,
 * available, retry_after_seconds, status).
 */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * Most problems one 422 lists. A 20 KB body of 10,000 wrong array entries used to answer with all 10,000 (nearly
 * 1 MB); the first ones say what is wrong as well, and the message gives the count.
 */
export const MAX_DETAIL_ITEMS = 50;

export function validationError(detail: ErrorDetailItem[]): ApiError {
  const message =
    detail.length === 1
      ? `Invalid request: ${detail[0]!.field} ${detail[0]!.message}.`
      : detail.length > MAX_DETAIL_ITEMS
        ? `Invalid request: ${detail.length} problems; detail lists the first ${MAX_DETAIL_ITEMS}.`
        : `Invalid request: ${detail.length} problems; see detail.`;
  return new ApiError(422, "validation_failed", message, { detail: detail.slice(0, MAX_DETAIL_ITEMS) });
}

export const jobNotFound = (): ApiError => new ApiError(404, "job_not_found", "No job with this id exists for this account.");

/** 416 for a Range that lies outside a file or archive of `size` bytes (RFC 9110 §15.5.17). */
export const rangeNotSatisfiable = (size: number, what: string): ApiError =>
  new ApiError(416, "range_not_satisfiable", `The requested range lies outside the ${what}, which has ${size} bytes.`, {}, { "Content-Range": `bytes */${size}` });
