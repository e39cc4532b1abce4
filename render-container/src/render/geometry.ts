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

/**
 * The largest box of an aspect inside `area`, centred unless that would show part of `avoid` (a facecam beside the
 * gameplay a split short shows): then moved along the axis it has room on, by the least distance that leaves all of
 * `avoid` out. Centred when `avoid` is out of the centred box already, or when no position inside `area` leaves it
 * out (a facecam too near the middle).
 */
export function cropClearOf(area: Rect, aspect: number, avoid: Rect): Rect {
  const c = centredCrop(area, aspect);
  const overlaps = (r: Rect) => r.x < avoid.x + avoid.w && avoid.x < r.x + r.w && r.y < avoid.y + avoid.h && avoid.y < r.y + r.h;
  if (!overlaps(c)) return c;
  const candidates: Rect[] = [];
  // Even offsets, so the chroma planes of yuv420p are cut where the luma is.
  const evenUp = (v: number) => Math.ceil(v / 2) * 2;
  const evenDown = (v: number) => Math.floor(v / 2) * 2;
  if (c.w < area.w) candidates.push({ ...c, x: evenUp(avoid.x + avoid.w) }, { ...c, x: evenDown(avoid.x - c.w) });
  if (c.h < area.h) candidates.push({ ...c, y: evenUp(avoid.y + avoid.h) }, { ...c, y: evenDown(avoid.y - c.h) });
  const inside = (r: Rect) => r.x >= area.x && r.y >= area.y && r.x + r.w <= area.x + area.w && r.y + r.h <= area.y + area.h;
  const moved = candidates.filter((r) => inside(r) && !overlaps(r)).sort((a, b) => Math.abs(a.x - c.x) + Math.abs(a.y - c.y) - (Math.abs(b.x - c.x) + Math.abs(b.y - c.y)));
  return moved[0] ?? c;
}

/** `r` shrunk by `share` of its width and height on every side (whole pixels, at least 2x2 left). */
export function insetRect(r: Rect, share: number): Rect {
  const dx = Math.min(Math.floor(r.w * share), Math.floor((r.w - 2) / 2));
  const dy = Math.min(Math.floor(r.h * share), Math.floor((r.h - 2) / 2));
  return { x: r.x + dx, y: r.y + dy, w: r.w - 2 * dx, h: r.h - 2 * dy };
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
