import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAssScript } from "../../../render-container/src/captions/ass";
import { escapeFilterValue } from "../../../render-container/src/ffmpeg/filter-escape";
import { runProcess } from "../../../render-container/src/ffmpeg/process";
import { BOLD_FONT_FILE, CAPTION_FONT_NAME, CJK_FONT_FILE, FONTS_DIR, hasCjk, titleFontFor } from "../../../render-container/src/render/fonts";
import { titleOverlayFilters } from "../../../render-container/src/render/title-overlay";

const W = 640;
const H = 200;

/** One grey frame of a black canvas with the given filter chain applied. */
async function frame(filters: string): Promise<Buffer> {
  const out = await runProcess(
    "ffmpeg",
    ["-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", `color=c=black:s=${W}x${H}:d=1:r=1`, "-vf", `${filters},format=gray`, "-frames:v", "1", "-f", "rawvideo", "-"],
    { collectStdout: true },
  );
  expect(out.stdout.length).toBe(W * H);
  return out.stdout;
}

const lit = (f: Buffer) => f.reduce((n, v) => n + (v > 128 ? 1 : 0), 0);

describe("CJK text in titles and captions", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cjk-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("knows CJK text and picks the CJK font for it", () => {
    expect(hasCjk("加藤純一の配信")).toBe(true);
    expect(hasCjk("한국어 방송")).toBe(true);
    expect(hasCjk("ｸﾗｯﾁ")).toBe(true);
    expect(hasCjk("Clutch ace, ça va")).toBe(false);
    expect(titleFontFor("Clutch ace").file).toBe(BOLD_FONT_FILE);
    expect(titleFontFor("加藤 clutch", "/nonexistent/font.ttc").file).toBe(BOLD_FONT_FILE);
    expect(existsSync(CJK_FONT_FILE)).toBe(true);
    expect(titleFontFor("加藤 clutch")).toEqual({ file: CJK_FONT_FILE, emPerChar: 1.0 });
  });

  // Missing glyphs render as identical boxes, so two different strings of the same length would give the same
  // picture: different pictures mean real glyphs.
  const a = "加藤純一最高";
  const b = "한국어방송끝";

  it("draws titles with real glyphs (DejaVu alone draws the same boxes for both)", async () => {
    const title = async (text: string, name: string) => frame(await titleOverlayFilters({ text, frameWidth: W, fontSize: 48, top: Math.round(H / 2 - 70), showSeconds: 5, maxLines: 2, workDir: dir, name }));
    const [fa, fb] = [await title(a, "a"), await title(b, "b")];
    expect(lit(fa)).toBeGreaterThan(500);
    expect(lit(fb)).toBeGreaterThan(500);
    expect(fa.equals(fb)).toBe(false);

    // The control: the same strings in DejaVu are boxes, identical for both.
    const dejavu = async (text: string, name: string) => {
      const file = path.join(dir, `${name}.txt`);
      await writeFile(file, text);
      return frame(`drawtext=fontfile=${escapeFilterValue(BOLD_FONT_FILE)}:textfile=${escapeFilterValue(file)}:expansion=none:fontsize=48:fontcolor=white:x=20:y=60`);
    };
    expect((await dejavu(a, "da")).equals(await dejavu(b, "db"))).toBe(true);
  }, 30_000);

  it("wraps a long CJK title within the frame", async () => {
    const long = "今日の配信で一番面白かった瞬間をまとめました本当にありがとう";
    const f = await frame(await titleOverlayFilters({ text: long, frameWidth: W, fontSize: 40, top: Math.round(H / 2 - 58), showSeconds: 5, maxLines: 2, workDir: dir, name: "long" }));
    // Nothing drawn in the outermost 2 % on either side: the lines were wrapped for full-width characters.
    const margin = Math.floor(W * 0.02);
    for (let y = 0; y < H; y++) for (const x of [...Array(margin).keys(), ...Array.from({ length: margin }, (_, i) => W - 1 - i)]) expect(f[y * W + x]).toBeLessThan(64);
    expect(lit(f)).toBeGreaterThan(1000);
  }, 30_000);

  it("burns CJK captions with real glyphs (libass falls back from DejaVu to the CJK font)", async () => {
    const caption = async (text: string, name: string) => {
      const ass = path.join(dir, `${name}.ass`);
      await writeFile(ass, buildAssScript([{ start: 0, end: 5, text }], { width: W, height: H, fontName: CAPTION_FONT_NAME, fontScale: 0.2, bottomMargin: 0.2 }), "utf8");
      return frame(`subtitles=filename=${escapeFilterValue(ass)}:fontsdir=${escapeFilterValue(FONTS_DIR)}`);
    };
    const [fa, fb] = [await caption(a, "ca"), await caption(b, "cb")];
    expect(lit(fa)).toBeGreaterThan(300);
    expect(fa.equals(fb)).toBe(false);
  }, 30_000);
});
