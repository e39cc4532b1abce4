/**
 * A piece of the source video on disk, as the source layer hands it over: byte-joined MPEG-TS segments and the
 * VOD times the file covers. (Structural, so the source layer's ClipSource fits without a conversion.)
 */
export interface ClipInput {
  path: string;
  /** VOD time of the file's first frame, seconds. */
  media_start_seconds: number;
  media_end_seconds: number;
}

/** A rectangle in pixels. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface RenderedVideo {
  path: string;
  /** Measured with ffprobe on the written file, not taken from the plan. */
  duration_seconds: number;
  size_bytes: number;
}

/** Progress of one render, 0..1. */
export type RenderProgress = (fraction: number) => void;
