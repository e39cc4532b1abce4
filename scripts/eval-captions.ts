/**
 * Caption quality on synthetic speech (`npm run eval:captions`): how many burned words were said, at that time
 * (precision), and how much of what was said is shown (recall).
 *
 * Two sources of speech with known words and times:
 *   - synthetic VODs from dev/synth-vod (espeak-ng sentences over the game bed, shouting over noise in loud
 *     moments; truth.json has every sentence's start and end), read from their audio_only rendition;
 *   - held-out sentences the generator never says (other words, another voice: en-gb, faster), one after the
 *     other with pauses, to show the filter is not tuned to the generator's sentences.
 * Each is transcribed by pocketsphinx as the renderer runs it (accurate search by default, the fast search for
 * comparison) and scored raw and after trustedWords (what captions show). The scorer (scripts/caption-eval/score.ts)
 * is independent of the renderer's caption code. Prints one table; `--out FILE` writes the figures as JSON.
 *
 * Options: --vods N (default 2, 3 minutes each), --duration S, --fast (also score the fast search).
 */
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { promisify } from "node:util";
import { generateSyntheticVod, synthCacheRoot } from "../dev/synth-vod";
import { PocketsphinxTranscriber } from "../render-container/src/captions/pocketsphinx";
import { isProfane } from "../render-container/src/captions/profanity";
import { trustedWords } from "../render-container/src/captions/trusted-words";
import type { Word } from "../render-container/src/captions/types";
import { scoreCaptionWords, type SpokenSentence } from "./caption-eval/score";

const run = promisify(execFile);

/** Said by nobody in dev/synth-vod/phrases.ts: shouted hype, chat talk, game talk. */
const HELD_OUT = [
  "No no no no way, that was insane!",
  "Thank you for the five gifted subs, that is so kind of you.",
  "I cannot believe he missed that shot from so close.",
  "Okay everyone, the next giveaway is in twenty minutes.",
  "Should we try the hard mode after dinner tonight?",
  "My internet was lagging a lot earlier today, sorry about that.",
  "That was the worst landing I have ever done in my life.",
  "Let me read the chat for a moment before we continue.",
  "We need two more wins to reach the top of the ladder.",
  "Honestly the final boss was easier than the tutorial.",
];

interface Row {
  source: string;
  search: string;
  seconds: number;
  transcribe_seconds: number;
  raw: { shown: number; precision: number; recall: number };
  shown: { shown: number; precision: number; recall: number };
  spoken: number;
  unsaid_profanity: number;
}

async function wavOfPlaylist(playlist: string, out: string): Promise<void> {
  await run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", playlist, "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", out]);
}

/** Held-out sentences spoken one after another with 1.2 s pauses: the wav and each sentence's time. */
async function heldOutWav(dir: string): Promise<{ wav: string; sentences: SpokenSentence[] }> {
  const sentences: SpokenSentence[] = [];
  const parts: string[] = [];
  let t = 0.5;
  for (const [i, text] of HELD_OUT.entries()) {
    const raw = path.join(dir, `held-${i}.wav`);
    await run("espeak-ng", ["-v", i % 2 ? "en-gb" : "en-us", "-s", i % 3 === 0 ? "185" : "160", "-w", raw, text]);
    const part = path.join(dir, `held-${i}-16k.wav`);
    // Silence trimmed like the generator does, then a pause before the next sentence.
    await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", part, "silence", "1", "0.01", "0.5%", "reverse", "silence", "1", "0.01", "0.5%", "reverse", "pad", "0", "1.2"]);
    const { stdout } = await run("soxi", ["-D", part]);
    const duration = Number(stdout.trim()) - 1.2;
    sentences.push({ text, start: t, end: t + duration });
    t += duration + 1.2;
    parts.push(part);
  }
  const wav = path.join(dir, "held-out.wav");
  const lead = path.join(dir, "lead.wav");
  await run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", lead, "trim", "0", "0.5"]);
  await run("sox", [lead, ...parts, wav]);
  return { wav, sentences };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

async function score(source: string, wav: string, seconds: number, sentences: SpokenSentence[], search: "accurate" | "fast"): Promise<Row> {
  const t0 = performance.now();
  const words: Word[] = await new PocketsphinxTranscriber({ search }).transcribe(wav, { language: "en" });
  const transcribe_seconds = (performance.now() - t0) / 1000;
  const raw = scoreCaptionWords(words, sentences, { isProfane });
  const kept = scoreCaptionWords(trustedWords(words).words, sentences, { isProfane });
  return {
    source,
    search,
    seconds: round(seconds),
    transcribe_seconds: round(transcribe_seconds),
    raw: { shown: raw.shown, precision: round(raw.precision), recall: round(raw.recall) },
    shown: { shown: kept.shown, precision: round(kept.precision), recall: round(kept.recall) },
    spoken: kept.spoken,
    unsaid_profanity: kept.unsaidProfanity.length,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { vods: { type: "string", default: "2" }, duration: { type: "string", default: "180" }, fast: { type: "boolean", default: false }, out: { type: "string" } } });
  const root = path.join(synthCacheRoot(), "eval-captions");
  const work = path.join(root, "work");
  await mkdir(work, { recursive: true });
  const searches: ("accurate" | "fast")[] = values.fast ? ["accurate", "fast"] : ["accurate"];
  const rows: Row[] = [];
  const duration = Number(values.duration);
  for (let i = 0; i < Number(values.vods); i++) {
    const { dir, truth } = await generateSyntheticVod({
      root, vodId: String(870000001 + i), durationSeconds: duration, width: 320, height: 180, seed: 11 + 12 * i,
      moments: [{ kind: "hype", peak: Math.round(duration * 0.33) }, { kind: i % 2 ? "loud_only" : "hype", peak: Math.round(duration * 0.75) }],
    });
    const wav = path.join(work, `vod-${i}.wav`);
    await wavOfPlaylist(path.join(dir, "audio_only", "index-dvr.m3u8"), wav);
    for (const s of searches) {
      const row = await score(`synthetic VOD ${i + 1} (seed ${truth.seed})`, wav, truth.duration_seconds, truth.sentences, s);
      rows.push(row);
      console.error(JSON.stringify(row));
    }
  }
  const held = await heldOutWav(work);
  for (const s of searches) rows.push(await score("held-out sentences (en-us/en-gb)", held.wav, held.sentences.at(-1)!.end + 1, held.sentences, s));

  const sum = (pick: (r: Row) => { shown: number; precision: number; recall: number }, search: string) => {
    const rs = rows.filter((r) => r.search === search);
    const shown = rs.reduce((n, r) => n + pick(r).shown, 0);
    const correct = rs.reduce((n, r) => n + pick(r).precision * pick(r).shown, 0);
    const spoken = rs.reduce((n, r) => n + r.spoken, 0);
    const found = rs.reduce((n, r) => n + pick(r).recall * r.spoken, 0);
    return { shown, precision: round(correct / Math.max(1, shown)), recall: round(found / Math.max(1, spoken)) };
  };
  console.log("| speech | search | audio s | recogniser s | all words: shown, precision, recall | burned (trusted): shown, precision, recall | unsaid profanity burned |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(`| ${r.source} | ${r.search} | ${r.seconds} | ${r.transcribe_seconds} | ${r.raw.shown}, ${r.raw.precision.toFixed(2)}, ${r.raw.recall.toFixed(2)} | ${r.shown.shown}, ${r.shown.precision.toFixed(2)}, ${r.shown.recall.toFixed(2)} | ${r.unsaid_profanity} |`);
  }
  for (const s of searches) {
    const a = sum((r) => r.raw, s);
    const b = sum((r) => r.shown, s);
    console.log(`| all (${s}) | | | | ${a.shown}, ${a.precision.toFixed(2)}, ${a.recall.toFixed(2)} | ${b.shown}, ${b.precision.toFixed(2)}, ${b.recall.toFixed(2)} | ${rows.filter((r) => r.search === s).reduce((n, r) => n + r.unsaid_profanity, 0)} |`);
  }
  if (values.out) await writeFile(values.out, JSON.stringify(rows, null, 2));
  await rm(work, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
