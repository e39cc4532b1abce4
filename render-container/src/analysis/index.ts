export { analyzeAudio, type AnalyzeAudioOptions } from "./analyze-audio";
export { analyzeAudioInParts, combinedProgress, mergeAnalyses, planAudioSpans, SPLIT_ANALYSIS_ABOVE_SECONDS, type AudioSpan } from "./analyze-audio-parts";
export { analyzeChat, type AnalyzeChatOptions } from "./chat-signals";
export { detectSceneCuts, type DetectSceneCutsOptions } from "./scene-cuts";
export { reactionKind, type ReactionKind } from "./chat-lexicon";
export type { AudioAnalysis, ChatSignals, ChatCommentInput, SilenceRange } from "./types";
