export {
  type MetadataWriter,
  type MetadataInput,
  type MetadataMoment,
  type StreamerInfo,
  MetadataOutput,
  ReelMetadata,
  ShortMetadata,
  MomentMetadata,
  LIMITS,
} from "./types";
export { LocalMetadataWriter, writeLocalMetadata } from "./local-writer";
export { LlmMetadataWriter, LlmAnswer, buildPrompt, parseAnswer, type LlmMetadataOptions } from "./llm-writer";
export { createMetadataWriter } from "./create-writer";
export { distinctTitles, momentsOnce, vodClock } from "./distinct-titles";
export { extractKeywords, tokenize } from "./keywords";
export { LANGUAGE_PACKS } from "./templates";
export { momentSpeech } from "./moment-speech";
export { momentKind } from "./reliable-text";
export { judgeLanguage } from "./language-check";
