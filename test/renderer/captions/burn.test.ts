import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAssScript, SRT_FORCE_STYLE } from "../../../render-container/src/captions/ass";
import { formatSrt } from "../../../render-container/src/captions/srt";
import { escapeFilterValue } from "../../../render-container/src/ffmpeg/filter-escape";
import { runProcess } from "../../../render-container/src/ffmpeg/process";
import { BOLD_FONT_FILE, FONTS_DIR } from "../../../render-container/src/render/fonts";
import { FontMetrics } from "../../../render-container/src/chat-overlay/font-metrics";
import { captionBandTop } from "../../../render-container/src/chat-overlay/placement";

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "burn-test-"));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const SIZE = { width: 270, height: 480 };
const CUES = [{ start: 0, end: 2, text: "Caption text here" }];

/** One grey frame at t=1 with `filter` applied, as RGB bytes. */
async function frameWith(filter: string, size = SIZE): Promise<Buffer> {
  const { stdout } = await runProcess(
    "ffmpeg",
    ["-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", `color=c=gray:s=${size.width}x${size.height}:r=10:d=2`,
      "-vf", `${filter},select=gte(t\\,1)`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    { collectStdout: true },
  );
  return stdout;
}

/** Rows (top to bottom) containing near-white caption pixels. */
function whiteRows(frame: Buffer, size = SIZE): number[] {
  const rows: number[] = [];
  for (let y = 0; y < size.height; y++) {
    for (let x = 0; x < size.width; x++) {
      const i = (y * size.width + x) * 3;
      if (frame[i]! > 230 && frame[i + 1]! > 230 && frame[i + 2]! > 230) {
        rows.push(y);
        break;
      }
    }
  }
  return rows;
}

describe("burning captions with libass", () => {
  it("the ASS script draws white captions in the lower part, clear of the bottom edge", async () => {
    const ass = path.join(dir, "c.ass");
    await fs.writeFile(ass, buildAssScript(CUES, { ...SIZE, fontName: "DejaVu Sans" }));
    const rows = whiteRows(await frameWith(`subtitles=filename=${escapeFilterValue(ass)}:fontsdir=${escapeFilterValue(FONTS_DIR)}`));
    expect(rows.length).toBeGreaterThan(8);
    expect(Math.min(...rows)).toBeGreaterThan(SIZE.height * 0.55);
    expect(Math.max(...rows)).toBeLessThan(SIZE.height * 0.85);
  });

  it("draws them at clip-tool size: capital letters stand 3 % of the height (a 5 % bold font), readable on a phone", async () => {
    // Half a 1080x1920 short. DejaVu Sans Bold's capitals are 0.73 em: 35 rows at 5 % of 960 (white inside the
    // outline: about 30); the earlier 3.8 % drew 22 rows, 26 points on a phone.
    const size = { width: 540, height: 960 };
    const ass = path.join(dir, "size.ass");
    await fs.writeFile(ass, buildAssScript([{ start: 0, end: 2, text: "HIH" }], { ...size, fontName: "DejaVu Sans" }));
    const rows = whiteRows(await frameWith(`subtitles=filename=${escapeFilterValue(ass)}:fontsdir=${escapeFilterValue(FONTS_DIR)}`, size), size);
    expect(rows.length, `rows of capital letters: ${rows.length}`).toBeGreaterThanOrEqual(Math.round(size.height * 0.03));
    expect(Math.max(...rows) - Math.min(...rows) + 1).toBe(rows.length);
  });

  it("keeps every caption within the two-line band the chat is placed above, shrinking only what two lines cannot hold", async () => {
    // Half a short. At 48 px the first caption needs three lines of libass's own wrapping; the second fits two.
    const size = { width: 540, height: 960 };
    const font = new FontMetrics(BOLD_FONT_FILE);
    const measure = (text: string, px: number) => font.width(text, px);
    const cues = [
      { start: 0, end: 2, text: "we are going to win this game right now okay" },
      { start: 2, end: 4, text: "we are going to win this" },
    ];
    const script = buildAssScript(cues, { ...size, fontName: "DejaVu Sans", measure });
    const rowsOf = async (cue: number) => {
      const one = path.join(dir, `line-${cue}.ass`);
      await fs.writeFile(one, buildAssScript([{ ...cues[cue]!, start: 0, end: 2 }], { ...size, fontName: "DejaVu Sans", measure }));
      return whiteRows(await frameWith(`subtitles=filename=${escapeFilterValue(one)}:fontsdir=${escapeFilterValue(FONTS_DIR)}`, size), size);
    };
    // Lines of text: runs of rows with white letters, apart by more blank rows than between an i and its dot.
    const lines = (rows: number[]) => rows.filter((y, i) => i === 0 || y - rows[i - 1]! > 6).length;
    const long = await rowsOf(0);
    expect(lines(long)).toBe(2);
    expect(Math.min(...long), `long caption's top row ${Math.min(...long)}, band from ${captionBandTop(size)}`).toBeGreaterThanOrEqual(captionBandTop(size));
    expect(script).toMatch(/\\fs\d+\}we are going/);
    const fits = await rowsOf(1);
    expect(lines(fits)).toBe(2);
    expect(Math.min(...fits)).toBeGreaterThanOrEqual(captionBandTop(size));
    // Two lines at the full size: as tall as two lines of 48 px capitals and x-height letters can be.
    expect(Math.max(...fits) - Math.min(...fits)).toBeGreaterThan(60);
    expect(script).toMatch(/Default,,0,0,0,,we are going\\Nto win this$/m);
  });

  it("an .srt with SRT_FORCE_STYLE looks the same way", async () => {
    const srt = path.join(dir, "c.srt");
    await fs.writeFile(srt, formatSrt(CUES));
    const rows = whiteRows(
      await frameWith(`subtitles=filename=${escapeFilterValue(srt)}:fontsdir=${escapeFilterValue(FONTS_DIR)}:force_style=${escapeFilterValue(SRT_FORCE_STYLE)}`),
    );
    expect(rows.length).toBeGreaterThan(8);
    expect(Math.min(...rows)).toBeGreaterThan(SIZE.height * 0.55);
    expect(Math.max(...rows)).toBeLessThan(SIZE.height * 0.9);
  });
});
