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
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createTranscriber, extractJoinedWav, locateInJoined, trustedWords, type Word } from "../render-container/src/captions";
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

await main();
