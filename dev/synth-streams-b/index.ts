/**
 * Source b of `npm run eval:highlights`: streams with planted moments from a second generator, independent of
 * the first (dev/synth-vod). What it plants and why: docs/EVAL-STREAMS.md.
 */
export { generateStreamB, STREAMS_B_VERSION, type MomentTruthB, type StreamTruthB, type StreamBOptions, type UtteranceTruth } from "./generate";
export { streamSpec, CONDITIONS, type Condition, type StreamSpec } from "./conditions";
export { REAL_KINDS, type MomentKind } from "./timeline";
export type { ChatCategory } from "./lines";
export { neverQuoted, PALETTE_B, type ChatVocabulary, type Palette } from "./palette";
export type { Voice } from "./voices";
export { sourceHashOf } from "./generate";
