/**
 * Encoder settings shared by every rendered piece. Identical settings are what lets reel pieces be joined
 * with the concat demuxer by stream copy. veryfast/CRF 23 measured ~1.7x realtime for a 1080x1920 short on
 * 2 cores (MEDIA.md); 2 s GOPs keep seeking in players snappy.
 */
export const OUTPUT_FPS = 30;
export const AUDIO_RATE = 48000;

/**
 * x264's preset per kind of output (X264_PRESET overrides both, e.g. `ultrafast` in the node tests). Shorts are
 * never joined to anything, so they need not match the reels: `superfast` at the same CRF costs a quarter less CPU
 * than `veryfast` for a 30 s 1080x1920 short (26 against 34 CPU s, captions, title and layout filters included)
 * at a higher SSIM and PSNR against a near-lossless encode (0.9943/45.6 dB against 0.9914/43.0 dB), in about
 * twice the bytes (docs/BENCHMARKS.md, "The short's encode"). Reels stay at `veryfast`: their pieces are joined
 * by stream copy and a reel is ten times a short's length, where twice the bytes would matter to downloads.
 */
export const X264_PRESETS = { short: "superfast", reel: "veryfast" } as const;

export function videoEncoderArgs(kind: keyof typeof X264_PRESETS = "reel"): string[] {
  return [
    "-c:v", "libx264",
    "-preset", process.env.X264_PRESET || X264_PRESETS[kind],
    "-crf", process.env.X264_CRF || "23",
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
