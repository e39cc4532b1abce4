import { ApiError } from "../lib/api-error";

/**
 * The X-API-Key a request carries, or undefined without one. A header sent twice (a client's default headers
 * plus its own) reaches the Worker joined with ", "; no key holds a comma, so that is said plainly instead of
 * "not valid or has been revoked", which sent such a client to check a key that was fine.
 */
export function apiKeyHeader(value: string | undefined): string | undefined {
  const key = value?.trim();
  if (!key) return undefined;
  if (key.includes(",")) {
    throw new ApiError(401, "invalid_api_key", "Send the API key once: the X-API-Key header arrived more than once (or holds a comma).");
  }
  return key;
}
