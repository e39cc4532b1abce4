import type { NormalizedParameters } from "../../../../common/contract/normalized-request";
import type { ShortRenderOptions } from "../../render";
import { facecamPixels, type RelativeRect } from "../../render/facecam";
import type { Size } from "../../render/types";
import type { ClipSource } from "../../source";
import type { PlannedShort } from "../render-plan";
import type { Texts } from "./write-texts";
import type { Transcripts } from "./transcribe";

type WhatToDraw<T> = Omit<T, "out" | "signal" | "onProgress" | "concurrency" | "size">;

/** Everything a short's look is decided from. */
export interface ShortToDraw {
  short: PlannedShort;
  clip: ClipSource;
  /** The clip's picture size (the facecam region is given in shares of it). */
  source: Size;
  texts: Pick<Texts, "shorts">;
  transcripts: Pick<Transcripts, "burn" | "cuesFor">;
  parameters: NormalizedParameters;
  facecam: RelativeRect;
}

/**
 * What a short shows, from the request's parameters: layout (split ratio, facecam region in this source's
 * pixels, outline colour), the title flash when shorts_title_card_enabled, burned captions when burn_captions
 * (and something was said).
 */
export function shortOptions(what: ShortToDraw): WhatToDraw<ShortRenderOptions> {
  const { short, clip, source, texts, transcripts, parameters: p, facecam } = what;
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
