import { randomBase32 } from "../lib/crypto";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

let lastTime = -1;
let lastRandom: number[] = [];

/**
 * A 26-character ULID (48-bit millisecond time + 80 random bits, Crockford base32). Monotonic within an
 * isolate: Workers freeze the clock between I/O, so several ids can share a millisecond, and incrementing the
 * random part keeps them in creation order ("newest first" sorts by id).
 */
export function ulid(now: number = Date.now()): string {
  let random: number[];
  if (now <= lastTime && lastRandom.length === 16) {
    random = incrementBase32(lastRandom);
    now = lastTime;
  } else {
    random = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b & 31);
  }
  lastTime = now;
  lastRandom = random;
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time + random.map((d) => CROCKFORD[d]).join("");
}

function incrementBase32(digits: number[]): number[] {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 31) {
      next[i] += 1;
      return next;
    }
    next[i] = 0;
  }
  // 80 bits overflowed inside one millisecond: practically impossible; fresh randomness keeps ids unique.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b & 31);
}

export const newJobId = (): string => `job_${ulid()}`;
export const newAccountId = (): string => `acct_${ulid()}`;
export const newKeyId = (): string => `key_${ulid()}`;

/** `hk_live_` + 32 base32 characters (160 random bits). Shown once; only its SHA-256 is stored. */
export const newApiKey = (): string => `hk_live_${randomBase32(32)}`;
/** Kept in clear text because webhook deliveries are signed with it. */
export const newWebhookSigningSecret = (): string => `whsec_${randomBase32(32)}`;
export const newRequestId = (): string => `req_${randomBase32(20)}`;
