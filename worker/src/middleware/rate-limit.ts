import { createMiddleware } from "hono/factory";
import { ApiError } from "../lib/api-error";
import { clientBucket } from "../lib/client-bucket";
import type { AppEnv } from "../hono-env";

export const JOB_CREATION_LIMIT = 10;
export const JOB_CREATION_WINDOW_MS = 60_000;

/**
 * Counts every job-creation attempt per client (CF-Connecting-IP, set by Cloudflare's edge: an IPv4 address, or
 * the /64 of an IPv6 address, see clientBucket) in a sliding 60 s window held by that client's RateLimiter object. It runs before authentication and validation, so failed
 * attempts count too: the limit also slows down key guessing and floods of bad requests.
 */
export const jobCreationRateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const bucket = clientBucket(c.req.header("CF-Connecting-IP"));
  const limiter = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(`post-jobs:${bucket}`));
  const decision = await limiter.hit(JOB_CREATION_LIMIT, JOB_CREATION_WINDOW_MS);
  if (!decision.allowed) {
    throw new ApiError(
      429,
      "rate_limited",
      `At most ${JOB_CREATION_LIMIT} job creations per minute per client (IPv4 address or IPv6 /64); retry in ${decision.retryAfterSeconds} s.`,
      { retry_after_seconds: decision.retryAfterSeconds },
      { "Retry-After": String(decision.retryAfterSeconds) },
    );
  }
  await next();
  c.res.headers.set("X-RateLimit-Limit", String(JOB_CREATION_LIMIT));
  c.res.headers.set("X-RateLimit-Remaining", String(decision.remaining));
});
