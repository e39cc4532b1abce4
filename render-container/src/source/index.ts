export { ByteCounter } from "./byte-counter";
export { SourceError, type SourceErrorCode } from "./source-error";
export { resolveVodMedia, type ResolvedVodMedia, type ResolveOptions } from "./resolve-vod-media";
export { downloadAudio, mutedRanges, type DownloadedAudio, type DownloadOptions } from "./download-audio";
export { downloadCoveringSegments, type ClipSource, type CoveringDownloadOptions } from "./download-covering-segments";
export { coveringSegmentGroups, type TimeRange } from "./covering-segments";
export { fetchSegment, mutedTwin, type FetchedSegment } from "./fetch-segment";
export { downloadSegmentsToFile } from "./ordered-download";
export { firstPtsSeconds } from "./mpegts-pts";
