import { createHash } from "node:crypto";
import { probeMedia } from "../ffmpeg/probe";
import { runProcess } from "../ffmpeg/process";
import { FFMPEG_BIN } from "../ffmpeg/run-ffmpeg";
import { DEFAULT_FACECAM_REGION, type RelativeRect } from "./facecam";
import { mapLimit } from "./pool";
import type { ClipInput } from "./types";

/**
 * Finding the streamer's facecam in the video a job downloaded anyway, for `split` shorts.
 *
 * A facecam is an overlay: a rectangle pasted at a fixed place over gameplay that keeps changing. So across
 * keyframes taken minutes apart, its outline is an edge in (nearly) every frame, while gameplay edges come and
 * go. The detector decodes a few low-resolution grey keyframes, counts per pixel boundary how often it is an
 * edge (vertical and horizontal boundaries separately), and looks for an axis-aligned rectangle near a corner
 * (or an edge) of the frame whose sides are such persistent lines along their whole length and whose
 * surroundings do change. Everything is deterministic: same frames, same answer.
 */

/** Tuning, in one place (the scale is the sampled frames': DETECT.width pixels wide). */
export const DETECT = {
  /** Width the keyframes are scaled to. */
  width: 320,
  /** At most this many keyframes, spread evenly over the downloaded clips. */
  maxFrames: 30,
  /** Samples closer than this (seconds) would mostly hit the same keyframe (Twitch: one every 2 s). */
  minSpacingSeconds: 2,
  /** Fewer distinct frames than this say nothing about what stays in place. */
  minFrames: 6,
  /** Brightness step (0-255) across a boundary, averaged along it, that counts as an edge in one frame. */
  edgeStep: 20,
  /** A boundary pixel is part of a persistent line when it is an edge in at least this share of frames. */
  lineShare: 0.5,
  /** Mean absolute deviation over time (0-255) above which a pixel counts as changing. */
  changeLevel: 8,
  /** Plausible facecam: width as a share of the frame's width, and width/height. */
  minWidth: 0.08,
  maxWidth: 0.45,
  minAspect: 0.8,
  maxAspect: 2.2,
  /** How far (share of the frame's width or height) a side may stay from the frame's border and still anchor. */
  anchorMargin: 0.1,
  /** Score a side lying on the frame's border gets (nothing to measure there; less than a line that is seen). */
  frameSideScore: 0.6,
  /** Every seen side must score at least this (its persistent-line support times its outside change, 0..1). */
  minSideSupport: 0.45,
  /** A strip between a side and the frame's border with at most this share of changing pixels is still (a HUD bar). */
  stillStrip: 0.02,
  /** Share of changing pixels in the strip just outside a side at which that side counts fully ("gameplay"). */
  fullOutsideChange: 0.5,
  /** How far past a corner (share of the side's length, at least 3 px) a side's line is followed. */
  runOnLength: 0.15,
  /** Factor for a rectangle anchored to one border only (not in a corner). */
  edgeAnchorFactor: 0.85,
  /** Confidence needed to use a detected region. */
  threshold: 0.6,
  /** A different rectangle scoring within this of the best makes the answer ambiguous. */
  ambiguityMargin: 0.1,
} as const;

/** Grey keyframes, all of one size, row-major, one byte per pixel. */
export interface GrayFrames {
  width: number;
  height: number;
  frames: Uint8Array[];
}

export type FacecamAnchor = "top-left" | "top-right" | "bottom-left" | "bottom-right" | "top" | "bottom" | "left" | "right";

export interface FacecamCandidate {
  /** In the sampled frames' pixels: columns x0..x1-1, rows y0..y1-1. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  region: RelativeRect;
  anchor: FacecamAnchor;
  /** Persistent-line support of each side (0..1); null for a side lying on the frame's border. */
  sides: { top: number | null; right: number | null; bottom: number | null; left: number | null };
  /** Share of changing pixels in the strips just outside the seen sides. */
  outsideChange: number;
  /** Strongest support of a side's line continuing past a corner (0..1). */
  runsOn: number;
  score: number;
}

export interface FacecamAnalysis {
  frames: number;
  best: FacecamCandidate | null;
  /** The best rectangle that does not overlap the best one (IoU < 0.3). */
  runnerUp: FacecamCandidate | null;
  /** The best score, or lower when another place scores about as well; 0 when nothing fits. */
  confidence: number;
}

export type FacecamFound = "configured" | "detected" | "default";

/** The facecam region a job's split shorts use, and how it was arrived at. */
export interface FacecamChoice {
  region: RelativeRect;
  found: FacecamFound;
  /** Detection confidence 0..1 (null when the region was configured and nothing was detected). */
  confidence: number | null;
  /** Keyframes looked at. */
  frames: number;
  /** Why this region, in a few words (logs). */
  reason: string;
}

const round4 = (n: number) => Math.round(n * 10000) / 10000;
/** Pixels along a boundary over which a step is averaged before it counts as an edge (odd). */
const EDGE_RUN = 5;
/** Width of the strips looked at outside a side, in sampled pixels. */
const STRIP = 3;

/**
 * Scores every plausible rectangle and returns the best. Pure: frames in, analysis out.
 * Boundaries: vertical boundary b lies between columns b-1 and b (0 and width are the frame's borders);
 * horizontal boundary b between rows b-1 and b.
 */
export function analyseFacecam(input: GrayFrames): FacecamAnalysis {
  const { width: W, height: H, frames } = input;
  const N = frames.length;
  if (N === 0) return { frames: 0, best: null, runnerUp: null, confidence: 0 };

  // Per-frame edges: the signed step across a boundary, averaged over EDGE_RUN pixels along it, then its size.
  // A straight edge keeps its sign along the boundary; the steps of fine texture or noise cancel out.
  const vCount = new Float32Array((W + 1) * H); // index b * H + y
  const hCount = new Float32Array((H + 1) * W); // index b * W + x
  const sum = new Float64Array(W * H);
  const step = new Float32Array(Math.max(W, H));
  const countEdges = (count: Float32Array, offset: number, n: number) => {
    const r = (EDGE_RUN - 1) / 2;
    let acc = 0;
    for (let i = 0; i < Math.min(r, n); i++) acc += step[i]!;
    for (let i = 0; i < n; i++) {
      if (i + r < n) acc += step[i + r]!;
      if (i - r - 1 >= 0) acc -= step[i - r - 1]!;
      const len = Math.min(n - 1, i + r) - Math.max(0, i - r) + 1;
      if (Math.abs(acc / len) >= DETECT.edgeStep) count[offset + i] += 1;
    }
  };
  for (const f of frames) {
    for (let i = 0; i < W * H; i++) sum[i] += f[i]!;
    for (let b = 1; b < W; b++) {
      for (let y = 0; y < H; y++) step[y] = f[y * W + b]! - f[y * W + b - 1]!;
      countEdges(vCount, b * H, H);
    }
    for (let b = 1; b < H; b++) {
      for (let x = 0; x < W; x++) step[x] = f[b * W + x]! - f[(b - 1) * W + x]!;
      countEdges(hCount, b * W, W);
    }
  }

  // A line may sit a pixel off the boundary a rectangle puts it on (scaling blurs a thin border over two).
  const band = (count: Float32Array, lines: number, length: number) => {
    const out = new Float32Array((lines + 1) * length);
    for (let b = 1; b < lines; b++) {
      for (let i = 0; i < length; i++) {
        const here = count[b * length + i]!;
        const before = b > 1 ? count[(b - 1) * length + i]! : 0;
        const after = b < lines - 1 ? count[(b + 1) * length + i]! : 0;
        out[b * length + i] = Math.max(here, 0.9 * Math.max(before, after)) / N;
      }
    }
    return out;
  };
  const vBand = band(vCount, W, H);
  const hBand = band(hCount, H, W);
  // Prefix sums along each boundary: support of any stretch in O(1).
  const prefix = (bandArr: Float32Array, lines: number, length: number) => {
    const out = new Float64Array((lines + 1) * (length + 1));
    for (let b = 0; b <= lines; b++) {
      let acc = 0;
      for (let i = 0; i < length; i++) {
        acc += bandArr[b * length + i]!;
        out[b * (length + 1) + i + 1] = acc;
      }
    }
    return out;
  };
  const vPre = prefix(vBand, W, H);
  const hPre = prefix(hBand, H, W);
  const vSupport = (b: number, y0: number, y1: number) => (vPre[b * (H + 1) + y1]! - vPre[b * (H + 1) + y0]!) / (y1 - y0);
  const hSupport = (b: number, x0: number, x1: number) => (hPre[b * (W + 1) + x1]! - hPre[b * (W + 1) + x0]!) / (x1 - x0);

  // Which pixels change over time (gameplay does; an overlay and a static HUD do not).
  const mean = new Float64Array(W * H);
  for (let i = 0; i < W * H; i++) mean[i] = sum[i]! / N;
  const dev = new Float64Array(W * H);
  for (const f of frames) for (let i = 0; i < W * H; i++) dev[i] += Math.abs(f[i]! - mean[i]!);
  const changePre = new Float64Array((W + 1) * (H + 1));
  for (let y = 0; y < H; y++) {
    let acc = 0;
    for (let x = 0; x < W; x++) {
      acc += dev[y * W + x]! / N >= DETECT.changeLevel ? 1 : 0;
      changePre[(y + 1) * (W + 1) + x + 1] = changePre[y * (W + 1) + x + 1]! + acc;
    }
  }
  const changed = (x0: number, y0: number, x1: number, y1: number) => {
    x0 = Math.max(0, x0);
    y0 = Math.max(0, y0);
    x1 = Math.min(W, x1);
    y1 = Math.min(H, y1);
    if (x1 <= x0 || y1 <= y0) return { changed: 0, area: 0 };
    const s = changePre[y1 * (W + 1) + x1]! - changePre[y0 * (W + 1) + x1]! - changePre[y1 * (W + 1) + x0]! + changePre[y0 * (W + 1) + x0]!;
    return { changed: s, area: (x1 - x0) * (y1 - y0) };
  };

  const minW = Math.max(4, Math.round(DETECT.minWidth * W));
  const maxW = Math.round(DETECT.maxWidth * W);
  const minH = Math.max(3, Math.floor(minW / DETECT.maxAspect));
  const maxH = Math.min(H, Math.ceil(maxW / DETECT.minAspect));

  // Candidate lines: boundaries with a long enough run of persistent edge (gaps of two pixels bridged).
  const candidates = (bandArr: Float32Array, lines: number, length: number, minRun: number) => {
    const found: { b: number; run: number }[] = [];
    for (let b = 1; b < lines; b++) {
      let best = 0;
      let start = -1;
      let lastOn = -10;
      for (let i = 0; i < length; i++) {
        if (bandArr[b * length + i]! >= DETECT.lineShare) {
          if (i - lastOn > 3) start = i;
          lastOn = i;
          best = Math.max(best, i - start + 1);
        }
      }
      if (best >= minRun) found.push({ b, run: best });
    }
    // Busy static pictures (a full-screen camera, a board game) have many lines; the longest 48 are plenty.
    found.sort((a, c) => c.run - a.run || a.b - c.b);
    return [0, ...found.slice(0, 48).map((f) => f.b).sort((a, c) => a - c), lines];
  };
  const xs = candidates(vBand, W, H, Math.round(minH * 0.8));
  const ys = candidates(hBand, H, W, Math.round(minW * 0.8));

  const marginX = DETECT.anchorMargin * W;
  const marginY = DETECT.anchorMargin * H;
  const evaluate = (x0: number, x1: number, y0: number, y1: number): FacecamCandidate | null => {
    const nearL = x0 <= marginX;
    const nearR = W - x1 <= marginX;
    const nearT = y0 <= marginY;
    const nearB = H - y1 <= marginY;
    const horizontal = nearL ? "left" : nearR ? "right" : null;
    const vertical = nearT ? "top" : nearB ? "bottom" : null;
    if (!horizontal && !vertical) return null;
    const anchor: FacecamAnchor = horizontal && vertical ? `${vertical}-${horizontal}` : (horizontal ?? vertical)!;
    // Each side: how much of it is a persistent line, and how much changes in the strip just outside it (beyond
    // the line's own band). A line with a still picture on both sides is part of that picture (a room behind the
    // streamer, a board), not the edge of an overlay, so a side counts only as far as its outside changes.
    const gap = 3;
    const outside = {
      top: changed(x0, y0 - gap - STRIP, x1, y0 - gap),
      right: changed(x1 + gap, y0, x1 + gap + STRIP, y1),
      bottom: changed(x0, y1 + gap, x1, y1 + gap + STRIP),
      left: changed(x0 - gap - STRIP, y0, x0 - gap, y1),
    };
    const support = {
      top: y0 > 0 ? hSupport(y0, x0, x1) : null,
      right: x1 < W ? vSupport(x1, y0, y1) : null,
      bottom: y1 < H ? hSupport(y1, x0, x1) : null,
      left: x0 > 0 ? vSupport(x0, y0, y1) : null,
    };
    // The whole strip between a side and the frame's border beyond it, when that border is within the anchor margin.
    const stillToBorder = (side: "top" | "right" | "bottom" | "left") => {
      const strip =
        side === "top" ? (y0 <= marginY ? changed(x0, 0, x1, y0 - 1) : null)
        : side === "bottom" ? (H - y1 <= marginY ? changed(x0, y1 + 1, x1, H) : null)
        : side === "left" ? (x0 <= marginX ? changed(0, y0, x0 - 1, y1) : null)
        : W - x1 <= marginX ? changed(x1 + 1, y0, W, y1) : null;
      return strip !== null && strip.area > 0 && strip.changed / strip.area <= DETECT.stillStrip;
    };
    let seen = 0;
    let total = 0;
    let weakest = 1;
    let changedOut = 0;
    let areaOut = 0;
    for (const side of ["top", "right", "bottom", "left"] as const) {
      const line = support[side];
      const out = outside[side];
      // On the frame's border, or too close to it to look outside: nothing to measure.
      if (line === null || out.area === 0) {
        total += DETECT.frameSideScore;
        continue;
      }
      // A persistent line near the border with nothing but a still strip between it and the border (a HUD bar, a
      // dark margin under a bottom-right cam): the overlay ends at the line, and the strip is the frame's, not the
      // facecam's. Scored as a side on the border, so the box stops at the line instead of taking the strip in.
      if (line >= DETECT.lineShare && stillToBorder(side)) {
        total += DETECT.frameSideScore;
        continue;
      }
      const sideScore = line * Math.min(1, out.changed / out.area / DETECT.fullOutsideChange);
      seen++;
      total += sideScore;
      weakest = Math.min(weakest, sideScore);
      changedOut += out.changed;
      areaOut += out.area;
    }
    if (seen < 2 || weakest < DETECT.minSideSupport) return null;
    const outsideChange = changedOut / areaOut;
    // An overlay's outline stops at its corners. A side whose line runs on past a corner (that is not on the frame's
    // border) says the rectangle is cut short: a line inside the facecam was taken for its edge.
    let runsOn = 0;
    const beyond = (len: number) => Math.max(3, Math.round(DETECT.runOnLength * len));
    if (support.left !== null || support.right !== null) {
      const k = beyond(y1 - y0);
      for (const b of [support.left !== null ? x0 : -1, support.right !== null ? x1 : -1]) {
        if (b < 0) continue;
        if (y0 > 0 && y0 - 2 > 0) runsOn = Math.max(runsOn, vSupport(b, Math.max(0, y0 - 2 - k), y0 - 2));
        if (y1 < H && y1 + 2 < H) runsOn = Math.max(runsOn, vSupport(b, y1 + 2, Math.min(H, y1 + 2 + k)));
      }
    }
    if (support.top !== null || support.bottom !== null) {
      const k = beyond(x1 - x0);
      for (const b of [support.top !== null ? y0 : -1, support.bottom !== null ? y1 : -1]) {
        if (b < 0) continue;
        if (x0 > 0 && x0 - 2 > 0) runsOn = Math.max(runsOn, hSupport(b, Math.max(0, x0 - 2 - k), x0 - 2));
        if (x1 < W && x1 + 2 < W) runsOn = Math.max(runsOn, hSupport(b, x1 + 2, Math.min(W, x1 + 2 + k)));
      }
    }
    const runOnFactor = 1 - 0.5 * Math.min(1, Math.max(0, (runsOn - 0.3) / 0.5));
    const score = (total / 4) * runOnFactor * (horizontal && vertical ? 1 : DETECT.edgeAnchorFactor);
    const sides = support;
    return {
      x0,
      y0,
      x1,
      y1,
      region: { x: round4(x0 / W), y: round4(y0 / H), w: round4((x1 - x0) / W), h: round4((y1 - y0) / H) },
      anchor,
      sides: { top: roundOrNull(sides.top), right: roundOrNull(sides.right), bottom: roundOrNull(sides.bottom), left: roundOrNull(sides.left) },
      outsideChange: round4(outsideChange),
      runsOn: round4(runsOn),
      score: round4(score),
    };
  };

  const search = (skip: (c: FacecamCandidate) => boolean): FacecamCandidate | null => {
    let best: FacecamCandidate | null = null;
    for (let i = 0; i < xs.length; i++) {
      for (let j = i + 1; j < xs.length; j++) {
        const x0 = xs[i]!;
        const x1 = xs[j]!;
        const w = x1 - x0;
        if (w < minW) continue;
        if (w > maxW) break;
        for (let k = 0; k < ys.length; k++) {
          for (let l = k + 1; l < ys.length; l++) {
            const y0 = ys[k]!;
            const y1 = ys[l]!;
            const h = y1 - y0;
            if (h < minH || w / h > DETECT.maxAspect) continue;
            if (h > maxH || w / h < DETECT.minAspect) break;
            const cand = evaluate(x0, x1, y0, y1);
            if (cand && cand.score > (best?.score ?? 0) && !skip(cand)) best = cand;
          }
        }
      }
    }
    return best;
  };
  const best = search(() => false);
  if (!best) return { frames: N, best: null, runnerUp: null, confidence: 0 };
  const runnerUp = search((c) => iou(c, best) >= 0.3);
  const gap = best.score - (runnerUp?.score ?? 0);
  const confidence = gap >= DETECT.ambiguityMargin ? best.score : Math.min(best.score, round4(DETECT.threshold * (gap / DETECT.ambiguityMargin)));
  return { frames: N, best, runnerUp, confidence };
}

function roundOrNull(n: number | null): number | null {
  return n === null ? null : round4(n);
}

function iou(a: { x0: number; y0: number; x1: number; y1: number }, b: { x0: number; y0: number; x1: number; y1: number }): number {
  const w = Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0));
  const h = Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
  const inter = w * h;
  const union = (a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * Up to `maxFrames` grey keyframes at `width` pixels, evenly spread over the clips: one small ffmpeg per frame
 * that seeks to the keyframe at or before its time and decodes only that one (about 60 ms and 60 MB each; one
 * process decoding many inputs needs far more memory). A frame that cannot be read is skipped; the same keyframe
 * hit twice is kept once.
 */
export async function sampleKeyframes(clips: readonly ClipInput[], opts: { maxFrames?: number; width?: number; concurrency?: number; signal?: AbortSignal } = {}): Promise<GrayFrames | null> {
  const usable = clips.filter((c) => c.media_end_seconds - c.media_start_seconds > 0.5);
  if (usable.length === 0) return null;
  const info = await probeMedia(usable[0]!.path, { signal: opts.signal });
  const srcW = info.video?.width;
  const srcH = info.video?.height;
  if (!srcW || !srcH) return null;
  const width = opts.width ?? DETECT.width;
  const height = Math.max(2, Math.round((width * srcH) / srcW / 2) * 2);
  const total = usable.reduce((s, c) => s + (c.media_end_seconds - c.media_start_seconds), 0);
  const count = Math.max(1, Math.min(opts.maxFrames ?? DETECT.maxFrames, Math.floor(total / DETECT.minSpacingSeconds)));
  const picks: { clip: ClipInput; offset: number }[] = [];
  for (let k = 0; k < count; k++) {
    let t = ((k + 0.5) * total) / count;
    for (const clip of usable) {
      const d = clip.media_end_seconds - clip.media_start_seconds;
      if (t < d || clip === usable[usable.length - 1]) {
        picks.push({ clip, offset: Math.max(0, Math.min(t, d - 0.5)) });
        break;
      }
      t -= d;
    }
  }
  const grabbed = await mapLimit(
    picks,
    opts.concurrency ?? 2,
    async (p, _i, signal) => {
      try {
        const { stdout } = await runProcess(
          FFMPEG_BIN,
          ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-threads", "1", "-skip_frame", "nokey", "-ss", p.offset.toFixed(3), "-noaccurate_seek",
            "-an", "-sn", "-dn", "-i", p.clip.path, "-frames:v", "1", "-vf", `scale=${width}:${height}:flags=area,format=gray`, "-f", "rawvideo", "pipe:1"],
          { signal, collectStdout: true, maxStdoutBytes: width * height * 2 },
        );
        return stdout.length === width * height ? new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length) : null;
      } catch (err) {
        if (signal.aborted) throw err;
        return null;
      }
    },
    opts.signal,
  );
  const seen = new Set<string>();
  const frames: Uint8Array[] = [];
  for (const f of grabbed) {
    if (!f) continue;
    const key = createHash("sha1").update(f).digest("hex");
    if (seen.has(key)) continue;
    seen.add(key);
    frames.push(f);
  }
  return { width, height, frames };
}

/**
 * The facecam region for a job's split shorts. An operator's FACECAM_REGION (`configured`) always wins and
 * nothing is detected; otherwise the region is detected from the downloaded clips when the detector is
 * confident, else the documented default (top-left quarter). Detection never fails a job: any error other
 * than cancellation falls back to the default.
 */
export async function chooseFacecamRegion(clips: readonly ClipInput[], opts: { configured: RelativeRect | null; signal?: AbortSignal; maxFrames?: number; concurrency?: number }): Promise<FacecamChoice & { analysis?: FacecamAnalysis }> {
  if (opts.configured) return { region: opts.configured, found: "configured", confidence: null, frames: 0, reason: "FACECAM_REGION is set" };
  let sampled: GrayFrames | null;
  try {
    sampled = await sampleKeyframes(clips, { maxFrames: opts.maxFrames, concurrency: opts.concurrency, signal: opts.signal });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return { region: DEFAULT_FACECAM_REGION, found: "default", confidence: 0, frames: 0, reason: `keyframes could not be read: ${(err as Error).message.slice(0, 200)}` };
  }
  const frames = sampled?.frames.length ?? 0;
  if (!sampled || frames < DETECT.minFrames) {
    return { region: DEFAULT_FACECAM_REGION, found: "default", confidence: 0, frames, reason: `only ${frames} distinct keyframes` };
  }
  const analysis = analyseFacecam(sampled);
  if (analysis.best && analysis.confidence >= DETECT.threshold) {
    return { region: analysis.best.region, found: "detected", confidence: analysis.confidence, frames, reason: `rectangle at the ${analysis.best.anchor}`, analysis };
  }
  const why = !analysis.best
    ? "no overlay-like rectangle"
    : analysis.best.score >= DETECT.threshold
      ? `ambiguous: ${analysis.best.anchor} and ${analysis.runnerUp?.anchor} score alike`
      : `best rectangle (${analysis.best.anchor}) scored ${analysis.best.score}`;
  return { region: DEFAULT_FACECAM_REGION, found: "default", confidence: analysis.confidence, frames, reason: why, analysis };
}
