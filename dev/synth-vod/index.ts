export * from "./generate";
export { synthCacheRoot } from "./cache-dir";
export type { MomentKind, MomentRequest, Span, ScenePlan, SetupStyle } from "./plan";
export type { SegmentInfo } from "./package-hls";
export type { FacecamCorner, Rect } from "./video-templates";
export type { ChatTruth, ChatBurstTruth } from "./chat-log";
export { writeDiscontinuityVariant, writeFmp4Variant, writeLowRenditionVariant, type DiscontinuityOptions, type Fmp4Options, type LowRenditionOptions } from "./variants";
