/**
 * Encoder settings shared by every rendered piece. Identical settings are what lets reel pieces be joined
 * with the concat demuxer by stream copy. veryfast/CRF 23 measured ~1.7x realtime for a 1080x1920 short on
 * 2 cores (MEDIA.md); 2 s GOPs keep seeking in players snappy.
 */
export const OUTPUT_FPS = 30;
export const AUDIO_RATE = 48000;

/**
 * x264's preset and CRF per kind of output (X264_PRESET and X264_CRF override both, e.g. `ultrafast` in the node
 * tests). Shorts are never joined to anything, so they need not match the reels. A 30 s 1080x1920 short (fit
 * layout, title, word-highlighted captions; scripts/bench-short-encode.ts, docs/BENCHMARKS.md "The short's
 * encode"), against a near-lossless encode: `veryfast` CRF 23 took 34.0 CPU s for SSIM 0.9914 and PSNR 43.0 dB
 * in 9.3 MB; `superfast` CRF 25 takes 25.0 CPU s for SSIM 0.9925 and PSNR 44.0 dB in 14.6 MB — no less quality
 * by either measure, a quarter less CPU (it skips the analysis that lets veryfast spend fewer bits), 1.6x the
 * bytes. Reels stay at `veryfast` CRF 23: their pieces are joined by stream copy, and at ten times a short's length
 * the extra bytes would matter to downloads.
 */
export const X264_SETTINGS = { short: { preset: "superfast", crf: "25" }, reel: { preset: "veryfast", crf: "23" } } as const;

export function videoEncoderArgs(kind: keyof typeof X264_SETTINGS = "reel"): string[] {
  return [
    "-c:v", "libx264",
    "-preset", process.env.X264_PRESET || X264_SETTINGS[kind].preset,
    "-crf", process.env.X264_CRF || X264_SETTINGS[kind].crf,
    "-pix_fmt", "yuv420p",
    "-profile:v", "high",
    "-g", String(OUTPUT_FPS * 2),
    "-keyint_min", String(OUTPUT_FPS),
    "-sc_threshold", "0",
  ];
}

export function audioEncoderArgs(): string[] {
  return ["-c:a", "aac", "-b:a", "160k", "-ar", String(AUDIO_RATE), "-ac", "2"];
}

/** Moves the index to the front so a download can start playing before it finishes. */
export const FASTSTART = ["-movflags", "+faststart"];

/** Normalises decoded audio so every piece has the same format whatever the source had. */
export const AUDIO_FORMAT = `aresample=${AUDIO_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo`;
