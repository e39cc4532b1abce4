import path from "node:path";
import { rm } from "node:fs/promises";
import type { ShortSpeech } from "../../../../common/contract/job-plan";
import { extractJoinedWav, heardLanguage, locateInJoined, trustedWords, wordsToCues, type Cue, type Transcriber, type Word } from "../../captions";
import type { ClipSource } from "../../source";
import type { RenderTaskRun } from "./task-source";

/** What the short's speech gave: its captions, every word heard and the words shown (times from the short's first frame). */
export interface ShortWords {
  cues: Cue[];
  heard: Word[];
  shown: Word[];
  warning: string | null;
  /** Where the words came from: the short's own audio, or the analysis' words carried by the plan (a re-cut). */
  from: "transcribed" | "plan";
}

export interface ShortSpeechInput {
  clip: ClipSource;
  /** The short's range in VOD seconds (after any snapping). */
  range: { start: number; end: number };
  /** Profane words chat typed during the moment: a swear word is shown only when chat has it too. */
  chatProfanity: readonly string[];
  /** The words the analysis heard over the short's range (ShortTask.speech), if the plan carries them. */
  planned?: ShortSpeech;
}

/** Silence after the range in the wav: longer than pocketsphinx's end-of-utterance pause. */
const TRAILING_SILENCE_SECONDS = 1;
/** How far the short's range may reach past the planned words' range and still be covered by them (rounding). */
const COVER_SLACK_SECONDS = 0.05;

/**
 * The short's words and captions. When the plan carries the words the analysis heard over this very range (a
 * re-cut's one short, heard as one piece of audio by the same recogniser), those are used: transcribing the range
 * again would hear the same audio with the same recogniser. Otherwise the short's own range of its downloaded
 * video is transcribed once. Either way the same rules (trustedWords) choose what the captions show. Captions are
 * an extra: a failing recogniser leaves the short without them (said in the manifest's warnings) instead of
 * failing it.
 */
export async function shortWords(run: RenderTaskRun, transcriber: Transcriber, input: ShortSpeechInput, onProgress: (f: number) => void): Promise<ShortWords> {
  const { range } = input;
  if (input.planned && plannedCovers(input.planned, transcriber, range)) {
    return { ...shown(run, transcriber, wordsInRange(input.planned.words, range), input.chatProfanity, range), warning: null, from: "plan" };
  }
  const { ctx, plan } = run;
  const wav = path.join(ctx.workDir, "speech.wav");
  let note: string | null = null;
  try {
    const layout = await extractJoinedWav([{ clip: input.clip, start: range.start, end: range.end }], TRAILING_SILENCE_SECONDS, wav, { signal: ctx.signal });
    onProgress(0.2);
    const words: Word[] = [];
    const warn = (m: string) => (note = `Captions for ${range.start.toFixed(0)}-${range.end.toFixed(0)} s: ${m}`);
    for (const w of await transcriber.transcribe(wav, { language: plan.captions.language, signal: ctx.signal, warn })) {
      const at = locateInJoined(layout, w.start);
      if (at) words.push({ ...w, start: at.at, end: Math.min(range.end - range.start, at.at + (w.end - w.start)) });
    }
    return { ...shown(run, transcriber, words, input.chatProfanity, range), warning: note, from: "transcribed" };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.log.warn("transcription failed; the short has no captions", { error: String(err), range });
    return { cues: [], heard: [], shown: [], warning: `Captions for ${range.start.toFixed(0)}-${range.end.toFixed(0)} s could not be produced (${transcriber.name}: ${(err as Error).message}).`, from: "transcribed" };
  } finally {
    await rm(wav, { force: true });
  }
}

/** The planned words serve this short when this task's recogniser heard them and they span its whole range. */
export function plannedCovers(planned: ShortSpeech, transcriber: Pick<Transcriber, "name">, range: { start: number; end: number }): boolean {
  return planned.recogniser === transcriber.name && planned.start <= range.start + COVER_SLACK_SECONDS && planned.end >= range.end - COVER_SLACK_SECONDS;
}

/**
 * Words with VOD times inside `range`, moved onto the short's clock, as a transcription of the range itself places
 * them: a word belongs to the range when it starts inside it (or within 0.05 s after its end), and ends by its end.
 */
export function wordsInRange(words: readonly Word[], range: { start: number; end: number }): Word[] {
  const length = range.end - range.start;
  return words
    .filter((w) => w.start >= range.start - 1e-3 && w.start - range.start <= length + 0.05)
    .map((w) => ({ ...w, start: Math.max(0, w.start - range.start), end: Math.min(length, w.end - range.start) }))
    .sort((a, b) => a.start - b.start);
}

/**
 * Burned words and the .srt: only what the recogniser was sure of (a wrong word burned in is worse than none); a
 * swear word only when chat typed it too during the moment (the plan carries those words).
 */
function shown(run: RenderTaskRun, transcriber: Transcriber, words: Word[], chatProfanity: readonly string[], range: { start: number; end: number }): Omit<ShortWords, "warning" | "from"> {
  const language = heardLanguage(transcriber, run.plan.captions.language);
  const trusted = trustedWords(words, { maskProfanity: run.req.request.parameters.mask_profanity, corroboration: chatProfanity, language });
  return { cues: wordsToCues(trusted.words, { duration: range.end - range.start }), heard: words, shown: trusted.words };
}
