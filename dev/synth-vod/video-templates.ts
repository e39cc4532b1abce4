import path from "node:path";
import { buildOnce, hashOf } from "./cache-dir";
import { run } from "./exec";
import { SCENES, SEGMENT_SECONDS, type SceneName } from "./plan";

/** Where the facecam overlay sits; "none" leaves it out (gameplay only; truth's rectangle is then 0x0). */
export type FacecamCorner = "top-left" | "bottom-right" | "none";

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TemplateParams {
  width: number;
  height: number;
  fps: number;
  facecamCorner: FacecamCorner;
  crf: number;
}

export interface VideoTemplates {
  files: Record<SceneName, string>;
  facecam: Rect;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

export function facecamRect(p: Pick<TemplateParams, "width" | "height" | "facecamCorner">): Rect {
  const width = even(p.width * 0.25);
  const height = even(width * 0.75);
  const margin = even(p.width / 64);
  if (p.facecamCorner === "none") return { x: 0, y: 0, width: 0, height: 0 };
  return p.facecamCorner === "top-left"
    ? { x: margin, y: margin, width, height }
    : { x: p.width - width - margin, y: p.height - height - margin, width, height };
}

/** One still frame per scene: the texture that scrolls by as "gameplay". Distinct enough that a cut is a cut. */
function textureSource(scene: SceneName, w: number, h: number): string {
  switch (scene) {
    case "arena":
      return `testsrc2=s=${w}x${h}:r=1:d=1`;
    case "caves":
      return `life=s=${even(w / 4)}x${even(h / 4)}:mold=10:r=1:ratio=0.12:seed=7:death_color=#101030:life_color=#30c060,scale=${w}:${h}:flags=neighbor,trim=start_frame=20:end_frame=21`;
    case "city":
      return `cellauto=s=${w}x${h}:rule=30:r=1:random_fill_ratio=0.5:random_seed=3:scroll=0,trim=start_frame=${h - 1}:end_frame=${h},eq=contrast=0.6:brightness=0.1,colorchannelmixer=rr=0.9:gg=0.6:bb=0.3`;
    case "space":
      return `mandelbrot=s=${w}x${h}:r=1:maxiter=256:start_scale=2.5,trim=end_frame=1`;
  }
}

/**
 * A 10-second clip that loops seamlessly: the texture scrolls exactly one width per 10 s and every moving part
 * has a period dividing 10 s, so repeated templates join without a visible jump (no false scene cuts).
 */
function templateGraph(scene: SceneName, p: TemplateParams, cam: Rect): string {
  const { width: w, height: h, fps } = p;
  const sprite = even(h / 9);
  const face = { w: even(cam.width * 0.35), h: even(cam.height * 0.55) };
  const overlay =
    p.facecamCorner === "none"
      ? [`[game]trim=duration=${SEGMENT_SECONDS},format=yuv420p[v]`]
      : [
          `color=c=0x7a3fbf:s=${cam.width}x${cam.height}:r=${fps}[cambg]`,
          `color=c=0xf0c8a0:s=${face.w}x${face.h}:r=${fps}[face]`,
          `[cambg][face]overlay=x='${(cam.width - face.w) / 2}+${cam.width / 8}*sin(2*PI*t/2.5)':y='${(cam.height - face.h) / 2}+${cam.height / 20}*sin(2*PI*t/2)':shortest=1,drawbox=x=0:y=0:w=iw:h=ih:color=white:t=${Math.max(2, even(cam.width / 50))}[cam]`,
          `[game][cam]overlay=x=${cam.x}:y=${cam.y}:shortest=1,trim=duration=${SEGMENT_SECONDS},format=yuv420p[v]`,
        ];
  return [
    `${textureSource(scene, w, h)},format=yuv420p,split[t1][t2]`,
    `[t1][t2]hstack,loop=loop=-1:size=1,setpts=N/${fps}/TB,fps=${fps},crop=w=${w}:h=${h}:x='mod(t*${w}/${SEGMENT_SECONDS},${w})':y=0[bg]`,
    `color=c=0xffcc00:s=${sprite}x${sprite}:r=${fps}[s1]`,
    `color=c=0xff3355:s=${sprite}x${sprite}:r=${fps}[s2]`,
    `[bg][s1]overlay=x='${w / 2}+${w / 3}*sin(2*PI*t/5)':y='${h / 2}+${h / 4}*cos(2*PI*t/5)':shortest=1[b1]`,
    `[b1][s2]overlay=x='${w / 2}+${w / 4}*sin(2*PI*t/2)':y='${h * 0.7}':shortest=1,drawbox=x=0:y=${h - even(h / 20)}:w=${w}:h=${even(h / 20)}:color=0x202020:t=fill[game]`,
    ...overlay,
  ].join(";");
}

/** Encodes the scene templates once per parameter set (x264 veryfast, keyframe every 2 s like Twitch). */
export async function ensureTemplates(cacheRoot: string, params: TemplateParams): Promise<VideoTemplates> {
  const cam = facecamRect(params);
  const dir = path.join(cacheRoot, `templates-${hashOf({ v: 3, ...params })}`);
  await buildOnce(dir, async (tmp) => {
    for (const scene of SCENES) {
      await run("ffmpeg", [
        "-hide_banner", "-loglevel", "error", "-y",
        "-filter_complex", templateGraph(scene, params, cam),
        "-map", "[v]",
        "-c:v", "libx264", "-preset", "veryfast", "-crf", String(params.crf), "-profile:v", "high",
        "-g", String(params.fps * 2), "-keyint_min", String(params.fps * 2), "-sc_threshold", "0",
        "-r", String(params.fps), "-frames:v", String(params.fps * SEGMENT_SECONDS),
        "-an", path.join(tmp, `${scene}.mp4`),
      ]);
    }
  });
  const files = Object.fromEntries(SCENES.map((s) => [s, path.join(dir, `${s}.mp4`)])) as Record<SceneName, string>;
  return { files, facecam: cam };
}
