import { readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildAnalysisArgs, DEFAULT_ANALYSIS_GRAPH } from "../../../render-container/src/analysis/analysis-filtergraph";
import { createMetadataLineParser, parseLevel } from "../../../render-container/src/analysis/metadata-lines";
import { createPcmAnalyser } from "../../../render-container/src/analysis/pcm-analyser";
import { runProcess } from "../../../render-container/src/ffmpeg/process";
import { runFfmpeg } from "../../../render-container/src/ffmpeg/run-ffmpeg";
import { AUDIO_CLIP, makeAudioClip } from "./fixtures";

const RATE = 8000;

function analyse(pcm: Buffer, chunking?: (i: number) => number) {
  const blocks: { time: number; m: number }[] = [];
  const silences: { start: number; end: number }[] = [];
  const a = createPcmAnalyser({ ...DEFAULT_ANALYSIS_GRAPH, onBlock: (time, m) => blocks.push({ time, m }), onSilence: (start, end) => silences.push({ start, end }) });
  if (!chunking) a.push(pcm);
  else
    for (let i = 0, k = 0; i < pcm.length; k++) {
      const n = Math.min(chunking(k), pcm.length - i);
      // Copied to an odd offset of a larger buffer, so a typed-array view would be misaligned.
      const host = Buffer.alloc(n + 1);
      pcm.copy(host, 1, i, i + n);
      a.push(host.subarray(1));
      i += n;
    }
  const envelope = a.finish();
  return { blocks, silences, envelope, samples: a.samples, frameSeconds: a.envelopeFrameSeconds };
}

function s16(samples: number[]): Buffer {
  const b = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => b.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(s))), i * 2));
  return b;
}

describe("PCM analyser: known signals", () => {
  it("gives a 1 kHz sine's level in the voice band and its loudness", () => {
    // Amplitude 0.5: power 0.125 = -9.03 dBFS. K-weighting adds ~+0.7 dB at 1 kHz; LUFS = -0.691 + that.
    const sine = s16(Array.from({ length: RATE * 2 }, (_, i) => 16384 * Math.sin((2 * Math.PI * 1000 * i) / RATE)));
    const r = analyse(sine);
    expect(r.samples).toBe(RATE * 2);
    expect(r.envelope).toHaveLength(100);
    for (const db of r.envelope.slice(5)) expect(db).toBeCloseTo(-9.03, 0);
    expect(r.blocks).toHaveLength(20);
    // Once the 400 ms window is full, the momentary loudness is steady.
    const steady = r.blocks.slice(4).map((b) => b.m);
    for (const m of steady) expect(Math.abs(m - steady[0]!)).toBeLessThan(0.05);
    expect(steady[0]!).toBeGreaterThan(-9.03 - 0.691);
    expect(steady[0]!).toBeLessThan(-9.03 - 0.691 + 1.5);
    expect(r.silences).toEqual([]);
  });

  it("finds digital silence of at least the minimum length, and not a shorter gap", () => {
    const tone = (n: number) => Array.from({ length: n }, (_, i) => 8000 * Math.sin(i / 3));
    const pcm = s16([...tone(RATE), ...new Array(RATE / 2).fill(0), ...tone(RATE), ...new Array(RATE / 10).fill(0), ...tone(RATE), ...new Array(RATE).fill(0)]);
    const r = analyse(pcm);
    // The tone's zero crossings are single quiet samples, far shorter than 0.3 s.
    expect(r.silences.length).toBe(2);
    expect(r.silences[0]!.start).toBeCloseTo(1, 2);
    expect(r.silences[0]!.end).toBeCloseTo(1.5, 2);
    // A silence still running at the end closes there.
    expect(r.silences[1]!.start).toBeCloseTo(3.6, 2);
    expect(r.silences[1]!.end).toBeCloseTo(4.6, 3);
    // Silence reads as the floor.
    expect(r.blocks.at(-1)!.m).toBe(-120);
  });

  it("gives the same result however the bytes are chunked (odd splits, unaligned buffers)", () => {
    const pcm = s16(Array.from({ length: RATE * 3 }, (_, i) => 10000 * Math.sin(i / 7) * (i % 4000 < 2000 ? 1 : 0.001)));
    const whole = analyse(pcm);
    const pieces = analyse(pcm, (k) => 1 + ((k * 7) % 13));
    expect(Array.from(pieces.envelope)).toEqual(Array.from(whole.envelope));
    expect(pieces.blocks).toEqual(whole.blocks);
    expect(pieces.silences).toEqual(whole.silences);
  });
});

/**
 * The analyser replaces FFmpeg's ebur128, silencedetect and highpass/lowpass filters: on the same PCM (speech,
 * noise, a tone burst, digital silence) it must report what those filters report.
 */
describe("PCM analyser against FFmpeg's own filters", () => {
  let pcm: Buffer;
  let pcmPath: string;
  const raw = ["-f", "s16le", "-ar", String(RATE), "-ac", "1"];

  beforeAll(async () => {
    const clip = await makeAudioClip();
    pcmPath = path.join(os.tmpdir(), `pcm-analyser-${process.pid}.s16`);
    const args = buildAnalysisArgs(clip);
    await runProcess("ffmpeg", [...args.slice(0, -1), "-y", pcmPath]);
    pcm = await readFile(pcmPath);
    return () => rm(pcmPath, { force: true });
  }, 60_000);

  it("momentary loudness matches ebur128 block by block", async () => {
    const ours = analyse(pcm).blocks;
    const theirs: number[] = [];
    // ebur128 prints `nan` for a window of digital silence: the floor.
    const parser = createMetadataLineParser((f) => theirs.push(parseLevel(f.values.get("lavfi.r128.M")) ?? -120));
    // 100 ms frames, so each frame carries the value of exactly one block.
    const out = await runProcess("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", ...raw, "-i", pcmPath, "-af", `asetnsamples=n=${RATE / 10}:p=0,ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.M:file=-`, "-f", "null", "-"], { collectStdout: true });
    for (const line of out.stdout.toString("utf8").split("\n")) parser.push(line);
    parser.end();
    expect(theirs.length).toBe(AUDIO_CLIP.duration * 10);
    expect(ours.length).toBe(theirs.length);
    let compared = 0;
    const off: string[] = [];
    for (let k = 0; k < theirs.length; k++) {
      expect(ours[k]!.time).toBeCloseTo(k / 10, 6);
      if (theirs[k]! < -70) {
        if (!(ours[k]!.m < -60)) off.push(`${k}: ${ours[k]!.m} vs ${theirs[k]}`);
        continue;
      }
      if (!(Math.abs(ours[k]!.m - theirs[k]!) < 0.1)) off.push(`${k}: ${ours[k]!.m} vs ${theirs[k]}`);
      compared++;
    }
    expect(off).toEqual([]);
    expect(compared).toBeGreaterThan(300);
  }, 60_000);

  it("silences match silencedetect's to the sample", async () => {
    const ours = analyse(pcm).silences;
    const g = DEFAULT_ANALYSIS_GRAPH;
    const lines: string[] = [];
    await runProcess("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "info", ...raw, "-i", pcmPath, "-af", `silencedetect=n=${g.silenceThresholdDb}dB:d=${g.silenceMinSeconds}`, "-f", "null", "-"], { onStderrLine: (l) => lines.push(l) });
    const starts = lines.flatMap((l) => /silence_start: (-?[\d.]+)/.exec(l)?.[1] ?? []).map(Number);
    const ends = lines.flatMap((l) => /silence_end: ([\d.]+)/.exec(l)?.[1] ?? []).map(Number);
    expect(starts.length).toBeGreaterThan(0);
    expect(ours.map((s) => s.start).length).toBe(starts.length);
    ours.forEach((s, i) => {
      expect(Math.abs(s.start - starts[i]!)).toBeLessThan(0.002);
      // The clip's muted stretch is the one silence, and it ends before the clip does.
      expect(Math.abs(s.end - ends[i]!)).toBeLessThan(0.002);
    });
    expect(ours[0]!.start).toBeCloseTo(AUDIO_CLIP.silence.start, 0);
    expect(ours[0]!.end).toBeCloseTo(AUDIO_CLIP.silence.end, 0);
  }, 60_000);

  it("the voice-band envelope matches highpass=300 + lowpass=3000", async () => {
    const ours = analyse(pcm);
    const out = await runProcess("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", ...raw, "-i", pcmPath, "-af", "highpass=f=300,lowpass=f=3000", "-f", "f32le", "-c:a", "pcm_f32le", "-"], { collectStdout: true });
    const y = new Float32Array(out.stdout.buffer.slice(out.stdout.byteOffset, out.stdout.byteOffset + out.stdout.byteLength));
    const frame = Math.round(RATE * ours.frameSeconds);
    expect(ours.envelope.length).toBe(Math.ceil(y.length / frame));
    let compared = 0;
    // The first frames hold the filters' start-up transient.
    for (let f = 5; f < Math.floor(y.length / frame); f++) {
      let sum = 0;
      for (let i = f * frame; i < (f + 1) * frame; i++) sum += y[i]! * y[i]!;
      const db = 10 * Math.log10(sum / frame);
      if (!(db > -80)) continue;
      expect(Math.abs(ours.envelope[f]! - db)).toBeLessThan(0.1);
      compared++;
    }
    expect(compared).toBeGreaterThan(1500);
  }, 60_000);
});
