/**
 * Measures rendering speed and memory on this machine and prints the figures (no assertions: targets are
 * judged by people, not by timed tests). Run: `npx tsx scripts/bench-encode.ts [--short=45]
 * [--segments=4] [--segment=40] [--only=shorts|reel|asr]`.
 * Memory is the peak summed RSS of the ffmpeg/pocketsphinx children, sampled every 100 ms. CPU is the
 * children's user+system time (from /proc/self/stat), which, unlike wall time, does not depend on what else
 * the machine is doing; "x realtime" assumes the load average printed at the start.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeSourceClip } from "../test/support/media";
import { captionRange } from "../render-container/src/captions/caption-range";
import { PocketsphinxTranscriber } from "../render-container/src/captions/pocketsphinx";
import { renderReel } from "../render-container/src/render/render-reel";
import { renderShort } from "../render-container/src/render/render-short";

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]));
const num = (k: string, d: number) => (args.has(k) ? Number(args.get(k)) : d);
const only = args.get("only");

/** CPU seconds used by finished children of this process (cutime + cstime, clock ticks of 1/100 s). */
function childCpuSeconds(): number {
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields after the command name start at field 3 (state); cutime and cstime are fields 16 and 17.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Wall time, children's CPU time and peak total RSS (MB) of our child processes while `fn` runs. */
async function measure<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number; cpuSeconds: number; peakMb: number }> {
  let peak = 0;
  const sample = () => {
    let total = 0;
    for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        if (!/^PPid:\s+(\d+)$/m.exec(status) || Number(/^PPid:\s+(\d+)$/m.exec(status)![1]) !== process.pid) continue;
        total += Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) / 1024;
      } catch {
        // The process ended between listing and reading.
      }
    }
    peak = Math.max(peak, total);
  };
  const timer = setInterval(sample, 100);
  const started = performance.now();
  const cpuBefore = childCpuSeconds();
  try {
    const result = await fn();
    return { result, seconds: (performance.now() - started) / 1000, cpuSeconds: childCpuSeconds() - cpuBefore, peakMb: Math.round(peak) };
  } finally {
    clearInterval(timer);
  }
}

function line(label: string, mediaSeconds: number, m: { seconds: number; cpuSeconds: number; peakMb: number }, extra = "") {
  console.log(
    `${label.padEnd(42)} ${mediaSeconds.toFixed(1).padStart(6)} s media  ${m.seconds.toFixed(1).padStart(6)} s wall  ` +
      `${(mediaSeconds / m.seconds).toFixed(2).padStart(5)}x realtime  ${(m.cpuSeconds / mediaSeconds).toFixed(2).padStart(5)} cpu-s/media-s  ` +
      `peak ${String(m.peakMb).padStart(4)} MB  ${extra}`,
  );
}

async function main() {
  const shortSeconds = num("short", 45);
  const segments = num("segments", 4);
  const segmentSeconds = num("segment", 40);
  const sourceSeconds = Math.max(shortSeconds + 10, segments * (segmentSeconds + 2) + 10);
  const speech = Array.from({ length: Math.floor(sourceSeconds / 6) }, (_, i) => ({
    at: 1 + i * 6,
    text: ["hello everyone and welcome back to the stream", "this boss fight is really hard", "thank you for watching"][i % 3]!,
  }));
  console.log(`cpus ${os.cpus().length}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, node ${process.version}; preparing a ${sourceSeconds} s 720p30 source...`);
  const clip = await makeSourceClip({ durationSeconds: sourceSeconds, mediaStartSeconds: 1000, speech, facecam: { x: 0, y: 0, w: 320, h: 180, color: "0x00C000" } });
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "render-bench-"));
  const S = clip.media_start_seconds;

  try {
    if (!only || only === "shorts") {
      const captions = Array.from({ length: Math.floor(shortSeconds / 3) }, (_, i) => ({ start: i * 3, end: i * 3 + 2.8, text: `caption number ${i + 1}` }));
      for (const layout of ["crop", "fit", "split"] as const) {
        const m = await measure(() =>
          renderShort({ clip, start: S + 5, end: S + 5 + shortSeconds, layout, out: path.join(out, `short-${layout}.mp4`), titleText: "Benchmark title", captions, frame: { enabled: true, color: "violet" } }),
        );
        line(`short 1080x1920 ${layout} (+title, captions)`, shortSeconds, m, `${(m.result.size_bytes / 1e6).toFixed(1)} MB`);
      }
    }
    if (!only || only === "reel") {
      const segs = Array.from({ length: segments }, (_, i) => ({ clip, start: S + 2 + i * (segmentSeconds + 2), end: S + 2 + i * (segmentSeconds + 2) + segmentSeconds, titleText: `Moment ${i + 1}` }));
      const coldOpen = segs.slice(0, 3).map((s) => ({ clip, start: s.start + 5, end: s.start + 8 }));
      const total = segments * segmentSeconds + coldOpen.length * 3;
      for (const concurrency of [1, 2]) {
        const m = await measure(() => renderReel({ segments: segs, coldOpen, titleCards: true, out: path.join(out, `reel-${concurrency}.mp4`), concurrency }));
        line(`reel 1280x720, ${concurrency} piece(s) at a time`, total, m, `${(m.result.size_bytes / 1e6).toFixed(1)} MB, ${m.result.duration_seconds.toFixed(2)} s`);
      }
    }
    if (!only || only === "asr") {
      const m = await measure(() => captionRange(new PocketsphinxTranscriber(), clip, S, S + shortSeconds, { language: "en", workDir: out }));
      line("extractWav + pocketsphinx", shortSeconds, m, `${m.result.words.length} words, ${m.result.cues.length} cues`);
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
