import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeFilterValue } from "../../../render-container/src/ffmpeg/filter-escape";
import { runProcess, ProcessError } from "../../../render-container/src/ffmpeg/process";
import { createProgressParser, type FfmpegProgress } from "../../../render-container/src/ffmpeg/progress";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { runFfmpeg } from "../../../render-container/src/ffmpeg/run-ffmpeg";

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "ffmpeg-runner-"));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("createProgressParser", () => {
  it("emits one report per block, N/A as 0, and marks the end", () => {
    const got: FfmpegProgress[] = [];
    const feed = createProgressParser((p) => got.push(p));
    const lines = [
      "frame=0", "fps=0.00", "total_size=N/A", "out_time_us=N/A", "out_time_ms=N/A", "speed=N/A", "progress=continue",
      "frame=45", "fps=44.1", "total_size=262192", "out_time_us=1500000", "out_time_ms=1500000", "speed=1.47x", "progress=continue",
      "frame=90", "total_size=500000", "out_time_us=3000000", "speed=1.5x", "progress=end",
    ];
    lines.forEach(feed);
    expect(got).toEqual([
      { outTimeSeconds: 0, frame: 0, speed: null, totalSizeBytes: null, done: false },
      { outTimeSeconds: 1.5, frame: 45, speed: 1.47, totalSizeBytes: 262192, done: false },
      { outTimeSeconds: 3, frame: 90, speed: 1.5, totalSizeBytes: 500000, done: true },
    ]);
  });
});

describe("runFfmpeg", () => {
  it("reports monotonic progress fractions ending at 1", async () => {
    const fractions: number[] = [];
    const out = path.join(dir, "progress.mp4");
    await runFfmpeg(
      ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=4", "-c:v", "libx264", "-preset", "ultrafast", out],
      { expectedDurationSeconds: 4, onFraction: (f) => fractions.push(f) },
    );
    expect(fractions.length).toBeGreaterThan(0);
    expect(fractions.at(-1)).toBe(1);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]!).toBeGreaterThanOrEqual(fractions[i - 1]!);
    const info = await probeMedia(out);
    expect(info.video?.width).toBe(320);
    expect(info.durationSeconds).toBeCloseTo(4, 1);
  });

  it("fails with the end of ffmpeg's explanation", async () => {
    const err = await runFfmpeg(["-i", path.join(dir, "missing.ts"), "-f", "null", "-"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProcessError);
    const pe = err as ProcessError;
    expect(pe.exitCode).not.toBe(0);
    expect(pe.stderrTail).toMatch(/No such file or directory/);
    expect(pe.message).toMatch(/missing\.ts/);
  });

  it("kills the process when aborted and rejects with the abort reason", async () => {
    const ctrl = new AbortController();
    const started = Date.now();
    let frames = 0;
    const p = runFfmpeg(["-re", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-f", "null", "-"], {
      signal: ctrl.signal,
      onProgress: (pr) => {
        frames = pr.frame ?? frames;
        if (frames > 5) ctrl.abort(new Error("job cancelled"));
      },
    });
    await expect(p).rejects.toThrow("job cancelled");
    // `-re` with no duration would run forever: finishing at all proves the process was stopped.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("rejects at once when already aborted", async () => {
    await expect(runProcess("sleep", ["5"], { signal: AbortSignal.abort(new Error("early")) })).rejects.toThrow("early");
  });

  it("passes stderr lines to the caller (for filters that log results)", async () => {
    const lines: string[] = [];
    await runFfmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-af", "volumedetect", "-f", "null", "-"], {
      logLevel: "info",
      onStderrLine: (l) => lines.push(l),
    });
    expect(lines.some((l) => /mean_volume: -?\d/.test(l))).toBe(true);
  });
});

describe("escapeFilterValue", () => {
  it("gets hostile paths through the filtergraph parser intact", async () => {
    const nasty = path.join(dir, "we'ird:d,i[r];e\\ct%y $x");
    await fs.mkdir(nasty, { recursive: true });
    const textFile = path.join(nasty, "t'x:t.txt");
    await fs.writeFile(textFile, "Hello");
    const out = path.join(nasty, "frame.png");
    await runFfmpeg([
      "-f", "lavfi", "-i", "color=c=black:s=160x90:d=1",
      "-vf", `drawtext=fontfile=${escapeFilterValue("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")}:textfile=${escapeFilterValue(textFile)}:fontcolor=white`,
      "-frames:v", "1", out,
    ]);
    expect((await fs.stat(out)).size).toBeGreaterThan(0);
  });
});
