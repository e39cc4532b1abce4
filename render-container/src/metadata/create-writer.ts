import { LlmMetadataWriter } from "./llm-writer";
import { LocalMetadataWriter } from "./local-writer";
import type { MetadataWriter } from "./types";

/**
 * An LLM writer when METADATA_API_URL is set (METADATA_API_KEY, METADATA_MODEL optional; model defaults to
 * gpt-4o-mini), otherwise the deterministic local writer.
 */
export function createMetadataWriter(env: NodeJS.ProcessEnv = process.env, fetchImpl?: typeof fetch): MetadataWriter {
  const url = env.METADATA_API_URL?.trim();
  if (url) {
    return new LlmMetadataWriter({
      baseUrl: url,
      apiKey: env.METADATA_API_KEY || undefined,
      model: env.METADATA_MODEL || "gpt-4o-mini",
      fetchImpl,
    });
  }
  return new LocalMetadataWriter();
}
