import { toHex } from "../lib/crypto";

/** HMAC-SHA256 on Web Crypto (runs in Workers, Node and browsers). */
const encoder = new TextEncoder();

export async function hmacSha256(secret: string, data: string | Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, bytes));
}

export function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function hmacHex(secret: string, data: string | Uint8Array): Promise<string> {
  return toHex(await hmacSha256(secret, data));
}

export async function hmacBase64Url(secret: string, data: string): Promise<string> {
  return toBase64Url(await hmacSha256(secret, data));
}
