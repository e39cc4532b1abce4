import type { Rect, Size } from "./types";

function even(v: number): number {
  return Math.max(2, Math.round(v / 2) * 2);
}

/** Largest rectangle of the given aspect (w/h) centred inside `area`, in even pixels (yuv420p needs them). */
export function centredCrop(area: Rect, aspect: number): Rect {
  let w = area.w;
  let h = area.w / aspect;
  if (h > area.h) {
    h = area.h;
    w = area.h * aspect;
  }
  const cw = Math.min(even(w), area.w - (area.w % 2));
  const ch = Math.min(even(h), area.h - (area.h % 2));
  // Even offsets too, so the chroma planes of yuv420p are cut where the luma is.
  const x = area.x + 2 * Math.floor((area.w - cw) / 4);
  const y = area.y + 2 * Math.floor((area.h - ch) / 4);
  return { x, y, w: cw, h: ch };
}

/** Keeps a rectangle inside a frame (a configured facecam may not match this video's resolution). */
export function clampRect(r: Rect, frame: Size): Rect {
  const x = Math.min(Math.max(0, Math.round(r.x)), frame.width - 2);
  const y = Math.min(Math.max(0, Math.round(r.y)), frame.height - 2);
  const w = Math.max(2, Math.min(Math.round(r.w), frame.width - x));
  const h = Math.max(2, Math.min(Math.round(r.h), frame.height - y));
  return { x, y, w, h };
}

export function fullFrame(s: Size): Rect {
  return { x: 0, y: 0, w: s.width, h: s.height };
}

export function cropFilter(r: Rect): string {
  return `crop=${r.w}:${r.h}:${r.x}:${r.y}`;
}

export { even as evenPixels };
