/**
 * Why a re-cut's words are heard from the short's video, not from the audio rendition
 * (`npx tsx scripts/eval-recut-captions.ts [--ranges=4] [--starts=s1,s2]`; render-container/src/pipeline/reuse/
 * recut-captions.ts, docs/TASK-MODEL.md). The audio rendition (as the analysis reads it: transcribeRanges, input
 * seeking, a second of silence after) and the video's audio (as a short task reads it: short-speech.ts) carry the
 * same sound, but the two renditions' packets sit a few milliseconds apart, enough for a borderline word to come
 * out otherwise. On the
 * fan-out benchmark's cached 6-hour synthetic VOD (run `npm run bench:recut` or `bench:fanout` first), for
 * `--ranges` 30 s ranges spread over it, both passes are made with the real recogniser and the captions' rules,
 * and each shown word is judged against what the VOD says (its truth file: a word of a sentence said within a
 * second of it). Prints right and wrong words per pass and in total. Figures, not assertions.
 *
 * `--join` checks instead a re-cut that takes an earlier short's words (render-container/src/pipeline/reuse/
 * recut-join.ts): for each range, the earlier short is heard as a short task hears it; then for each of a few moved
 * bounds (`--shifts=-4:-3,3:5,-5:5`, seconds added to the start and the end) the re-cut's range is heard whole as
 * its own short would hear it, and joined (the earlier words over the shared part, cut at the analysis' pauses
 * found on that stretch of audio; the edges heard from the video as the analysis task hears them). Prints both
 * passes' right and wrong shown words, and the recogniser's CPU seconds of each.
 *
 * `--halves` checks a proposal, not built (docs/BENCHMARKS.md, "A re-cut on a class of its own"): a range heard whole
 * against the same range heard as two halves cut at the analysis' pause nearest its middle, each with CONTEXT_S of
 * the other half whose words are dropped (as the join hears its edges), so that on 4 vCPU the two halves' searches
 * run side by side. Prints both passes' right and wrong shown words and the recogniser's CPU seconds.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readFileSync } from "node:fs";
import { createTranscriber, extractJoinedWav, locateInJoined, trustedWords, type Word } from "../render-container/src/captions";
import { analyzeAudio } from "../render-container/src/analysis";
import { silentLogger } from "../render-container/src/log";
import { heardWordsObject } from "../render-container/src/pipeline/reuse/heard-words";
import { CONTEXT_S, planRecutJoin } from "../render-container/src/pipeline/reuse/recut-join";
import { rangesToHear, withKept } from "../render-container/src/pipeline/reuse/recut-captions";
import { transcribeRanges } from "../render-container/src/pipeline/stages/transcribe";
import { planCaptions } from "../render-container/src/captions";
import { synthCacheRoot } from "../dev/synth-vod";

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]));
const STARTS = args.get("starts")?.split(",").map(Number);
const RANGES = STARTS?.length ?? Number(args.get("ranges") ?? 4);
const SECONDS = 30;
const vodDir = path.join(synthCacheRoot(), "bench-fanout", "930000360");

interface Truth {
  duration_seconds: number;
  sentences: { text: string; start: number; end: number }[];
  renditions: Record<"chunked" | "audio_only", { file: string; start: number; duration: number }[]>;
}

/** The rendition's segments covering start..end (one before, as the downloads pad), byte-joined like a download. */
async function covering(truth: Truth, rendition: "chunked" | "audio_only", start: number, end: number, dir: string) {
  const segs = truth.renditions[rendition].filter((s) => s.start + s.duration > start - 10 && s.start < end);
  const file = path.join(dir, `${rendition}-${start}.ts`);
  await writeFile(file, Buffer.concat(await Promise.all(segs.map((s) => readFile(path.join(vodDir, rendition, s.file))))));
  return { path: file, media_start_seconds: segs[0]!.start, media_end_seconds: segs.at(-1)!.start + segs.at(-1)!.duration, bytes: 0, muted_ranges: [] };
}

async function main() {
  const truth = JSON.parse(await readFile(path.join(vodDir, "truth.json"), "utf8")) as Truth;
  const dir = await mkdtemp(path.join(os.tmpdir(), "eval-recut-captions-"));
  const transcriber = createTranscriber({});
  const said = (w: Word, at0: number) => truth.sentences.some((s) => s.start - 1 <= at0 + w.start && at0 + w.start <= s.end + 1 && s.text.toLowerCase().replace(/[^a-z' ]/g, " ").split(/\s+/).includes(w.word.toLowerCase()));
  const total = { analysis: { right: 0, wrong: 0 }, own: { right: 0, wrong: 0 } };
  try {
    for (let k = 0; k < RANGES; k++) {
      const start = STARTS ? STARTS[k]! : Math.round((truth.duration_seconds * (k + 1)) / (RANGES + 1) / 10) * 10 + 3;
      const end = start + SECONDS;
      const passes = { analysis: { rendition: "audio_only" as const, seekInput: true }, own: { rendition: "chunked" as const, seekInput: false } };
      const line: string[] = [];
      for (const [name, p] of Object.entries(passes) as [keyof typeof passes, (typeof passes)[keyof typeof passes]][]) {
        const clip = await covering(truth, p.rendition, start, end, dir);
        const wav = path.join(dir, `${name}.wav`);
        const layout = await extractJoinedWav([{ clip, start, end }], 1, wav, { seekInput: p.seekInput });
        const words: Word[] = [];
        for (const w of await transcriber.transcribe(wav, { language: "en" })) {
          const at = locateInJoined(layout, w.start);
          if (at) words.push({ ...w, start: at.at, end: Math.min(SECONDS, at.at + (w.end - w.start)) });
        }
        const shown = trustedWords(words, { maskProfanity: true, corroboration: [], language: "en" }).words;
        const right = shown.filter((w) => said(w, start));
        const wrong = shown.filter((w) => !said(w, start));
        total[name].right += right.length;
        total[name].wrong += wrong.length;
        line.push(`${name === "analysis" ? "from the audio rendition" : "from the video's audio"}: right [${right.map((w) => w.word).join(" ")}] wrong [${wrong.map((w) => w.word).join(" ")}]`);
      }
      console.log(`${start}-${end} s\n  ${line.join("\n  ")}`);
    }
    const p = (t: { right: number; wrong: number }) => `${t.right} right, ${t.wrong} wrong (precision ${(t.right / Math.max(1, t.right + t.wrong)).toFixed(2)})`;
    console.log(`\ntotal over ${RANGES} ranges of ${SECONDS} s: from the audio rendition ${p(total.analysis)}; from the video's audio ${p(total.own)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** CPU seconds of this process's reaped children (the recogniser, FFmpeg), from /proc/self/stat. */
function childCpu(): number {
  const f = readFileSync("/proc/self/stat", "latin1");
  const v = f.slice(f.lastIndexOf(")") + 2).split(" ").map(Number);
  return (v[13]! + v[14]!) / 100;
}

/** The re-cut join against the re-cut heard whole (see the header). */
async function joinEval() {
  const truth = JSON.parse(await readFile(path.join(vodDir, "truth.json"), "utf8")) as Truth;
  const dir = await mkdtemp(path.join(os.tmpdir(), "eval-recut-join-"));
  const transcriber = createTranscriber({});
  const shifts = (args.get("shifts") ?? "-4:-3,3:5,-5:5").split(",").map((p) => p.split(":").map(Number) as [number, number]);
  const said = (w: Word, at0: number) => truth.sentences.some((s) => s.start - 1 <= at0 + w.start && at0 + w.start <= s.end + 1 && s.text.toLowerCase().replace(/[^a-z' ]/g, " ").split(/\s+/).includes(w.word.toLowerCase()));
  const judge = (words: Word[], at0: number) => {
    const shown = trustedWords(words, { maskProfanity: true, corroboration: [], language: "en" }).words;
    return { right: shown.filter((w) => said(w, at0)), wrong: shown.filter((w) => !said(w, at0)) };
  };
  // A short task's pass: its range cut from the video's audio, one second of silence after (short-speech.ts).
  const ownPass = async (start: number, end: number): Promise<Word[]> => {
    const clip = await covering(truth, "chunked", start, end, dir);
    const wav = path.join(dir, "own.wav");
    const layout = await extractJoinedWav([{ clip, start, end }], 1, wav, { seekInput: false });
    const words: Word[] = [];
    for (const w of await transcriber.transcribe(wav, { language: "en" })) {
      const at = locateInJoined(layout, w.start);
      if (at) words.push({ ...w, start: at.at, end: Math.min(end - start, at.at + (w.end - w.start)) });
    }
    return words;
  };
  const run = { ctx: { signal: new AbortController().signal, workDir: dir, reporter: null as never, uploader: null as never, log: silentLogger, fetchImpl: fetch }, progress: { report: () => {} } as never };
  const total = { own: { right: 0, wrong: 0, cpu: 0 }, join: { right: 0, wrong: 0, cpu: 0, heard: 0, kept: 0 } };
  try {
    for (let k = 0; k < RANGES; k++) {
      const start = STARTS ? STARTS[k]! : Math.round((truth.duration_seconds * (k + 1)) / (RANGES + 1) / 10) * 10 + 3;
      const earlierWords = await ownPass(start, start + SECONDS);
      const earlier = heardWordsObject({ index: 1, vodId: "930000360", recogniser: transcriber.name, language: "en", range: { start, end: start + SECONDS }, heard: earlierWords })!;
      // The analysis' pauses over this stretch (the stored analysis has them for the whole VOD).
      const around = await covering(truth, "audio_only", start - 15, start + SECONDS + 15, dir);
      const pauses = (await analyzeAudio(around.path)).pauses?.map((p) => ({ start: p.start + around.media_start_seconds, end: p.end + around.media_start_seconds }));
      for (const [d0, d1] of shifts) {
        const range = { start: start + d0, end: start + SECONDS + d1 };
        let c0 = childCpu();
        const own = judge(await ownPass(range.start, range.end), range.start);
        const ownCpu = childCpu() - c0;
        c0 = childCpu();
        const join = planRecutJoin([earlier], range, pauses);
        const toHear = rangesToHear(join, range);
        const audio = await Promise.all(toHear.map((r) => covering(truth, "chunked", r.start, r.end, dir)));
        const edges = toHear.length ? await transcribeRanges(run, { ranges: toHear, audio, transcriber, language: "en", captionPlan: planCaptions(transcriber, "en", true), seekInput: false }) : { words: [], covered: [], warnings: [] };
        const joined = withKept(join, range, edges).words.map((w) => ({ ...w, start: w.start - range.start, end: Math.min(range.end - range.start, w.end - range.start) })).filter((w) => w.start >= -1e-3);
        const joinCpu = childCpu() - c0;
        const j = judge(joined, range.start);
        const heard = toHear.reduce((s, r) => s + r.end - r.start, 0);
        total.own.right += own.right.length; total.own.wrong += own.wrong.length; total.own.cpu += ownCpu;
        total.join.right += j.right.length; total.join.wrong += j.wrong.length; total.join.cpu += joinCpu; total.join.heard += heard; total.join.kept += join?.kept.length ?? 0;
        console.log(`${range.start}-${range.end} s (earlier short ${start}-${start + SECONDS}; kept ${join ? `${join.keptRange.start.toFixed(2)}-${join.keptRange.end.toFixed(2)}` : "nothing"}, heard ${heard.toFixed(1)} s)`);
        console.log(`  heard whole (${ownCpu.toFixed(1)} CPU s): right [${own.right.map((w) => w.word).join(" ")}] wrong [${own.wrong.map((w) => w.word).join(" ")}]`);
        console.log(`  joined      (${joinCpu.toFixed(1)} CPU s): right [${j.right.map((w) => w.word).join(" ")}] wrong [${j.wrong.map((w) => w.word).join(" ")}]`);
      }
    }
    console.log(`\ntotal over ${RANGES} ranges x ${shifts.length} moved bounds: heard whole ${total.own.right} right, ${total.own.wrong} wrong, ${total.own.cpu.toFixed(1)} CPU s; joined ${total.join.right} right, ${total.join.wrong} wrong, ${total.join.cpu.toFixed(1)} CPU s (${total.join.heard.toFixed(1)} s heard, ${total.join.kept} earlier words kept)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A range heard whole against the same range heard in two halves (see the header). */
async function halvesEval() {
  const truth = JSON.parse(await readFile(path.join(vodDir, "truth.json"), "utf8")) as Truth;
  const dir = await mkdtemp(path.join(os.tmpdir(), "eval-recut-halves-"));
  const transcriber = createTranscriber({});
  const said = (w: Word, at0: number) => truth.sentences.some((s) => s.start - 1 <= at0 + w.start && at0 + w.start <= s.end + 1 && s.text.toLowerCase().replace(/[^a-z' ]/g, " ").split(/\s+/).includes(w.word.toLowerCase()));
  const judge = (words: Word[], at0: number) => {
    const shown = trustedWords(words, { maskProfanity: true, corroboration: [], language: "en" }).words;
    return { right: shown.filter((w) => said(w, at0)), wrong: shown.filter((w) => !said(w, at0)) };
  };
  const runIn = (workDir: string) => ({ ctx: { signal: new AbortController().signal, workDir, reporter: null as never, uploader: null as never, log: silentLogger, fetchImpl: fetch }, progress: { report: () => {} } as never });
  // As the analysis hears a re-cut's short: from the short's video, no input seeking (reuse/recut-captions.ts).
  const hear = async (r: { start: number; end: number }, workDir: string) =>
    transcribeRanges(runIn(workDir), { ranges: [r], audio: [await covering(truth, "chunked", r.start, r.end, dir)], transcriber, language: "en", captionPlan: planCaptions(transcriber, "en", true), seekInput: false });
  const total = { whole: { right: 0, wrong: 0, cpu: 0 }, halves: { right: 0, wrong: 0, cpu: 0, split: 0 } };
  try {
    for (let k = 0; k < RANGES; k++) {
      const start = STARTS ? STARTS[k]! : Math.round((truth.duration_seconds * (k + 1)) / (RANGES + 1) / 10) * 10 + 3;
      const range = { start, end: start + SECONDS };
      const around = await covering(truth, "audio_only", start - 15, start + SECONDS + 15, dir);
      const pauses = ((await analyzeAudio(around.path)).pauses ?? []).map((p) => ({ start: p.start + around.media_start_seconds, end: p.end + around.media_start_seconds }));
      const middle = (range.start + range.end) / 2;
      const cut = pauses.map((p) => (p.start + p.end) / 2).filter((t) => t > range.start + SECONDS / 3 && t < range.end - SECONDS / 3).sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle))[0];
      const rel = (words: Word[]) => words.map((w) => ({ ...w, start: w.start - range.start, end: Math.min(SECONDS, w.end - range.start) })).filter((w) => w.start >= -1e-3 && w.start <= SECONDS + 0.05);
      let c0 = childCpu();
      const whole = judge(rel((await hear(range, dir)).words), start);
      const wholeCpu = childCpu() - c0;
      if (cut === undefined) {
        console.log(`${range.start}-${range.end} s: no pause in its middle third; heard whole only (${wholeCpu.toFixed(1)} CPU s)`);
        continue;
      }
      c0 = childCpu();
      const pieces = [
        { hear: { start: range.start, end: Math.min(range.end, cut + CONTEXT_S) }, take: { start: range.start - 1e-3, end: cut } },
        { hear: { start: Math.max(range.start, cut - CONTEXT_S), end: range.end }, take: { start: cut, end: range.end + 0.05 } },
      ];
      const heard: Word[] = [];
      for (const [i, p] of pieces.entries()) {
        const sub = path.join(dir, `half-${i}`);
        await mkdir(sub, { recursive: true });
        heard.push(...(await hear(p.hear, sub)).words.filter((w) => w.start >= p.take.start && w.start < p.take.end));
      }
      const halves = judge(rel(heard.sort((a, b) => a.start - b.start)), start);
      const halvesCpu = childCpu() - c0;
      total.whole.right += whole.right.length; total.whole.wrong += whole.wrong.length; total.whole.cpu += wholeCpu;
      total.halves.right += halves.right.length; total.halves.wrong += halves.wrong.length; total.halves.cpu += halvesCpu; total.halves.split += 1;
      console.log(`${range.start}-${range.end} s (cut at ${cut.toFixed(2)})`);
      console.log(`  heard whole (${wholeCpu.toFixed(1)} CPU s): right [${whole.right.map((w) => w.word).join(" ")}] wrong [${whole.wrong.map((w) => w.word).join(" ")}]`);
      console.log(`  in halves   (${halvesCpu.toFixed(1)} CPU s): right [${halves.right.map((w) => w.word).join(" ")}] wrong [${halves.wrong.map((w) => w.word).join(" ")}]`);
    }
    console.log(`\ntotal over ${total.halves.split} ranges cut in halves: heard whole ${total.whole.right} right, ${total.whole.wrong} wrong, ${total.whole.cpu.toFixed(1)} CPU s; in halves ${total.halves.right} right, ${total.halves.wrong} wrong, ${total.halves.cpu.toFixed(1)} CPU s`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await (args.has("join") ? joinEval() : args.has("halves") ? halvesEval() : main());
