import { DurableObject } from "cloudflare:workers";
import { slidingWindow, type WindowDecision } from "../domain/sliding-window";
import type { Env } from "../env";

const HITS_KEY = "hits";

/**
 * One object per client IP (idFromName(ip)). A single object sees every attempt from its IP in order, so
 * the count is exact across Worker isolates; the log is persisted so an evicted object keeps counting.
 */
export class RateLimiter extends DurableObject<Env> {
  private hits: number[] | null = null;

  async hit(limit: number, windowMs: number): Promise<Omit<WindowDecision, "hits">> {
    this.hits ??= (await this.ctx.storage.get<number[]>(HITS_KEY)) ?? [];
    const decision = slidingWindow(this.hits, Date.now(), limit, windowMs);
    this.hits = decision.hits;
    await this.ctx.storage.put(HITS_KEY, decision.hits);
    return { allowed: decision.allowed, remaining: decision.remaining, retryAfterSeconds: decision.retryAfterSeconds };
  }
}
