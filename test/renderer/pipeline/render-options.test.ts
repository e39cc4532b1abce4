import { describe, expect, it } from "vitest";
import type { NormalizedParameters } from "../../../common/contract/normalized-request";
import type { Cue } from "../../../render-container/src/captions/types";
import { shortOptions } from "../../../render-container/src/pipeline/stages/render-options";
import { DEFAULT_FACECAM_REGION, type RelativeRect } from "../../../render-container/src/render/facecam";
import type { ClipSource } from "../../../render-container/src/source";
import { moment, normalizedRequest } from "./plan-fixtures";

/** From the request's parameters to what each render draws: a wrong wire here would not show in any layout test. */
const clip: ClipSource = { path: "/tmp/clip.ts", media_start_seconds: 90, media_end_seconds: 250, bytes: 1, muted_ranges: [] };
const m1 = moment(100, 130, 0.9);
const cues: Cue[] = [{ start: 0.5, end: 2, text: "we are going to win" }];
const texts = { moments: new Map([[m1, { story: "s", title: "The clutch" }]]), shorts: { 1: { title: "Short title", description: "d", tags: ["t"] } } };
const source = { width: 1280, height: 720 };

describe("shortOptions", () => {
  const short = { index: 1, moment: m1 };
  const transcripts = (burn: boolean, said: Cue[] = cues) => ({ burn, cuesFor: () => said });
  const draw = (parameters: NormalizedParameters, o: { burn?: boolean; said?: Cue[]; facecam?: RelativeRect } = {}) =>
    shortOptions({ short, clip, source, texts, transcripts: transcripts(o.burn ?? true, o.said), parameters, facecam: o.facecam ?? DEFAULT_FACECAM_REGION });

  it("draws the split layout as asked: ratio, facecam region in source pixels, outline colour", () => {
    const p = normalizedRequest({ parameters: { shorts_crop_mode: "split", shorts_split_ratio: 0.35, shorts_facecam_frame_enabled: true, shorts_facecam_frame_color: "black" } }).parameters;
    const o = draw(p);
    expect(o).toMatchObject({ clip, start: 100, end: 130, layout: "split", splitRatio: 0.35, frame: { enabled: true, color: "black" } });
    expect(o.facecam).toEqual({ x: 0, y: 0, w: 320, h: 180 });
    expect(draw(p, { facecam: { x: 0.5, y: 0.5, w: 0.5, h: 0.5 } }).facecam).toEqual({ x: 640, y: 360, w: 640, h: 360 });
  });

  it("flashes the generated title only when shorts_title_card_enabled", () => {
    const on = normalizedRequest({ parameters: { shorts_title_card_enabled: true } }).parameters;
    expect(draw(on).titleText).toBe("Short title");
    expect(draw(normalizedRequest().parameters).titleText).toBeNull();
  });

  it("burns captions only when burn_captions and something was said", () => {
    const p = normalizedRequest().parameters;
    expect(draw(p).captions).toEqual(cues);
    expect(draw(p, { burn: false }).captions).toBeNull();
    expect(draw(p, { said: [] }).captions).toBeNull();
  });
});
