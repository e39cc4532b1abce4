/**
 * Workers AI through the Worker, on behalf of the renderer (worker/src/routes/internal-ai.ts). The Worker serves a
 * small OpenAI-compatible API per task attempt, so the renderer's one client for "any OpenAI-compatible endpoint"
 * talks to it unchanged; `RenderJob.ai` carries its base URL and the attempt's token:
 *
 *   POST {ai.url}/audio/transcriptions   multipart: file (16 kHz mono 16-bit wav), language?, model (ignored),
 *                                        response_format json|verbose_json -> verbose_json with words and segments
 *   POST {ai.url}/chat/completions       {messages, temperature?, max_tokens?, response_format?}, model ignored
 *                                        -> {choices: [{message: {role: "assistant", content}}], model, usage?}
 *
 * Errors use the API's error envelope. 429 and 503 (`ai_unavailable`) are worth another try; 413, 422
 * (`ai_refused`), 404 (`ai_not_available`) and 502 (`ai_bad_answer`) are not, and the renderer falls back to its
 * offline recogniser and built-in templates at once.
 */

/** The wav the renderer extracts: 16 kHz, mono, 16-bit. */
export const SPEECH_WAV_BYTES_PER_SECOND = 16_000 * 2;

/**
 * Longest audio in one transcription request. Cloudflare publishes no input limit for the Whisper model; what
 * binds is the Worker's 128 MB, shared by every request one isolate serves at once. The route streams the wav
 * into the base64 text the model takes and keeps no other copy, but the binding then serialises that text into
 * its request (JSON, then its bytes): about 4 bytes held per wav byte at the call, 15.5 MB for 120 s (3.84 MB of
 * wav) against 38 MB for 300 s (worker/bench/transcription-memory.ts), so about seven chunks can be in flight in
 * one isolate where three were. Whisper hears 30 s windows either way, Workers AI bills per audio minute, and a
 * failed request costs little to send again.
 */
export const AI_TRANSCRIPTION_MAX_SECONDS = 120;

/** The Worker refuses larger transcription bodies (413): 120 s of wav plus room for the header and multipart. */
export const AI_TRANSCRIPTION_MAX_BODY_BYTES = AI_TRANSCRIPTION_MAX_SECONDS * SPEECH_WAV_BYTES_PER_SECOND + 256 * 1024;

/**
 * Longest prompt (all message contents, characters) the Worker forwards to the text model. The default model has
 * a 24,000-token context window and the answer may take AI_CHAT_MAX_TOKENS of it: 60,000 characters fit in the
 * remaining 19,904 tokens at 3 or more characters a token (the prompt is JSON, mostly English: nearer 4). A prompt
 * the model still cannot take is refused by it, and the renderer writes that job's texts from templates.
 */
export const AI_CHAT_MAX_PROMPT_CHARS = 60_000;

/** Tokens the text model may answer with (its default, 256, would cut a job's titles and stories short). */
export const AI_CHAT_MAX_TOKENS = 4096;
