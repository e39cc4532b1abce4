import { validationError, type ApiError } from "../lib/api-error";
import { Base64Pieces } from "./base64-pieces";

/** What the transcription route keeps of the renderer's multipart body: the audio as base64, and the text fields. */
export interface StreamedTranscriptionForm {
  /** The "file" part, base64 (what the model takes), or null when the body had no file part. */
  audioBase64: string | null;
  audioBytes: number;
  /** The other parts, as text (bounded: they are short options such as "language"). */
  fields: Map<string, string>;
}

/** Longest header block of one part, and longest text field: the renderer's are a few dozen bytes. */
const MAX_PART_HEADER_BYTES = 8 * 1024;
const MAX_FIELD_BYTES = 1024;

/**
 * Reads a multipart/form-data body as it streams in, turning the file part into base64 piece by piece. The route
 * never holds the wav whole (nor the parsed form, nor a copy of the file): only the base64 text the model needs,
 * and a few KiB of the stream at a time. This is what bounds the route's memory per chunk (docs/DEPLOY.md).
 */
export async function readTranscriptionBody(request: Request): Promise<StreamedTranscriptionForm> {
  const boundary = boundaryOf(request.headers.get("content-type"));
  if (!boundary || !request.body) throw notMultipart();
  const parser = new MultipartScanner(boundary);
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(value);
  }
  return parser.finish();
}

function boundaryOf(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

export const notMultipart = (): ApiError =>
  validationError([{ field: "body", message: "must be multipart/form-data with the audio in a \"file\" field" }]);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A multipart body as a small state machine: preamble, then per part its headers and its content. */
class MultipartScanner {
  /** "\r\n--boundary": what ends every part's content (the first delimiter may come without the CRLF). */
  private readonly delimiter: Uint8Array;
  private state: "preamble" | "after-delimiter" | "headers" | "content" | "epilogue" = "preamble";
  /** Unconsumed bytes: at most a part's headers, or the tail of content that might begin a delimiter. */
  private pending: Uint8Array = new Uint8Array(0);
  private part: { name: string; isFile: boolean; text: Uint8Array[]; textBytes: number } | null = null;
  private readonly audio = new Base64Pieces();
  private audioSeen = false;
  private readonly fields = new Map<string, string>();

  constructor(boundary: string) {
    this.delimiter = encoder.encode(`\r\n--${boundary}`);
    // The body starts with "--boundary": seen as if a CRLF came before it.
    this.pending = encoder.encode("\r\n");
  }

  push(chunk: Uint8Array): void {
    this.pending = concat(this.pending, chunk);
    this.scan();
  }

  finish(): StreamedTranscriptionForm {
    if (this.state !== "epilogue") throw notMultipart();
    return { audioBase64: this.audioSeen ? this.audio.finish() : null, audioBytes: this.audio.bytes, fields: this.fields };
  }

  private scan(): void {
    for (;;) {
      if (this.state === "epilogue") {
        this.pending = new Uint8Array(0);
        return;
      }
      if (this.state === "preamble" || this.state === "content") {
        const at = indexOf(this.pending, this.delimiter);
        if (at < 0) {
          // Keep what could be the start of a delimiter split across chunks; the rest is content.
          const keep = Math.min(this.pending.length, this.delimiter.length - 1);
          if (this.state === "content") this.content(this.pending.subarray(0, this.pending.length - keep));
          this.pending = this.pending.slice(this.pending.length - keep);
          return;
        }
        if (this.state === "content") {
          this.content(this.pending.subarray(0, at));
          this.endPart();
        }
        this.pending = this.pending.subarray(at + this.delimiter.length);
        this.state = "after-delimiter";
      }
      if (this.state === "after-delimiter") {
        if (this.pending.length < 2) return;
        if (this.pending[0] === 0x2d && this.pending[1] === 0x2d) {
          this.state = "epilogue";
          continue;
        }
        // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
        const eol = indexOf(this.pending, CRLF);
        if (eol < 0) {
          if (this.pending.length > MAX_PART_HEADER_BYTES) throw notMultipart();
          return;
        }
        this.pending = this.pending.subarray(eol + 2);
        this.state = "headers";
      }
      if (this.state === "headers") {
        const end = indexOf(this.pending, CRLF_CRLF);
        if (end < 0) {
          if (this.pending.length > MAX_PART_HEADER_BYTES) throw notMultipart();
          return;
        }
        this.startPart(decoder.decode(this.pending.subarray(0, end)));
        this.pending = this.pending.subarray(end + 4);
        this.state = "content";
      }
    }
  }

  private startPart(headers: string): void {
    const disposition = /^content-disposition:\s*form-data\s*;(.*)$/im.exec(headers)?.[1] ?? "";
    const name = /(?:^|;)\s*name="([^"]*)"/i.exec(disposition)?.[1] ?? "";
    const isFile = /(?:^|;)\s*filename\*?=/i.test(disposition);
    this.part = { name, isFile, text: [], textBytes: 0 };
    if (name === "file" && isFile) this.audioSeen = true;
  }

  private content(bytes: Uint8Array): void {
    const part = this.part;
    if (!part || bytes.length === 0) return;
    if (part.name === "file" && part.isFile) {
      this.audio.push(bytes);
      return;
    }
    if (part.isFile) return; // Another file: the route has no use for it.
    part.textBytes += bytes.length;
    if (part.textBytes > MAX_FIELD_BYTES) throw notMultipart();
    part.text.push(bytes.slice());
  }

  private endPart(): void {
    const part = this.part;
    this.part = null;
    if (!part || part.isFile || this.fields.has(part.name)) return;
    this.fields.set(part.name, decoder.decode(concat(...part.text)));
  }
}

const CRLF = encoder.encode("\r\n");
const CRLF_CRLF = encoder.encode("\r\n\r\n");

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Index of `needle` in `hay`, or -1. */
function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  const first = needle[0]!;
  const last = hay.length - needle.length;
  for (let i = hay.indexOf(first); i !== -1 && i <= last; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}
