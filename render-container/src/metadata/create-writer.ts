import type { RenderJob } from "../../../common/contract/render";
import { LlmMetadataWriter } from "./llm-writer";
import { LocalMetadataWriter } from "./local-writer";
import type { MetadataWriter } from "./types";

/**
 * Who writes a job's titles, descriptions, tags and stories, first match:
 * 1. METADATA_API_URL: an LLM behind that OpenAI-compatible API (METADATA_API_KEY, METADATA_MODEL optional; model
 *    defaults to gpt-4o-mini).
 * 2. The job's `ai` endpoint: the instruct model on Workers AI through the Worker (common/contract/workers-ai.ts),
 *    which picks the model itself.
 * 3. The deterministic local writer.
 * An LLM's answer is checked field by field and anything unusable (or a failed call) is written locally instead.
 */
export function createMetadataWriter(env: NodeJS.ProcessEnv = process.env, fetchImpl?: typeof fetch, ai?: RenderJob["ai"]): MetadataWriter {
  const url = env.METADATA_API_URL?.trim();
  if (url) {
    return new LlmMetadataWriter({
      baseUrl: url,
      apiKey: env.METADATA_API_KEY || undefined,
      model: env.METADATA_MODEL || "gpt-4o-mini",
      fetchImpl,
    });
  }
  // A 70B model writing a whole job's texts takes longer than a hosted gpt-4o-mini: two minutes a try.
  if (ai) return new LlmMetadataWriter({ baseUrl: ai.url, apiKey: ai.token, model: "workers-ai", name: "workers-ai", timeoutMs: 120_000, fetchImpl });
  return new LocalMetadataWriter();
}
