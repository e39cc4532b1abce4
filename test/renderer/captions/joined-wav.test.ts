import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractJoinedWav, extractWav, locateInJoined } from "../../../render-container/src/captions/extract-wav";
import { PocketsphinxTranscriber } from "../../../render-container/src/captions/pocketsphinx";
import { packBins } from "../../../render-container/src/pipeline/stages/transcribe";
import { AUDIO_CLIP, makeAudioClip } from "../analysis/fixtures";
import { ffprobeJson } from "../../dev/media-probe";

let clipPath: string;
let dir: string;
beforeAll(async () => {
  clipPath = await makeAudioClip();
  dir = await mkdtemp(path.join(os.tmpdir(), "joined-wav-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const samples = async (file: string) => {
  const buf = await readFile(file);
  const data = buf.indexOf("data");
  const pcm = buf.subarray(data + 8);
  return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + (pcm.length & ~1)));
};

describe("several ranges in one wav for one recogniser run", () => {
  it("lays the ranges out with silent gaps, each exactly as a separate cut would be", async () => {
    const clip = { path: clipPath, media_start_seconds: 100, media_end_seconds: 100 + AUDIO_CLIP.duration };
    const layout = await extractJoinedWav([{ clip, start: 104, end: 110.5 }, { clip, start: 121, end: 125 }], 1, path.join(dir, "joined.wav"), { seekInput: true });
    expect(layout.offsets).toEqual([0, 7.5]);
    expect(layout.durations).toEqual([6.5, 4]);
    expect(layout.duration_seconds).toBeCloseTo(12.5, 6);
    const probed = (await ffprobeJson(layout.path, ["-show_format"])) as { format: { duration: string } };
    expect(Number(probed.format.duration)).toBeCloseTo(12.5, 1);

    const joined = await samples(layout.path);
    const second = await samples((await extractWav(clip, 121, 125, path.join(dir, "b.wav"))).path);
    const at = 7.5 * 16000;
    let err = 0;
    let energy = 0;
    for (let i = 0; i < second.length; i++) {
      err += (joined[at + i]! - second[i]!) ** 2;
      energy += second[i]! ** 2;
    }
    expect(energy).toBeGreaterThan(0);
    expect(err / energy).toBeLessThan(1e-3);
    // The gap after the first range is digital silence.
    expect(Math.max(...Array.from(joined.subarray(6.6 * 16000, 7.4 * 16000), Math.abs))).toBe(0);
  });

  it("maps times in the joined wav back to their range, and drops the gaps", () => {
    const layout = { offsets: [0, 7.5], durations: [6.5, 4] };
    expect(locateInJoined(layout, 3)).toEqual({ piece: 0, at: 3 });
    expect(locateInJoined(layout, 7)).toBeNull();
    expect(locateInJoined(layout, 8.25)).toEqual({ piece: 1, at: 0.75 });
    expect(locateInJoined(layout, 12)).toBeNull();
  });

  it("gives pocketsphinx's words VOD times inside the spoken range", async () => {
    const clip = { path: clipPath, media_start_seconds: 0, media_end_seconds: AUDIO_CLIP.duration };
    // The sentence is spoken from 5 s; the second range is the noise bed.
    const layout = await extractJoinedWav([{ clip, start: 14, end: 20 }, { clip, start: 4, end: 11 }].sort((a, b) => a.start - b.start), 1, path.join(dir, "speech.wav"));
    const words = await new PocketsphinxTranscriber().transcribe(layout.path, { language: "en" });
    const mapped = words.flatMap((w) => {
      const at = locateInJoined(layout, w.start);
      return at ? [{ word: w.word, piece: at.piece }] : [];
    });
    expect(mapped.filter((w) => w.piece === 0).length).toBeGreaterThanOrEqual(5);
  });
});

describe("packing ranges into recogniser runs", () => {
  const piece = (start: number, end: number) => ({ range: { start, end } });
  it("balances the pieces over the cores, keeps VOD order inside a run, and respects the size limit", () => {
    const bins = packBins([piece(0, 30), piece(100, 110), piece(200, 250), piece(300, 320)], 2, 600);
    expect(bins).toHaveLength(2);
    const seconds = bins.map((b) => b.reduce((s, p) => s + p.range.end - p.range.start, 0)).sort((a, b) => a - b);
    expect(seconds).toEqual([50, 60]);
    for (const b of bins) expect(b.map((p) => p.range.start)).toEqual([...b.map((p) => p.range.start)].sort((a, b) => a - b));
    expect(packBins([piece(0, 10)], 2, 600)).toHaveLength(1);
    expect(packBins([piece(0, 500), piece(600, 1100), piece(1200, 1700)], 2, 600)).toHaveLength(3);
  });
});
