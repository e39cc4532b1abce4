/**
 * The memory the Worker's transcription route holds for one chunk, at its peak: the moment the Workers AI binding
 * sends the model's request. Run: `node --expose-gc --import tsx worker/bench/transcription-memory.ts
 * [--seconds=60,120,300] [--json]`.
 *
 * It runs the route's own code on a multipart body like the renderer's (readTranscriptionBody,
 * checkTranscriptionForm, whisperInput), then does what workerd's binding does with the input (JSON.stringify of
 * {inputs, options}, then the UTF-8 bytes of that text for its fetch; workerd's ai-api.ts), and there, with
 * everything the route and the binding still reference alive, collects garbage and reads the heap and external
 * memory of this process. "Held" is that minus the same reading taken before the request was read (the incoming
 * body is not counted: in the Worker it streams in from the network). The route as it was before (formData(),
 * an ArrayBuffer copy of the file, one base64 string) is measured the same way, for comparison. Node's V8 and
 * undici stand in for workerd's: the figures are the bytes each copy takes, not workerd's own accounting.
 */
import { randomFillSync } from "node:crypto";
import { SPEECH_WAV_BYTES_PER_SECOND, AI_TRANSCRIPTION_MAX_SECONDS } from "../../common/contract/workers-ai";
import { base64Of } from "../src/ai/base64-pieces";
import { checkTranscriptionForm, whisperInput } from "../src/ai/transcription";
import { readTranscriptionBody } from "../src/ai/transcription-body";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]));
const seconds = (args.get("seconds") ?? `60,${AI_TRANSCRIPTION_MAX_SECONDS},300`).split(",").map(Number).filter((s, i, all) => all.indexOf(s) === i);

const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

/** A 16 kHz mono 16-bit wav of noise (noise: every byte value occurs, as in speech, so the scan sees CRs). */
function noiseWav(s: number): Uint8Array {
  const data = s * SPEECH_WAV_BYTES_PER_SECOND;
  const out = new Uint8Array(44 + data);
  const v = new DataView(out.buffer);
  out.set(new TextEncoder().encode("RIFF"), 0);
  v.setUint32(4, 36 + data, true);
  out.set(new TextEncoder().encode("WAVEfmt "), 8);
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, 16_000, true);
  v.setUint32(28, 32_000, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  out.set(new TextEncoder().encode("data"), 36);
  v.setUint32(40, data, true);
  for (let at = 44; at < out.length; at += 65_536) randomFillSync(out.subarray(at, Math.min(out.length, at + 65_536)));
  return out;
}

/** The renderer's multipart body for this wav (as its client builds it), serialised once. */
async function renderersBody(wav: Uint8Array): Promise<{ bytes: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.append("file", new Blob([wav as Uint8Array<ArrayBuffer>], { type: "audio/wav" }), "chunk.wav");
  form.append("model", "whisper-1");
  form.append("language", "en");
  form.append("response_format", "verbose_json");
  const serialised = new Response(form);
  return { contentType: serialised.headers.get("content-type")!, bytes: new Uint8Array(await serialised.arrayBuffer()) };
}

/** The request as the Worker sees it: the body streams in, in fresh 64 KiB chunks that are dropped once read. */
function incoming(body: { bytes: Uint8Array; contentType: string }): Request {
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= body.bytes.length) return controller.close();
      controller.enqueue(body.bytes.slice(at, at + 65_536));
      at += 65_536;
    },
  });
  return new Request("https://worker.test/internal/jobs/j/ai/v1/audio/transcriptions", {
    method: "POST",
    body: stream,
    headers: { "content-type": body.contentType },
    duplex: "half",
  } as RequestInit);
}

/** What workerd's AI binding holds while it sends: the JSON text and its bytes; the heap is read right there. */
function bindingPeak(input: object, base: number): number {
  const body = JSON.stringify({ inputs: input, options: {} });
  const bytes = new TextEncoder().encode(body);
  gc!();
  const held = used() - base;
  if (bytes.length < body.length) throw new Error("unreachable");
  return held;
}

async function routeNow(request: Request, base: number): Promise<number> {
  const req = checkTranscriptionForm(await readTranscriptionBody(request));
  return bindingPeak({ ...whisperInput(req) }, base);
}

async function routeBefore(request: Request, base: number): Promise<number> {
  const form = await request.formData();
  const file = form.get("file") as unknown as File;
  const audio = new Uint8Array(await file.arrayBuffer());
  const held = bindingPeak({ audio: base64Of(audio), task: "transcribe", language: "en" }, base);
  if (audio.length === 0 || !form) throw new Error("unreachable");
  return held;
}

async function measure(run: (r: Request, base: number) => Promise<number>, body: { bytes: Uint8Array; contentType: string }): Promise<number> {
  const request = incoming(body);
  gc!();
  const base = used();
  const held = await run(request, base);
  gc!();
  return held;
}

const MB = 1e6;
const rows: { seconds: number; wav_mb: number; held_mb: number; held_before_mb: number; per_wav_byte: number }[] = [];
for (const s of seconds) {
  const wav = noiseWav(s);
  const body = await renderersBody(wav);
  // Warm up once (code compiled, pools allocated), then keep the larger of two readings.
  await measure(routeNow, body);
  const held = Math.max(await measure(routeNow, body), await measure(routeNow, body));
  const before = Math.max(await measure(routeBefore, body), await measure(routeBefore, body));
  rows.push({ seconds: s, wav_mb: +(wav.length / MB).toFixed(2), held_mb: +(held / MB).toFixed(1), held_before_mb: +(before / MB).toFixed(1), per_wav_byte: +(held / wav.length).toFixed(2) });
}
if (args.has("json")) console.log(JSON.stringify(rows));
else {
  console.log(`Transcription route, memory held per chunk at the model call (limit per request: ${AI_TRANSCRIPTION_MAX_SECONDS} s)`);
  console.log("seconds  wav MB  held MB (now)  held MB (formData + copy, before)  held / wav bytes");
  for (const r of rows) console.log(`${String(r.seconds).padStart(7)}  ${r.wav_mb.toFixed(2).padStart(6)}  ${r.held_mb.toFixed(1).padStart(13)}  ${r.held_before_mb.toFixed(1).padStart(33)}  ${r.per_wav_byte.toFixed(2).padStart(16)}`);
}
