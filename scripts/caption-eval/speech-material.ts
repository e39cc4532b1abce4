/**
 * The speech the caption evaluation scores, as 16 kHz mono wavs with every sentence's text and time:
 *   - tuning: synthetic VODs of dev/synth-vod (its own sentences over the game bed, shouting over noise in loud
 *     moments), read from their AAC audio_only rendition as the renderer reads a VOD;
 *   - held-out: the same mixer with sentences the generator never says (held-out-sentences.ts), other seeds and
 *     another game level, and those sentences alone in other voices (en-gb, faster) without any game audio;
 *   - fresh: more of both in other seeds and voices (see `Split`);
 *   - flite: the held-out sentences read by five flite voices (speakers.ts) instead of espeak-ng, calm and
 *     shouted, each voice once over the game bed as the held-out part is mixed and once alone.
 * Thresholds are chosen on the tuning part only; the others show whether they carry over.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { generateSyntheticVod, type MomentRequest } from "../../dev/synth-vod";
import { encodeAudioTrack } from "../../dev/synth-vod/audio-track";
import { exists, hashOf } from "../../dev/synth-vod/cache-dir";
import { placeSpeech, planTimeline, type SpeechPlacement } from "../../dev/synth-vod/plan";
import type { SpeechClip, SpeechStyle } from "../../dev/synth-vod/speech";
import { CALM_SENTENCES, EXCITED_SENTENCES } from "../../dev/synth-vod/phrases";
import { HELD_OUT_CALM, HELD_OUT_SHOUTED } from "./held-out-sentences";
import type { SpokenSentence } from "./score";
import { ESPEAK_SPEAKER, FLITE_VOICES, fliteSpeaker, type Speaker } from "./speakers";

const run = promisify(execFile);

/**
 * `fresh`: held out for the 2026-11-27 change of the caption rules (new seeds, new voices), chosen before that
 * change was tuned and read once after it; `held-out` had been read by the earlier rounds. `flite`: another
 * speech engine, never used to choose a threshold.
 */
export type Split = "tuning" | "held-out" | "fresh" | "flite";
export const SPLITS: readonly Split[] = ["tuning", "held-out", "fresh", "flite"];

export interface SpeechSample {
  name: string;
  split: Split;
  wav: string;
  seconds: number;
  /** Who speaks: one voice ("espeak-ng en-us", "flite slt") or several ("espeak-ng en-us, en-gb"). */
  voice: string;
  /** What was said and when; `loud` marks shouting over game noise. */
  sentences: (SpokenSentence & { loud?: boolean })[];
}

export interface VodSpec {
  seed: number;
  /** Game audio under the talk: 1 a quiet bed, 4 loud game audio. */
  gameLevel: number;
  moments: MomentRequest[];
}

const DURATION = 180;

function moments(second: MomentRequest["kind"]): MomentRequest[] {
  return [
    { kind: "hype", peak: Math.round(DURATION * 0.33) },
    { kind: second, peak: Math.round(DURATION * 0.75) },
  ];
}

/** Generator sentences: what the thresholds are tuned on. Seeds 11 and 23 are the figures of earlier READMEs. */
export const TUNING_VODS: VodSpec[] = [
  { seed: 11, gameLevel: 1, moments: moments("hype") },
  { seed: 23, gameLevel: 1, moments: moments("loud_only") },
  { seed: 35, gameLevel: 4, moments: moments("hype") },
  { seed: 47, gameLevel: 1, moments: [...moments("loud_only"), { kind: "game_noise", peak: 100 }] },
];

/** Held-out sentences, other seeds: never looked at while choosing thresholds. */
export const HELD_OUT_VODS: VodSpec[] = [
  { seed: 101, gameLevel: 1, moments: moments("hype") },
  { seed: 113, gameLevel: 4, moments: moments("loud_only") },
  { seed: 125, gameLevel: 1, moments: [...moments("hype"), { kind: "game_noise", peak: 100 }] },
];

/** Generator sentences in other seeds, and held-out sentences in another: never looked at while tuning the 2026-11-27 rules. */
export const FRESH_GENERATOR_VODS: VodSpec[] = [
  { seed: 1301, gameLevel: 1, moments: moments("hype") },
  { seed: 1313, gameLevel: 2, moments: [...moments("loud_only"), { kind: "game_noise", peak: 100 }] },
];
export const FRESH_HELD_OUT_VODS: VodSpec[] = [{ seed: 1325, gameLevel: 1, moments: moments("hype") }];

/** The flite voices' mixes, other seeds in the held-out part's three conditions in turn (quiet bed, loud game audio, explosions). */
export const FLITE_VODS: VodSpec[] = FLITE_VOICES.map((_, i) => ({ ...HELD_OUT_VODS[i % HELD_OUT_VODS.length]!, seed: 2101 + 12 * i }));

/** Voices the sentences are read in alone (espeak-ng voice+variant, words per minute), by split. */
export const TUNING_VOICES = [["en-us+f2", 170], ["en-gb-x-rp", 160], ["en-us+m3", 180]] as const;
export const FRESH_VOICES = [["en-us+f4", 165], ["en-gb-scotland", 160], ["en-029", 175], ["en-us+m6", 185]] as const;

async function toWav(input: string, out: string): Promise<void> {
  await run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", input, "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", out]);
}

export async function tuningVod(root: string, work: string, spec: VodSpec, index: number, split: Split = "tuning"): Promise<SpeechSample> {
  const { dir, truth } = await generateSyntheticVod({
    root, vodId: String((split === "fresh" ? 870000101 : 870000001) + index), durationSeconds: DURATION, width: 320, height: 180, seed: spec.seed,
    moments: spec.moments, ...(spec.gameLevel !== 1 ? { gameLevel: spec.gameLevel } : {}),
  });
  const wav = path.join(work, `${split}-${spec.seed}-${truth.params_hash}.wav`);
  if (!(await exists(wav))) await toWav(path.join(dir, "audio_only", "index-dvr.m3u8"), wav);
  return { name: `synthetic VOD, seed ${spec.seed}${spec.gameLevel !== 1 ? `, game audio x${spec.gameLevel}` : ""}`, split, voice: ESPEAK_SPEAKER.name, wav, seconds: truth.duration_seconds, sentences: truth.sentences };
}

/**
 * The clips' samples as a short digest, for the key of a track made of them: the sentences' times are placed
 * again from the clips on every run, so a track kept from other clips (a speaker's recipe changed) must not be
 * reused against them.
 */
function soundDigest(clips: readonly SpeechClip[]): string {
  const h = createHash("sha256");
  for (const c of clips) h.update(new Uint8Array(c.samples.buffer, c.samples.byteOffset, c.samples.byteLength));
  return h.digest("hex").slice(0, 16);
}

/**
 * A VOD-like track of the held-out sentences, mixed by the generator's own mixer (same bed, same shouting over
 * noise in loud moments, AAC like a Twitch rendition), so the held-out part differs in words, not in conditions.
 */
export async function heldOutVod(cache: string, work: string, spec: VodSpec, split: Split = "held-out", speaker: Speaker = ESPEAK_SPEAKER): Promise<SpeechSample> {
  const plan = planTimeline(DURATION, spec.seed, spec.moments);
  const calm = await Promise.all(HELD_OUT_CALM.map((t) => speaker.speak(t, "calm", cache)));
  const excited = await Promise.all(HELD_OUT_SHOUTED.map((t) => speaker.speak(t, "excited", cache)));
  const key = hashOf({ v: 1, spec, DURATION, HELD_OUT_CALM, HELD_OUT_SHOUTED, ...(speaker.key === undefined ? {} : { speaker: speaker.key, sound: soundDigest([...calm, ...excited]) }) });
  const placements = placeSpeech(plan, calm.map((c) => c.duration), excited.map((c) => c.duration), spec.seed);
  const wav = path.join(work, `held-out-${spec.seed}-${key}.wav`);
  if (!(await exists(wav))) {
    const m4a = path.join(work, `held-out-${spec.seed}-${key}.m4a`);
    await encodeAudioTrack(
      { duration: DURATION, seed: spec.seed, placements, calm, excited, moments: plan.moments, quiet: plan.quiet, muted: [], scenes: plan.scenes, channels: 1, bitrateKbps: 160, gameLevel: spec.gameLevel, codec: "aac" },
      m4a,
    );
    await toWav(m4a, wav);
  }
  const sentences = placements.map((p) => ({
    text: (p.style === "calm" ? calm : excited)[p.clip]!.text,
    start: Math.round(p.start * 1000) / 1000,
    end: Math.round(p.end * 1000) / 1000,
    loud: p.style === "excited",
  }));
  const by = speaker === ESPEAK_SPEAKER ? "" : `, ${speaker.name}`;
  return { name: `held-out sentences over the game bed${by}, seed ${spec.seed}${spec.gameLevel !== 1 ? `, game audio x${spec.gameLevel}` : ""}`, split, voice: speaker.name, wav, seconds: DURATION, sentences };
}

/**
 * Sentences one after another with 1.2 s pauses and no game audio, through the same mixer and AAC encode as a
 * VOD's track (a shout louder than talk, as there) and read back as the renderer reads a VOD's audio.
 */
export async function spokenAlone(cache: string, work: string, split: Split, speaker: Speaker, texts: readonly { text: string; style: SpeechStyle }[]): Promise<SpeechSample> {
  const clips = await Promise.all(texts.map((t) => speaker.speak(t.text, t.style, cache)));
  const key = hashOf({ v: 1, texts, speaker: speaker.key ?? speaker.name, sound: soundDigest(clips) });
  const placements: SpeechPlacement[] = [];
  let t = 0.5;
  for (const [clip, c] of clips.entries()) {
    placements.push({ style: c.style, clip, start: t, end: t + c.duration });
    t += c.duration + 1.2;
  }
  const wav = path.join(work, `${split}-alone-${key}.wav`);
  if (!(await exists(wav))) {
    const m4a = path.join(work, `${split}-alone-${key}.m4a`);
    // Every clip is its own placement's clip, in both lists: the mixer levels it by its style.
    await encodeAudioTrack({ duration: t, seed: 1, placements, calm: clips, excited: clips, moments: [], quiet: [], muted: [], scenes: [], channels: 1, bitrateKbps: 160, gameLevel: 0, codec: "aac" }, m4a);
    await toWav(m4a, wav);
  }
  const sentences = placements.map((p) => ({ text: clips[p.clip]!.text, start: Math.round(p.start * 1000) / 1000, end: Math.round(p.end * 1000) / 1000, loud: p.style === "excited" }));
  return { name: `held-out sentences alone, ${speaker.name}`, split, voice: speaker.name, wav, seconds: t, sentences };
}

/** The held-out sentences one after another with 1.2 s pauses, other voices and speeds, no game audio. */
export async function heldOutClean(work: string): Promise<SpeechSample> {
  const texts = [...HELD_OUT_CALM.slice(0, 12), ...HELD_OUT_SHOUTED.slice(0, 3)];
  const voices = texts.map((_, i) => [i % 2 ? "en-gb" : "en-us", i % 3 === 0 ? 185 : 160] as const);
  return sentencesAlone(work, "held-out sentences alone (en-us/en-gb voices, 160-185 wpm)", "held-out", texts, voices, { v: 1, texts }, "espeak-ng en-us, en-gb");
}

/**
 * Sentences read one after another by espeak-ng with 1.2 s pauses, no game audio, the i-th in voices[i]
 * (voice+variant, words per minute). Kept once made: espeak-ng's output is not byte-for-byte the same from run
 * to run, and the transcript cache is keyed by the wav's bytes.
 */
export async function sentencesAlone(work: string, name: string, split: Split, texts: readonly string[], voices: readonly (readonly [string, number])[], keyOf: unknown = { v: 2, texts, voices }, speakers = `espeak-ng ${voiceNames(voices)}`): Promise<SpeechSample> {
  const key = hashOf(keyOf);
  const wav = path.join(work, `${split}-clean-${key}.wav`);
  const index = path.join(work, `${split}-clean-${key}.json`);
  if ((await exists(wav)) && (await exists(index))) {
    const saved = JSON.parse(await readFile(index, "utf8")) as { sentences: SpokenSentence[]; seconds: number };
    return { name, split, voice: speakers, wav, ...saved };
  }
  const sentences: SpokenSentence[] = [];
  const parts: string[] = [];
  let t = 0.5;
  for (const [i, text] of texts.entries()) {
    const raw = path.join(work, `clean-${key}-${i}.wav`);
    const [voice, wpm] = voices[i % voices.length]!;
    await run("espeak-ng", ["-v", voice, "-s", String(wpm), "-w", raw, text]);
    const part = path.join(work, `clean-${key}-${i}-16k.wav`);
    // Silence trimmed like the generator does, then a pause before the next sentence.
    await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", part, "silence", "1", "0.01", "0.5%", "reverse", "silence", "1", "0.01", "0.5%", "reverse", "pad", "0", "1.2"]);
    const { stdout } = await run("soxi", ["-D", part]);
    const duration = Number(stdout.trim()) - 1.2;
    sentences.push({ text, start: t, end: t + duration });
    t += duration + 1.2;
    parts.push(part);
  }
  const lead = path.join(work, "lead.wav");
  await run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", lead, "trim", "0", "0.5"]);
  await run("sox", [lead, ...parts, wav]);
  await writeFile(index, JSON.stringify({ sentences, seconds: t }));
  return { name, split, voice: speakers, wav, seconds: t, sentences };
}

/**
 * The flite split: per voice, the held-out sentences over the game bed and half of them alone (voices take the
 * halves in turn, so each sentence is heard alone in two or three voices).
 */
async function fliteMaterial(cache: string, work: string): Promise<SpeechSample[]> {
  const out: SpeechSample[] = [];
  const halves = [0, 1].map((h) => [
    ...HELD_OUT_CALM.filter((_, i) => i % 2 === h).map((text) => ({ text, style: "calm" as const })),
    ...HELD_OUT_SHOUTED.filter((_, i) => i % 2 === h).map((text) => ({ text, style: "excited" as const })),
  ]);
  for (const [i, voice] of FLITE_VOICES.entries()) {
    const speaker = fliteSpeaker(voice);
    out.push(await heldOutVod(cache, work, FLITE_VODS[i]!, "flite", speaker));
    out.push(await spokenAlone(cache, work, "flite", speaker, halves[i % 2]!));
  }
  return out;
}

function voiceNames(voices: readonly (readonly [string, number])[]): string {
  return voices.map(([v]) => v).join(", ");
}

/**
 * Every sample of the splits asked for; VODs and wavs are cached under `root`. `brief`: the first tuning VOD
 * and the first fresh one beside the voices (a third of the recogniser's CPU), for a machine too busy for all.
 */
export async function speechMaterial(root: string, cache: string, splits: readonly Split[] = ["tuning", "held-out", "fresh"], brief = false): Promise<SpeechSample[]> {
  const work = path.join(root, "wavs");
  await mkdir(work, { recursive: true });
  const out: SpeechSample[] = [];
  if (splits.includes("tuning")) {
    for (const [i, spec] of TUNING_VODS.entries()) if (!brief || i < 1) out.push(await tuningVod(root, work, spec, i));
    const texts = [...CALM_SENTENCES.slice(0, 18), ...EXCITED_SENTENCES.slice(0, 3)];
    out.push(await sentencesAlone(work, `generator sentences alone (${voiceNames(TUNING_VOICES)})`, "tuning", texts, TUNING_VOICES));
  }
  if (splits.includes("held-out")) {
    for (const spec of HELD_OUT_VODS) out.push(await heldOutVod(cache, work, spec));
    out.push(await heldOutClean(work));
  }
  if (splits.includes("fresh")) {
    for (const [i, spec] of FRESH_GENERATOR_VODS.entries()) if (!brief || i < 1) out.push(await tuningVod(root, work, spec, i, "fresh"));
    if (!brief) for (const spec of FRESH_HELD_OUT_VODS) out.push(await heldOutVod(cache, work, spec, "fresh"));
    const texts = [...CALM_SENTENCES.slice(18), ...HELD_OUT_CALM.slice(12), ...EXCITED_SENTENCES.slice(3), ...HELD_OUT_SHOUTED.slice(3)];
    out.push(await sentencesAlone(work, `sentences alone (${voiceNames(FRESH_VOICES)})`, "fresh", texts, FRESH_VOICES));
  }
  if (splits.includes("flite")) out.push(...(await fliteMaterial(cache, work)));
  return out;
}
