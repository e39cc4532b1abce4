import { readFile, rm, writeFile } from "node:fs/promises";
import { runProcess } from "../ffmpeg/process";
import { primaryLanguage, type TranscribeOptions, type Transcriber, UnsupportedLanguageError } from "./transcriber";
import type { Word } from "./types";
import { delayedWavFile } from "./wav-chunks";

export interface PocketsphinxOptions {
  /** Folder of the acoustic model, language model and dictionary (Debian's pocketsphinx-en-us). */
  modelDir?: string;
  binary?: string;
  /**
   * "accurate" (pocketsphinx's own defaults; what burned captions need) or "fast" (every second frame, narrower
   * beams: 2.5x faster, word recall 0.48 instead of 0.70 on synthetic speech). Default: accurate, unless
   * POCKETSPHINX_FAST=1.
   */
  search?: "accurate" | "fast";
  /**
   * Run the fast search as well, twice (CROSS_CHECK_DELAYS), and mark each word of the accurate one with whether
   * both of those heard it too (`Word.crossChecked`). Default true (POCKETSPHINX_CROSS_CHECK=0 turns it off); only
   * with the accurate search. Costs about 90 % more recogniser CPU than the accurate search alone (two fast
   * searches of 0.09 CPU s per audio second each against its 0.2), no more wall time on two cores.
   */
  crossCheck?: boolean;
  /** Decode the audio delayed by this much (seconds); word times are moved back onto the wav's clock. */
  delaySeconds?: number;
}

/** How far apart two searches may place the same word and still count as hearing it at the same time. */
const CROSS_CHECK_SECONDS = 0.25;

/**
 * The cross-check's two fast searches decode the audio delayed by these much. pocketsphinx analyses 10 ms frames
 * and its fast search only every second one (`-ds 2`), so the accurate search and the two checks look at three
 * different sets of frames (offsets 0, 5 and 15 ms on the 10 ms grid; the two checks also at the other phase of
 * the 20 ms one). A fast search over the very frames of the accurate one shares more of its misrecognitions:
 * on the tuning speech of `npm run eval:captions`, requiring the same word from a fast search delayed by 15 ms as
 * well as the undelayed one cut the wrong burned words from 17 to 8; the two delayed searches alone, from 17 to 11
 * keeping the recall (0.110 against 0.113).
 */
export const CROSS_CHECK_DELAYS = [0.005, 0.015] as const;

/**
 * Marks each word of `primary` with whether every one of `checks` has the same word with its middle within
 * CROSS_CHECK_SECONDS of this word's middle. Two searches of one recogniser mishear differently: the fast search
 * (other beams, other frames) rarely repeats the accurate search's confident misrecognitions at the same place,
 * while it hears most of the right ones.
 */
export function crossCheckWords(primary: readonly Word[], checks: readonly (readonly Word[])[]): Word[] {
  const mid = (w: Word) => (w.start + w.end) / 2;
  return primary.map((w) => {
    const m = mid(w);
    const key = w.word.toLowerCase();
    const heard = checks.every((other) => other.some((o) => o.word.toLowerCase() === key && Math.abs(mid(o) - m) <= CROSS_CHECK_SECONDS));
    return { ...w, crossChecked: heard };
  });
}

const DEFAULT_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

/** `word start end probability`, as `-time yes` prints each segment of an utterance. */
const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/i;

/**
 * Parses pocketsphinx_continuous output: per utterance a hypothesis line, then one line per segment with
 * times from the start of the file. Silence, sentence markers and fillers (`<sil>`, `<s>`, `[NOISE]`,
 * `++UH++`) are not words; `(2)` marks an alternative pronunciation of the same word.
 */
export function parsePocketsphinxOutput(text: string): Word[] {
  const words: Word[] = [];
  for (const raw of text.split("\n")) {
    const m = WORD_LINE.exec(raw.trim());
    if (!m) continue;
    const token = m[1]!;
    if (/^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(token)) continue;
    const word = token.replace(/\(\d+\)$/, "");
    const start = Number(m[2]);
    const end = Number(m[3]);
    // The fourth column is the word's posterior probability in the lattice (1.0 when no lattice was built).
    const p = Number(m[4]);
    const confidence = Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : undefined;
    if (word && end >= start) words.push(confidence === undefined ? { word, start, end } : { word, start, end, confidence });
  }
  return words;
}

/**
 * Offline English transcription with CMU pocketsphinx (the Debian package's `pocketsphinx_continuous`), which
 * reports word timings; ffmpeg's `asr` filter only reports text. Expects 16 kHz mono 16-bit wav (extractWav).
 * About 35 % of its words are wrong on synthetic speech, so captions show only the words trustedWords keeps; it
 * needs no network.
 */
export class PocketsphinxTranscriber implements Transcriber {
  readonly name = "pocketsphinx";
  readonly local = true;
  private readonly modelDir: string;
  private readonly binary: string;
  readonly search: "accurate" | "fast";
  readonly crossCheck: boolean;
  private readonly delaySeconds: number;

  constructor(opts: PocketsphinxOptions = {}) {
    this.modelDir = opts.modelDir ?? process.env.POCKETSPHINX_MODEL_DIR ?? DEFAULT_MODEL_DIR;
    this.binary = opts.binary ?? process.env.POCKETSPHINX_BIN ?? "pocketsphinx_continuous";
    this.search = opts.search ?? (process.env.POCKETSPHINX_FAST === "1" ? "fast" : "accurate");
    this.crossCheck = this.search === "accurate" && (opts.crossCheck ?? process.env.POCKETSPHINX_CROSS_CHECK !== "0");
    this.delaySeconds = opts.delaySeconds ?? 0;
  }

  supportsLanguage(language: string | null): boolean {
    const l = primaryLanguage(language);
    return l === null || l === "en";
  }

  async transcribe(wavPath: string, opts: TranscribeOptions): Promise<Word[]> {
    if (!this.supportsLanguage(opts.language)) throw new UnsupportedLanguageError(this.name, opts.language ?? "");
    if (!this.crossCheck) return this.decode(wavPath, this.search, this.delaySeconds, opts.signal);
    // All three at once: the two fast searches together take about as long as the accurate one, on a second core.
    const [accurate, ...checks] = await Promise.all([
      this.decode(wavPath, "accurate", 0, opts.signal),
      ...CROSS_CHECK_DELAYS.map((d) => this.decode(wavPath, "fast", d, opts.signal)),
    ]);
    return crossCheckWords(accurate!, checks);
  }

  /** One search over the wav, or over a copy of it delayed by `delay` seconds (removed afterwards). */
  private async decode(wavPath: string, search: "accurate" | "fast", delay: number, signal: AbortSignal | undefined): Promise<Word[]> {
    if (delay <= 0) return this.runSearch(wavPath, search, signal);
    const delayed = `${wavPath}.delay${Math.round(delay * 1000)}ms.wav`;
    try {
      await writeFile(delayed, delayedWavFile(await readFile(wavPath), delay));
      const words = await this.runSearch(delayed, search, signal);
      return words.map((w) => ({ ...w, start: Math.max(0, w.start - delay), end: Math.max(0, w.end - delay) }));
    } finally {
      await rm(delayed, { force: true });
    }
  }

  private async runSearch(wavPath: string, search: "accurate" | "fast", signal: AbortSignal | undefined): Promise<Word[]> {
    const m = this.modelDir;
    const { stdout } = await runProcess(
      this.binary,
      [
        "-infile", wavPath,
        "-time", "yes",
        "-hmm", `${m}/en-us`,
        "-lm", `${m}/en-us.lm.bin`,
        "-dict", `${m}/cmudict-en-us.dict`,
        "-logfn", "/dev/null",
        // Faster search: every second frame, two Gaussians, narrower beams. Measured on a 48 s synthetic short:
        // 2.5x faster (17.2 s -> 6.8 s) for ~13 % fewer correct words (54 -> 47), and its word posteriors separate
        // right from wrong words far worse (burned-word precision 0.65 against 0.84 at the same threshold).
        ...(search === "fast" ? ["-ds", "2", "-topn", "2", "-maxwpf", "5", "-maxhmmpf", "3000", "-pl_window", "10"] : []),
      ],
      { signal, collectStdout: true },
    );
    return parsePocketsphinxOutput(stdout.toString("utf8"));
  }
}
