import { ApiError } from "./api-error";

/**
 * A JSON request body as text: its Content-Encoding undone (gzip or deflate, bounded by `maxBytes` once
 * inflated, so a small compressed body cannot expand into megabytes) and its bytes read as strict UTF-8, the only
 * encoding JSON has (RFC 8259 §8.1). Before this the bytes of a gzip body were handed to JSON.parse, whose error
 * echoed them back in the answer.
 */

export const SUPPORTED_CONTENT_ENCODINGS = ["gzip", "deflate"] as const;
type Coding = (typeof SUPPORTED_CONTENT_ENCODINGS)[number];

/** The coding to undo, null for none; any other coding, or more than one, is 415 (RFC 9110 §15.5.16). */
function codingOf(header: string | undefined): Coding | null {
  const codings = (header ?? "")
    .split(",")
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== "" && part !== "identity");
  if (codings.length === 0) return null;
  const only = codings.length === 1 ? codings[0]! : null;
  const supported = only === "x-gzip" ? "gzip" : SUPPORTED_CONTENT_ENCODINGS.find((c) => c === only);
  if (!supported) {
    throw new ApiError(
      415,
      "unsupported_media_type",
      `The request body's Content-Encoding ${codings.join(", ")} is not supported; send it uncompressed or with gzip or deflate.`,
      {},
      { "Accept-Encoding": SUPPORTED_CONTENT_ENCODINGS.join(", ") },
    );
  }
  return supported;
}

async function inflate(bytes: ArrayBuffer, coding: Coding, maxBytes: number): Promise<Uint8Array> {
  const reader = new Response(bytes).body!.pipeThrough(new DecompressionStream(coding)).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new ApiError(413, "payload_too_large", `The request body is larger than ${maxBytes} bytes once decompressed.`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(400, "invalid_json", `The request body is not valid JSON: it is declared as ${coding} (Content-Encoding) but is not valid ${coding} data.`);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const coding = codingOf(request.headers.get("Content-Encoding") ?? undefined);
  const raw = await request.arrayBuffer();
  const bytes = coding ? await inflate(raw, coding, maxBytes) : new Uint8Array(raw);
  try {
    // fatal: a byte sequence that is not UTF-8 is refused rather than turned into U+FFFD and stored.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError(400, "invalid_json", "The request body is not valid JSON: it is not UTF-8 text.");
  }
}
