import type { Rect, Size } from "./types";

/** A region as shares of the frame (0..1), so one setting fits every source resolution. */
export interface RelativeRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Where the facecam is assumed to be when nothing else is known: the top-left corner, a quarter of the
 * frame's width and height (on a 16:9 source that is a 16:9 box, 320x180 at 720p) — the most common overlay
 * spot on gaming streams. The renderer's FACECAM_REGION setting ("x,y,w,h" as shares) replaces it; without the
 * setting a job's split shorts use the region found in its video (facecam-detect.ts) when the finding is confident.
 */
export const DEFAULT_FACECAM_REGION: RelativeRect = { x: 0, y: 0, w: 0.25, h: 0.25 };

/** Parses "x,y,w,h" shares; anything malformed or outside the frame yields null (the default is used). */
export function parseFacecamRegion(value: string | undefined): RelativeRect | null {
  if (!value) return null;
  const parts = value.split(",").map((p) => Number(p.trim()));
  if (parts.length !== 4 || parts.some((p) => !Number.isFinite(p))) return null;
  const [x, y, w, h] = parts as [number, number, number, number];
  if (x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > 1.0001 || y + h > 1.0001) return null;
  return { x, y, w, h };
}

export function facecamRegionFromEnv(env: NodeJS.ProcessEnv = process.env): RelativeRect {
  return parseFacecamRegion(env.FACECAM_REGION) ?? DEFAULT_FACECAM_REGION;
}

export function facecamPixels(region: RelativeRect, frame: Size): Rect {
  return {
    x: Math.round(region.x * frame.width),
    y: Math.round(region.y * frame.height),
    w: Math.round(region.w * frame.width),
    h: Math.round(region.h * frame.height),
  };
}
