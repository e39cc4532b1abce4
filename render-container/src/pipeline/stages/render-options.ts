import type { NormalizedParameters } from "../../../../common/contract/normalized-request";
import type { ReelRenderOptions, ShortRenderOptions } from "../../render";
import { facecamPixels, type RelativeRect } from "../../render/facecam";
import type { Size } from "../../render/types";
import type { ClipSource } from "../../source";
import type { PlannedReel, PlannedShort } from "../render-plan";
import { clipFor } from "./fetch-video";
import type { Texts } from "./render-outputs";
import type { Transcripts } from "./transcribe";

type WhatToDraw<T> = Omit<T, "out" | "signal" | "onProgress" | "concurrency" | "size">;

/** What a reel shows, from the request's parameters: its segments, the teaser snippets, title cards or not. */
export function reelOptions(reel: PlannedReel, clips: readonly ClipSource[], texts: Pick<Texts, "moments">, p: NormalizedParameters): WhatToDraw<ReelRenderOptions> {
  return {
    segments: reel.moments.map((m) => ({ clip: clipFor(clips, m.start, m.end), start: m.start, end: m.end, titleText: texts.moments.get(m)?.title ?? null })),
    coldOpen: reel.coldOpen.map((s) => ({ clip: clipFor(clips, s.start, s.end), start: s.start, end: s.end })),
    titleCards: p.reel_title_card_enabled,
  };
}

/**
 * What a short shows, from the request's parameters: layout (split ratio, facecam region in this source's
 * pixels, outline colour), the title flash when shorts_title_card_enabled, burned captions when burn_captions
 * (and something was said).
 */
export function shortOptions(short: PlannedShort, clip: ClipSource, source: Size, texts: Pick<Texts, "shorts">, transcripts: Pick<Transcripts, "burn" | "cuesFor">, p: NormalizedParameters, facecam: RelativeRect): WhatToDraw<ShortRenderOptions> {
  const m = short.moment;
  const cues = transcripts.cuesFor(m.start, m.end);
  return {
    clip,
    start: m.start,
    end: m.end,
    layout: p.shorts_crop_mode,
    splitRatio: p.shorts_split_ratio,
    facecam: facecamPixels(facecam, source),
    frame: { enabled: p.shorts_facecam_frame_enabled, color: p.shorts_facecam_frame_color },
    titleText: p.shorts_title_card_enabled ? (texts.shorts[short.index]?.title ?? null) : null,
    captions: transcripts.burn && cues.length > 0 ? cues : null,
  };
}
