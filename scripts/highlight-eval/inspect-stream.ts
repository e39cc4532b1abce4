/**
 * What the analysis saw on one evaluation stream, second by second, beside what was planted there: for diagnosing a
 * missed moment, a clip on a distractor or an edge inside a sentence. Generates the stream if it is not cached and
 * analyses it as a job does (job-selection.ts), then prints for each second of the range its loudness over the
 * baseline, the voice model's speech share, the voice's rise and pitch rise, the usual talking level the rise was
 * read against (dB of voiced power; voice-activity/usual-level.ts), the voice's loudness and the `streamer`
 * profile's score, under a line naming the usual pitch(es) and how many reference seconds were talk; then the truth's sentences, moments and game sounds, and the pauses the analysis
 * found there (the envelope's, before any clip edge is heard), and with `--hear` the pauses the voice model hears
 * over the range as a clip edge there would (speech-pauses.ts) with the model's speech probability per 32 ms window
 * (a digit 0-9 for 0-0.99, a line per second).
 *
 *   npx tsx scripts/highlight-eval/inspect-stream.ts --source c-loudnorm --seed 106 --from 950 --to 970
 *
 * `--source` is b, c or a variant key of source c (c-flat, c-compressed, c-loudnorm, c-loud, c-calm, c-drift).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { STREAMS_B_VERSION } from "../../dev/synth-streams-b";
import { synthCacheRoot } from "../../dev/synth-vod";
import { loadVoiceModel, SILERO } from "../../render-container/src/analysis/voice-activity/silero-model";
import { measureVoiceActivity, readPcm } from "../../render-container/src/analysis/voice-activity/measure-voice";
import { speechPausesIn } from "../../render-container/src/analysis/voice-activity/speech-pauses";
import { speechProbabilities } from "../../render-container/src/analysis/voice-activity/speech-probabilities";
import { computeSecondScores, voiceLoudnessDb } from "../../render-container/src/selection/second-scores";
import { PROFILE_DEFAULTS } from "../../worker/src/domain/profile-defaults";
import { analyseLikeAJob } from "./job-selection";
import { SOURCES, type SourceKey } from "./source-b";

const { values } = parseArgs({ options: { source: { type: "string" }, seed: { type: "string" }, from: { type: "string" }, to: { type: "string" }, hear: { type: "boolean" } } });
const source = values.source as SourceKey;
if (!source || !(source in SOURCES)) throw new Error(`--source must be one of ${Object.keys(SOURCES).join(", ")}`);
const seed = Number(values.seed);
const [from, to] = [Number(values.from ?? 0), Number(values.to ?? 60)];
if (!Number.isInteger(seed) || !(to > from)) throw new Error("give --seed N and a range --from S --to S (seconds, from < to)");

const S = SOURCES[source];
const root = path.join(synthCacheRoot(), `eval-streams-${source}-v${STREAMS_B_VERSION}`);
const { dir, truth } = await S.generate({ root, vodId: String(S.vodBase + seed), seed, log: (l) => console.error(l) });
const { audio, dispose } = await analyseLikeAJob(path.join(dir, truth.audio_file), truth.duration_seconds);
try {
  const streamer = computeSecondScores(audio, null, PROFILE_DEFAULTS.streamer, truth.duration_seconds).streamer;
  const voice = voiceLoudnessDb(audio);
  const f = (x: number | null | undefined, d = 1) => (x === undefined || x === null ? "-" : x.toFixed(d)).padStart(7);
  // The model listened once in the analysis; once more here, to say what the rises were read against.
  const { usual } = await measureVoiceActivity(audio, { model: await loadVoiceModel() });
  const hz = (st: number) => `${st.toFixed(1)} st (${(2 ** (st / 12)).toFixed(0)} Hz)`;
  console.log(
    `usual pitch ${usual.pitch === null ? "unclear" : hz(usual.pitch)}${usual.otherPitch === null ? "" : `, a second voice ${hz(usual.otherPitch)}`}; ` +
      `${usual.talkSeconds} of ${usual.referenceSeconds} reference seconds are talk`,
  );
  console.log("     s   loud dB  share  rise dB  pitch st  usual dB  voice dB  streamer");
  for (let s = Math.max(0, Math.floor(from)); s < Math.min(truth.duration_seconds, Math.ceil(to)); s++) {
    console.log(`${String(s).padStart(6)} ${f(audio.loudnessAboveBaselineDb[s])}  ${f(audio.voiceShare?.[s], 2)} ${f(audio.voiceRiseDb?.[s])}   ${f(audio.voicePitchRise?.[s])}   ${f(usual.levelDbAt(s))}   ${f(voice[s])}   ${f(streamer[s], 2)}`);
  }
  const within = (a: number, b: number) => b > from && a < to;
  for (const u of truth.utterances) if (within(u.start, u.end)) console.log(`sentence ${u.speaker} ${u.start.toFixed(2)}-${u.end.toFixed(2)}${u.shout ? " (shout)" : ""}: ${u.text}`);
  for (const m of truth.moments) if (within(m.setup_start, m.end)) console.log(`moment ${m.id} (${m.real ? "real" : "distractor"}) setup ${m.setup_start} peak ${m.peak} end ${m.end}`);
  for (const g of truth.ambient_sounds) if (within(g.at, g.at + 5)) console.log(`game sound ${g.kind} at ${g.at}`);
  for (const p of audio.pauses ?? []) if (within(p.start, p.end)) console.log(`pause ${p.start.toFixed(2)}-${p.end.toFixed(2)}`);
  if (values.hear) {
    const model = await loadVoiceModel();
    const heard = await speechPausesIn(audio, [{ start: from, end: to }], { model });
    for (const p of heard.pauses) console.log(`heard pause ${p.start.toFixed(2)}-${p.end.toFixed(2)}`);
    // The same pre-roll as speechPausesIn, so the digits are the answers it acted on.
    const pre = 0.5;
    const probs = await speechProbabilities(model, readPcm(audio.pcm ?? [], from - pre, to, SILERO.sampleRate));
    const ws = SILERO.window / SILERO.sampleRate;
    for (let s = Math.floor(from); s < Math.ceil(to); s++) {
      let line = "";
      for (let w = Math.ceil((s - from + pre) / ws); (from - pre) + w * ws < s + 1 && w < probs.length; w++) line += Math.min(9, Math.floor(probs[w]! * 10));
      console.log(`heard ${String(s).padStart(6)} ${line}`);
    }
  }
} finally {
  await dispose();
}
