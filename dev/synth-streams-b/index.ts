export { generateStreamB, STREAMS_B_VERSION, type MomentTruthB, type StreamTruthB, type StreamBOptions, type UtteranceTruth } from "./generate";
export { streamSpec, CONDITIONS, type Condition, type StreamSpec } from "./conditions";
export { REAL_KINDS, type MomentKind } from "./timeline";
export { neverQuoted, type ChatCategory } from "./lines";
export { synthCacheRoot as synthCacheRootB } from "../synth-vod/cache-dir";
