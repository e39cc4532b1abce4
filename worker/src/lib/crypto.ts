const encoder = new TextEncoder();

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return toHex(new Uint8Array(digest));
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Constant-time string comparison. Both sides are hashed first so the comparison never leaks the secret's
 * length and always compares equal-sized buffers (timingSafeEqual requires that).
 */
export async function timingSafeEqualStrings(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(da, db);
}

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** `length` characters of RFC 4648 base32 (lower case), 5 random bits each. */
export function randomBase32(length: number): string {
  // Rejection-free: 256 is a multiple of 32, so `byte & 31` is uniform.
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}
