export { analyzeAudio, type AnalyzeAudioOptions } from "./analyze-audio";
export { analyzeAudioInParts, mergeAnalyses, SPLIT_ANALYSIS_ABOVE_SECONDS } from "./analyze-audio-parts";
export { analyzeChat, type AnalyzeChatOptions } from "./chat-signals";
export { detectSceneCuts, type DetectSceneCutsOptions } from "./scene-cuts";
export { reactionKind, type ReactionKind } from "./chat-lexicon";
export type { AudioAnalysis, ChatSignals, ChatCommentInput, SilenceRange } from "./types";
