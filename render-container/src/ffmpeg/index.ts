export { runProcess, ProcessError, type RunProcessOptions, type ProcessResult } from "./process";
export { runFfmpeg, FFMPEG_BIN, FFPROBE_BIN, type RunFfmpegOptions } from "./run-ffmpeg";
export { createProgressParser, type FfmpegProgress } from "./progress";
export { probeMedia, type MediaInfo, type ProbedStream } from "./probe";
export { escapeFilterValue } from "./filter-escape";
