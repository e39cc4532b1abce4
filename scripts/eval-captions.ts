/**
 * Caption quality on synthetic speech (`npm run eval:captions`): how many burned words were said, at that time
 * (precision), and how much of what was said is shown (recall), on a tuning split and a held-out split.
 *
 * The speech (scripts/caption-eval/speech-material.ts): tuning = synthetic VODs of dev/synth-vod (its own
 * sentences over the game bed, shouting over noise in loud moments, one with loud game audio); held-out = the
 * same mixer with sentences the generator never says, other seeds, and those sentences alone in other voices.
 * The caption filter's thresholds were chosen on the tuning split; the held-out split shows whether they carry, and
 * the fresh split (other seeds, other voices) was kept unread for the 2026-11-27 change; the flite split (the
 * held-out sentences in five flite voices, over the game bed and alone) checks them on another speech engine and
 * is never used to choose a threshold. `--splits tuning,fresh` scores only those (default: all but flite, which
 * adds about ten minutes of recogniser CPU); `--brief` only the first tuning VOD and the first fresh one beside
 * the voices.
 *
 * Each wav is transcribed by pocketsphinx as the renderer runs it: the accurate search, and the fast searches over
 * the audio delayed 5 and 15 ms that cross-check it (cached per wav content; `--fresh` runs them again), plus the
 * undelayed fast search the cross-check used before. Scored are all recognised words, what trustedWords shows
 * without the cross-check (POCKETSPHINX_CROSS_CHECK=0), with the earlier single check, and with today's (the default). The scorer
 * (scripts/caption-eval/score.ts) is independent of the renderer's caption code. Prints tables (per sample, per
 * split, and per split and voice: words said, shown, shown wrong, missed); `--errors` lists every wrong burned
 * word with its neighbours and the sentence said there; `--srt` prints each sample's captions as the .srt would
 * show them beside what was said; `--out FILE` writes JSON.
 */
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { synthCacheRoot } from "../dev/synth-vod";
import { wordsToCues } from "../render-container/src/captions/cues";
import { CROSS_CHECK_DELAYS, crossCheckWords } from "../render-container/src/captions/pocketsphinx";
import { isProfane } from "../render-container/src/captions/profanity";
import { trustedWords } from "../render-container/src/captions/trusted-words";
import type { Word } from "../render-container/src/captions/types";
import { scoreCaptionWords, type CaptionScore } from "./caption-eval/score";
import { SPLITS, speechMaterial, type SpeechSample, type Split } from "./caption-eval/speech-material";
import { transcribeCached } from "./caption-eval/transcripts";

type Variant = "all words" | "burned, accurate search only" | "burned, one undelayed fast check (before)" | "burned, cross-checked";
const VARIANTS: Variant[] = ["all words", "burned, accurate search only", "burned, one undelayed fast check (before)", "burned, cross-checked"];

interface Row {
  sample: string;
  split: Split;
  voice: string;
  seconds: number;
  spoken: number;
  cpu: { accurate: number; fast: number; checks: number };
  scores: Record<Variant, { shown: number; correct: number; found: number; unsaidProfanity: number }>;
  /**
   * Words of shouted sentences: said, heard right by the recogniser at all, and burned (cross-checked); and the
   * wrong burned words heard while a shouted sentence was said (its span and half a second each side).
   */
  shouted: { spoken: number; recognised: number; burned: number; wrong: number };
}

function round(v: number, d = 2): string {
  return v.toFixed(d);
}

function summary(s: CaptionScore) {
  return { shown: s.shown, correct: s.correct, found: Math.round(s.recall * s.spoken), unsaidProfanity: s.unsaidProfanity.length };
}

/** Every wrong burned word with the recogniser's words around it (confidence, x: not cross-checked). */
function errorListing(sample: SpeechSample, words: readonly Word[], wrong: CaptionScore["wrong"]): string[] {
  const sorted = [...words].sort((a, b) => a.start - b.start);
  return wrong.map((w) => {
    const i = sorted.findIndex((x) => x.start === w.start && x.end === w.end);
    const around = sorted
      .slice(Math.max(0, i - 3), i + 4)
      .map((x, k) => `${k === Math.min(3, i) ? "*" : ""}${x.word}:${(x.confidence ?? 1).toFixed(2)}${x.crossChecked === false ? "x" : ""}`)
      .join(" ");
    const mid = (w.start + w.end) / 2;
    const said = sample.sentences.filter((s) => mid >= s.start - 1 && mid <= s.end + 1).map((s) => `${s.loud ? "(shouted) " : ""}"${s.text}"`);
    return `  ${w.start.toFixed(2)} s "${w.word}" | ${around} | said: ${said.join(" / ") || "nothing"}`;
  });
}

/** The captions as the .srt would show them (cue by cue), each beside the sentence said at its middle. */
function srtListing(sample: SpeechSample, shown: readonly Word[]): string[] {
  return wordsToCues(shown, { duration: sample.seconds }).map((c) => {
    const mid = (c.start + c.end) / 2;
    const said = sample.sentences.filter((s) => mid >= s.start - 0.5 && mid <= s.end + 0.5).map((s) => `${s.loud ? "(shouted) " : ""}"${s.text}"`);
    return `  ${c.start.toFixed(1)} s  srt: "${c.text}" | said: ${said.join(" / ") || "nothing"}`;
  });
}

/** Words said, shown, shown wrong and missed (said, not shown) per split and speaker, cross-checked captions; each split's total after its speakers. */
function voiceTable(rows: readonly Row[], splits: readonly Split[]): string[] {
  const lines = ["| split | voice | audio s | words said | shown | shown wrong | precision | missed |", "|---|---|---|---|---|---|---|---|"];
  const line = (rs: readonly Row[], voice: string) => {
    const add = (f: (r: Row) => number) => rs.reduce((n, r) => n + f(r), 0);
    const s = (r: Row) => r.scores["burned, cross-checked"];
    const spoken = add((r) => r.spoken);
    const shown = add((r) => s(r).shown);
    const correct = add((r) => s(r).correct);
    return `| ${rs[0]!.split} | ${voice} | ${round(add((r) => r.seconds), 0)} | ${spoken} | ${shown} | ${shown - correct} | ${round(correct / Math.max(1, shown))} | ${spoken - add((r) => s(r).found)} |`;
  };
  for (const split of splits) {
    const rs = rows.filter((r) => r.split === split);
    if (!rs.length) continue;
    for (const voice of new Set(rs.map((r) => r.voice))) lines.push(line(rs.filter((r) => r.voice === voice), voice));
    lines.push(line(rs, `**all ${split}**`));
  }
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { fresh: { type: "boolean", default: false }, errors: { type: "boolean", default: false }, srt: { type: "boolean", default: false }, out: { type: "string" }, splits: { type: "string", default: "tuning,held-out,fresh" }, brief: { type: "boolean", default: false } } });
  const root = path.join(synthCacheRoot(), "eval-captions");
  const cacheDir = path.join(root, "transcripts");
  await mkdir(cacheDir, { recursive: true });
  const load = os.loadavg();
  const splits = values.splits.split(",") as Split[];
  const unknown = splits.filter((x) => !SPLITS.includes(x));
  if (unknown.length) throw new Error(`--splits: unknown split ${unknown.join(", ")}; the splits are ${SPLITS.join(", ")}`);
  const samples = await speechMaterial(root, synthCacheRoot(), splits, values.brief);
  const rows: Row[] = [];
  const listing: string[] = [];
  const captions: string[] = [];
  for (const sample of samples) {
    const accurate = await transcribeCached(cacheDir, sample.wav, "accurate", values.fresh);
    const fast = await transcribeCached(cacheDir, sample.wav, "fast", values.fresh);
    const delayed = [];
    for (const d of CROSS_CHECK_DELAYS) delayed.push(await transcribeCached(cacheDir, sample.wav, "fast", values.fresh, d));
    const checked = crossCheckWords(accurate.words, delayed.map((t) => t.words));
    const score = (words: readonly Word[]) => scoreCaptionWords(words, sample.sentences, { isProfane });
    const burnedAlone = score(trustedWords(accurate.words, { language: "en" }).words);
    const burnedBefore = score(trustedWords(crossCheckWords(accurate.words, [fast.words]), { language: "en" }).words);
    const burned = score(trustedWords(checked, { language: "en" }).words);
    const all = score(accurate.words);
    const loud = sample.sentences.filter((x) => x.loud);
    const shoutedFound = (words: readonly Word[]) => {
      const sc = scoreCaptionWords(words, loud, { isProfane });
      return { spoken: sc.spoken, found: Math.round(sc.recall * sc.spoken) };
    };
    const shoutedAll = shoutedFound(accurate.words);
    rows.push({
      sample: sample.name,
      split: sample.split,
      voice: sample.voice,
      seconds: sample.seconds,
      spoken: all.spoken,
      cpu: { accurate: accurate.cpuSeconds, fast: fast.cpuSeconds, checks: delayed.reduce((n, t) => n + t.cpuSeconds, 0) },
      shouted: {
        spoken: shoutedAll.spoken,
        recognised: shoutedAll.found,
        burned: shoutedFound(trustedWords(checked, { language: "en" }).words).found,
        wrong: burned.wrong.filter((w) => loud.some((x) => (w.start + w.end) / 2 >= x.start - 0.5 && (w.start + w.end) / 2 <= x.end + 0.5)).length,
      },
      scores: {
        "all words": summary(all),
        "burned, accurate search only": summary(burnedAlone),
        "burned, one undelayed fast check (before)": summary(burnedBefore),
        "burned, cross-checked": summary(burned),
      },
    });
    const ran = (t: { cached: boolean; cpuSeconds: number }, what: string) => (t.cached ? `${what} cached` : `${what} ${t.cpuSeconds.toFixed(1)} s CPU`);
    console.error(`${sample.name}: ${ran(accurate, "accurate")}, ${ran(fast, "fast")}, ${delayed.map((t, i) => ran(t, `fast +${CROSS_CHECK_DELAYS[i]! * 1000} ms`)).join(", ")}`);
    if (values.srt) captions.push(`${sample.split}: ${sample.name}`, ...srtListing(sample, trustedWords(checked, { language: "en" }).words));
    if (values.errors && burned.wrong.length) listing.push(`${sample.split}: ${sample.name}`, ...errorListing(sample, checked, burned.wrong));
  }

  const cell = (r: { shown: number; correct: number; found: number }, spoken: number) => `${r.shown}, ${round(r.correct / Math.max(1, r.shown))}, ${round(r.found / Math.max(1, spoken))}`;
  console.log(`load average at the start: ${load.map((l) => l.toFixed(1)).join(", ")} (${os.cpus().length} cores)`);
  console.log("");
  console.log(`| speech | split | audio s | recogniser CPU s: accurate, fast, both delayed fast | ${VARIANTS.map((v) => `${v}: shown, precision, recall`).join(" | ")} | unsaid profanity burned |`);
  console.log(`|---|---|---|---|${VARIANTS.map(() => "---|").join("")}---|`);
  for (const r of rows) {
    console.log(`| ${r.sample} | ${r.split} | ${round(r.seconds, 0)} | ${round(r.cpu.accurate, 1)}, ${round(r.cpu.fast, 1)}, ${round(r.cpu.checks, 1)} | ${VARIANTS.map((v) => cell(r.scores[v], r.spoken)).join(" | ")} | ${r.scores["burned, cross-checked"].unsaidProfanity} |`);
  }
  const totals: Record<string, unknown> = {};
  for (const split of splits) {
    const rs = rows.filter((r) => r.split === split);
    const spoken = rs.reduce((n, r) => n + r.spoken, 0);
    const seconds = rs.reduce((n, r) => n + r.seconds, 0);
    const cpuA = rs.reduce((n, r) => n + r.cpu.accurate, 0);
    const cpuF = rs.reduce((n, r) => n + r.cpu.fast, 0);
    const cpuC = rs.reduce((n, r) => n + r.cpu.checks, 0);
    const sums = VARIANTS.map((v) => {
      const add = (k: "shown" | "correct" | "found" | "unsaidProfanity") => rs.reduce((n, r) => n + r.scores[v][k], 0);
      return { shown: add("shown"), correct: add("correct"), found: add("found"), unsaidProfanity: add("unsaidProfanity") };
    });
    totals[split] = Object.fromEntries(VARIANTS.map((v, i) => [v, { ...sums[i], precision: sums[i]!.correct / Math.max(1, sums[i]!.shown), recall: sums[i]!.found / Math.max(1, spoken) }]));
    console.log(`| **all ${split}** | ${split} | ${round(seconds, 0)} | ${round(cpuA, 1)}, ${round(cpuF, 1)}, ${round(cpuC, 1)} | ${sums.map((s) => cell(s, spoken)).join(" | ")} | ${sums[3]!.unsaidProfanity} |`);
  }
  console.log("");
  console.log(voiceTable(rows, splits).join("\n"));
  console.log("");
  for (const split of splits) {
    const rs = rows.filter((r) => r.split === split);
    const add = (k: "spoken" | "recognised" | "burned" | "wrong") => rs.reduce((n, r) => n + r.shouted[k], 0);
    const spoken = add("spoken");
    console.log(`shouted sentences, ${split}: ${spoken} words said, ${add("recognised")} recognised right (recall ${round(add("recognised") / Math.max(1, spoken))}), ${add("burned")} burned right (recall ${round(add("burned") / Math.max(1, spoken))}), ${add("wrong")} wrong words burned over them`);
  }
  const cpuA = rows.reduce((n, r) => n + r.cpu.accurate, 0);
  const cpuF = rows.reduce((n, r) => n + r.cpu.fast, 0);
  const cpuC = rows.reduce((n, r) => n + r.cpu.checks, 0);
  const audio = rows.reduce((n, r) => n + r.seconds, 0);
  console.log("");
  console.log(
    `recogniser CPU per audio second: accurate ${round(cpuA / audio, 3)}, fast ${round(cpuF / audio, 3)}, the two delayed fast searches ${round(cpuC / audio, 3)}; the cross-check adds ${Math.round((100 * cpuC) / Math.max(1e-9, cpuA))} % to the accurate search`,
  );
  if (captions.length) console.log(["", "Captions as the .srt shows them (cross-checked), beside what was said:", ...captions].join("\n"));
  if (listing.length) console.log(["", "Wrong burned words (cross-checked captions), with the recogniser's words around them (confidence; x: the two delayed fast searches did not both hear it):", ...listing].join("\n"));
  if (values.out) await writeFile(values.out, JSON.stringify({ load, rows, totals }, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
