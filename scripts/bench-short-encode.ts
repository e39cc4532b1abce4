/**
 * The short's encode: CPU and quality per x264 preset (`npx tsx scripts/bench-short-encode.ts [--start=15120]
 * [--layout=fit] [--presets=veryfast:23,superfast:23,superfast:25]`; docs/BENCHMARKS.md, "The short's encode").
 * On the fan-out benchmark's cached 6-hour synthetic VOD (run `npm run bench:recut` first), a 30 s short is
 * rendered by the renderer's own renderShort (the layout, a title, word-highlighted captions from what the VOD
 * says there) once as a near-lossless reference (x264 `slow`, CRF 14) and once per preset:CRF; for each it prints
 * the FFmpeg child's CPU seconds, the file's bytes, and SSIM and PSNR against the reference (FFmpeg's `ssim` and
 * `psnr` filters). Figures, not assertions.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { synthCacheRoot } from "../dev/synth-vod";
import { wordsToCues, type Word } from "../render-container/src/captions";
import { renderShort } from "../render-container/src/render/render-short";

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]));
const START = Number(args.get("start") ?? 15120);
const LAYOUT = (args.get("layout") ?? "fit") as "fit" | "crop" | "split";
const PRESETS = (args.get("presets") ?? "veryfast:23,superfast:23,superfast:25").split(",").map((p) => p.split(":") as [string, string]);
const vodDir = path.join(synthCacheRoot(), "bench-fanout", "930000360");

/** CPU seconds of this process's reaped children (FFmpeg), from /proc/self/stat. */
function childCpu(): number {
  const f = readFileSync("/proc/self/stat", "latin1");
  const v = f.slice(f.lastIndexOf(")") + 2).split(" ").map(Number);
  return (v[13]! + v[14]!) / 100;
}

/** FFmpeg's comparison filter's summary against the reference (`All:` of ssim, `average:` of psnr; FFmpeg logs it). */
function metric(file: string, ref: string, filter: "ssim" | "psnr"): string {
  const run = spawnSync("ffmpeg", ["-nostdin", "-hide_banner", "-nostats", "-i", file, "-i", ref, "-lavfi", `[0:v][1:v]${filter}`, "-f", "null", "-"], { encoding: "utf8" });
  return (filter === "ssim" ? /All:([0-9.]+)/ : /average:([0-9.]+)/).exec(run.stderr)?.[1] ?? "?";
}

async function main() {
  const truth = JSON.parse(await readFile(path.join(vodDir, "truth.json"), "utf8")) as { sentences: { text: string; start: number; end: number }[]; renditions: { chunked: { file: string; start: number; duration: number }[] } };
  const dir = await mkdtemp(path.join(os.tmpdir(), "bench-short-encode-"));
  const end = START + 30;
  try {
    // The segments covering the short, byte-joined as a short task downloads them.
    const segs = truth.renditions.chunked.filter((s) => s.start + s.duration > START - 0.5 && s.start < end + 0.5);
    const clipPath = path.join(dir, "clip.ts");
    await writeFile(clipPath, Buffer.concat(await Promise.all(segs.map((s) => readFile(path.join(vodDir, "chunked", s.file))))));
    const clip = { path: clipPath, media_start_seconds: segs[0]!.start, media_end_seconds: segs.at(-1)!.start + segs.at(-1)!.duration };
    // Captions of what the VOD says there (its truth's sentences, spread over their time).
    const words: Word[] = truth.sentences
      .filter((s) => s.end > START && s.start < end)
      .flatMap((s) => s.text.split(/\s+/).map((w, i, all) => ({ word: w, start: s.start + ((s.end - s.start) * i) / all.length - START, end: s.start + ((s.end - s.start) * (i + 0.9)) / all.length - START })))
      .filter((w) => w.start >= 0 && w.start < 30);
    const render = async (name: string, preset: string, crf: string) => {
      process.env.X264_PRESET = preset;
      process.env.X264_CRF = crf;
      const c0 = childCpu();
      const r = await renderShort({ clip, start: START, end, layout: LAYOUT, titleText: "A bench title for the re-cut", captions: wordsToCues(words, { duration: 30 }), captionLook: "word_highlight", out: path.join(dir, `${name}.mp4`) });
      return { file: r.path, cpu: childCpu() - c0, bytes: r.size_bytes };
    };
    console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} on ${os.cpus().length} cores; short ${START}-${end} s, ${LAYOUT} layout`);
    const ref = await render("reference", "slow", "14");
    console.log(`reference (slow, CRF 14): ${ref.cpu.toFixed(1)} CPU s, ${(ref.bytes / 1e6).toFixed(1)} MB`);
    for (const [preset, crf] of PRESETS) {
      const r = await render(`${preset}-${crf}`, preset, crf);
      console.log(`${preset} CRF ${crf}: ${r.cpu.toFixed(1)} CPU s, ${(r.bytes / 1e6).toFixed(1)} MB, SSIM ${metric(r.file, ref.file, "ssim")}, PSNR ${metric(r.file, ref.file, "psnr")} dB`);
    }
    console.log(`load average at end: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
