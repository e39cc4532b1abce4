export { renderShort, SHORT_SIZE, SHORT_TITLE_SECONDS, type ShortRenderOptions } from "./render-short";
export { renderReel, renderReelPiece, joinReelPieces, REEL_SIZE, JOIN_FADE_SECONDS, REEL_TITLE_SECONDS, type ReelRenderOptions, type ReelPieceOptions, type ReelSegment, type ColdOpenSnippet } from "./render-reel";
export { makeThumbnail, type Thumbnail } from "./thumbnail";
export { DEFAULT_FACECAM_REGION, facecamRegionFromEnv, facecamPixels, parseFacecamRegion, type RelativeRect } from "./facecam";
export { analyseFacecam, chooseFacecamRegion, sampleKeyframes, DETECT as FACECAM_DETECTION, type FacecamAnalysis, type FacecamCandidate, type FacecamChoice, type FacecamFound, type GrayFrames } from "./facecam-detect";
export { FRAME_COLORS } from "./short-layout";
export { CutRangeError } from "./cut";
export type { ClipInput, Rect, Size, RenderedVideo, RenderProgress } from "./types";
