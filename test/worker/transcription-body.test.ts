import { describe, expect, it } from "vitest";
import { base64Of } from "../../worker/src/ai/base64-pieces";
import { readTranscriptionBody } from "../../worker/src/ai/transcription-body";

/**
 * The transcription route reads the renderer's multipart body as it streams in and turns the wav into base64
 * piece by piece (no parsed form, no copy of the wav). Whatever the network's chunking, even one byte at a time
 * or a delimiter split across chunks, the result is the base64 of the whole file and the form's text fields.
 */
async function serialised(form: FormData): Promise<{ bytes: Uint8Array; contentType: string }> {
  const r = new Response(form);
  return { contentType: r.headers.get("content-type")!, bytes: new Uint8Array(await r.arrayBuffer()) };
}

function streamed(body: { bytes: Uint8Array; contentType: string }, sizes: (i: number) => number): Request {
  let at = 0;
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= body.bytes.length) return c.close();
      const n = Math.max(1, sizes(i++));
      c.enqueue(body.bytes.slice(at, at + n));
      at += n;
    },
  });
  return new Request("https://worker.test/t", { method: "POST", body: stream, headers: { "content-type": body.contentType } });
}

/** Bytes that look like a delimiter's start ("\r\n--") often, as well as every other byte value. */
function awkwardBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = i % 7 === 0 ? 0x0d : i % 7 === 1 ? 0x0a : i % 7 === 2 || i % 7 === 3 ? 0x2d : (i * 131) & 0xff;
  return out;
}

describe("reading the transcription body as it streams", () => {
  const audio = awkwardBytes(10_007);
  const form = new FormData();
  form.append("model", "whisper-1");
  form.append("file", new Blob([audio], { type: "audio/wav" }), "chunk.wav");
  form.append("language", "de-DE");
  form.append("response_format", "verbose_json");

  for (const [name, sizes] of [
    ["in one piece", () => 1 << 20],
    ["a byte at a time", () => 1],
    ["in pieces of 1 to 97 bytes", (i: number) => 1 + ((i * 37) % 97)],
  ] as const) {
    it(`gives the file's base64 and the fields, ${name}`, async () => {
      const read = await readTranscriptionBody(streamed(await serialised(form), sizes));
      expect(read.audioBase64).toBe(base64Of(audio));
      expect(read.audioBytes).toBe(audio.length);
      expect(Object.fromEntries(read.fields)).toEqual({ model: "whisper-1", language: "de-DE", response_format: "verbose_json" });
    });
  }

  it("refuses a body that is not multipart, or ends before its closing delimiter", async () => {
    const notForm = new Request("https://worker.test/t", { method: "POST", body: "x", headers: { "content-type": "text/plain" } });
    await expect(readTranscriptionBody(notForm)).rejects.toMatchObject({ status: 422 });
    const whole = await serialised(form);
    const cut = { ...whole, bytes: whole.bytes.subarray(0, whole.bytes.length - 10) };
    await expect(readTranscriptionBody(streamed(cut, () => 4096))).rejects.toMatchObject({ status: 422 });
  });

  it("has no file when the form sends the file field as text", async () => {
    const textOnly = new FormData();
    textOnly.append("file", "not a file");
    const read = await readTranscriptionBody(streamed(await serialised(textOnly), () => 64));
    expect(read.audioBase64).toBeNull();
  });
});
