import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAssScript, SRT_FORCE_STYLE } from "../../../render-container/src/captions/ass";
import { formatSrt } from "../../../render-container/src/captions/srt";
import { escapeFilterValue } from "../../../render-container/src/ffmpeg/filter-escape";
import { runProcess } from "../../../render-container/src/ffmpeg/process";
import { FONTS_DIR } from "../../../render-container/src/render/fonts";

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
async function frameWith(filter: string): Promise<Buffer> {
  const { stdout } = await runProcess(
    "ffmpeg",
    ["-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", `color=c=gray:s=${SIZE.width}x${SIZE.height}:r=10:d=2`,
      "-vf", `${filter},select=gte(t\\,1)`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    { collectStdout: true },
  );
  return stdout;
}

/** Rows (top to bottom) containing near-white caption pixels. */
function whiteRows(frame: Buffer): number[] {
  const rows: number[] = [];
  for (let y = 0; y < SIZE.height; y++) {
    for (let x = 0; x < SIZE.width; x++) {
      const i = (y * SIZE.width + x) * 3;
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
