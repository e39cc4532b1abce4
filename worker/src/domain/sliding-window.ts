export interface WindowDecision {
  allowed: boolean;
  /** Attempts still allowed in the current window after this one. */
  remaining: number;
  /** Seconds until the oldest counted attempt leaves the window (0 when allowed). */
  retryAfterSeconds: number;
  /** Timestamps to keep (ms), oldest first. */
  hits: number[];
}

/**
 * Sliding-window log: an attempt is allowed when fewer than `limit` attempts were allowed in the last
 * `windowMs`. Refused attempts are not recorded, so a client that backs off for Retry-After seconds gets in.
 */
export function slidingWindow(hits: ReadonlyArray<number>, now: number, limit: number, windowMs: number): WindowDecision {
  const recent = hits.filter((t) => t > now - windowMs);
  if (recent.length >= limit) {
    const oldest = recent[recent.length - limit]!;
    return {
      allowed: false,
      remaining: 0,
      retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
      hits: recent,
    };
  }
  recent.push(now);
  return { allowed: true, remaining: limit - recent.length, retryAfterSeconds: 0, hits: recent };
}
