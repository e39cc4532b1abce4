import path from "node:path";
import fs from "node:fs/promises";
import type { ClipInput } from "../render/types";
import { wordsToCues, type CueOptions } from "./cues";
import { extractWav } from "./extract-wav";
import { formatSrt } from "./srt";
import { heardLanguage, type Transcriber } from "./transcriber";
import { trustedWords, type TrustedWordsOptions } from "./trusted-words";
import type { Cue, Word } from "./types";

export interface CaptionedRange {
  /** Everything the recogniser returned, relative to `start`. */
  words: Word[];
  /** What captions show of them (trustedWords): the cues, the .srt and `text` are made of these. */
  shownWords: Word[];
  /** Relative to `start`, i.e. to the short's first frame. */
  cues: Cue[];
  srt: string;
  /** Transcript text of the shown words, for metadata writing. */
  text: string;
}

/** Transcribes exactly the rendered range of a clip and turns it into captions. */
export async function captionRange(
  transcriber: Transcriber,
  clip: ClipInput,
  start: number,
  end: number,
  opts: { language: string | null; workDir: string; signal?: AbortSignal; cueOptions?: CueOptions; trust?: TrustedWordsOptions },
): Promise<CaptionedRange> {
  const wav = path.join(opts.workDir, `speech-${Math.round(start * 1000)}-${Math.round(end * 1000)}.wav`);
  try {
    await extractWav(clip, start, end, wav, { signal: opts.signal });
    const words = await transcriber.transcribe(wav, { language: opts.language, signal: opts.signal });
    const shown = trustedWords(words, { language: heardLanguage(transcriber, opts.language), ...opts.trust }).words;
    const cues = wordsToCues(shown, { duration: end - start, ...opts.cueOptions });
    return { words, shownWords: shown, cues, srt: formatSrt(cues), text: shown.map((w) => w.word).join(" ") };
  } finally {
    await fs.rm(wav, { force: true });
  }
}
