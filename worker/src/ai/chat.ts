import { z } from "zod";
import { AI_CHAT_MAX_PROMPT_CHARS, AI_CHAT_MAX_TOKENS } from "../../../common/contract/workers-ai";
import { ApiError } from "../lib/api-error";
import { aiBadAnswer } from "./workers-ai";

/**
 * The part of OpenAI's chat completion request the Worker serves; other fields (and `model`: the Worker picks
 * the model) are ignored, as OpenAI-compatible servers do with what they do not support.
 */
export const ChatRequest = z.object({
  messages: z
    .array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() }))
    .min(1)
    .max(32),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().min(1).max(AI_CHAT_MAX_TOKENS).optional(),
  response_format: z.object({ type: z.enum(["text", "json_object", "json_schema"]), json_schema: z.unknown().optional() }).optional(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/** A prompt longer than the model's context allows is refused before it costs anything (common/contract/workers-ai.ts). */
export function checkPromptSize(req: ChatRequest): void {
  const chars = req.messages.reduce((n, m) => n + m.content.length, 0);
  if (chars > AI_CHAT_MAX_PROMPT_CHARS) {
    throw new ApiError(413, "payload_too_large", `The messages hold ${chars} characters; the text model takes at most ${AI_CHAT_MAX_PROMPT_CHARS}.`, {
      max_chars: AI_CHAT_MAX_PROMPT_CHARS,
    });
  }
}

/** The text model's input (workers-types' `…_Messages` shape, JSON mode per the Workers AI docs). */
export function textModelInput(req: ChatRequest): Record<string, unknown> {
  const json = req.response_format && req.response_format.type !== "text";
  return {
    messages: req.messages,
    // The model's default (256 tokens) would cut a whole job's titles and stories short.
    max_tokens: req.max_tokens ?? AI_CHAT_MAX_TOKENS,
    ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
    ...(json ? { response_format: { type: req.response_format!.type, ...(req.response_format!.json_schema === undefined ? {} : { json_schema: req.response_format!.json_schema }) } } : {}),
  };
}

/**
 * The documented output, `{response, usage?}` (or a bare string), as an OpenAI chat completion. In JSON mode the
 * model may hand `response` back already parsed: it is serialised again, since OpenAI's `content` is text.
 */
export function toChatCompletion(model: string, output: unknown) {
  let content: string;
  let usage: unknown;
  if (typeof output === "string") content = output;
  else if (output && typeof output === "object" && "response" in output) {
    const response = (output as { response: unknown }).response;
    if (typeof response === "string") content = response;
    else if (response && typeof response === "object") content = JSON.stringify(response);
    else throw aiBadAnswer(model, `response is ${response === null ? "null" : typeof response}`);
    usage = (output as { usage?: unknown }).usage;
  } else throw aiBadAnswer(model, "no response field");
  return {
    id: `chatcmpl-${crypto.randomUUID()}`,
    object: "chat.completion" as const,
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant" as const, content }, finish_reason: "stop" as const }],
    ...(usage && typeof usage === "object" ? { usage } : {}),
  };
}
