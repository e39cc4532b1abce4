/**
 * A job's choice with its clip edges heard (stages/hear-edges.ts) on talk under a busy music bed, where the
 * voice-band envelope finds no pause between sentences: the edges land in the pauses the model hears.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobRequestInput } from "../../../common/contract/job-request";
import type { ChatComment } from "../../../common/twitch";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { silentLogger } from "../../../render-container/src/log";
import { JobProgress } from "../../../render-container/src/pipeline/progress";
import { chooseMoments, type ChoosingRun } from "../../../render-container/src/pipeline/stages/choose-moments";
import { chooseHearingEdges } from "../../../render-container/src/pipeline/stages/hear-edges";
import { normaliseJobRequest } from "../../../worker/src/domain/normalise-request";
import { analysedArpeggioSpeech, ARPEGGIO_SPEECH as C, type ArpeggioSpeech } from "../analysis/arpeggio-speech-fixture";

let clip: ArpeggioSpeech;
let audio: AudioAnalysis;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ clip, audio, dispose } = await analysedArpeggioSpeech());
}, 180_000);

afterAll(() => dispose());

/** Chat: small talk now and then, and a burst of distinct viewers 4-12 s after the shout. */
function comments(): ChatComment[] {
  const out: ChatComment[] = [];
  const add = (t: number, login: string, text: string) => out.push({ id: `c${out.length}`, offset_seconds: t, commenter_login: login, commenter_name: login, text, emote_count: 0, fragments: [{ text, emote_id: null }] });
  for (let t = 3; t < C.duration; t += 9) add(t, `regular${t % 4}`, "nice run");
  for (let k = 0; k < 30; k++) add(C.shoutAt + 4 + (k % 8), `viewer${k}`, k % 2 ? "NO WAY" : "INSANE");
  return out.sort((a, b) => a.offset_seconds - b.offset_seconds);
}

function run(): ChoosingRun {
  const input = JobRequestInput.parse({ vod_url: "https://www.twitch.tv/videos/123456789", run_profiles: ["balanced"], num_shorts: 1 });
  const request = normaliseJobRequest(input, { vodId: "123456789", canonicalUrl: "https://www.twitch.tv/videos/123456789", plan: "pro", purchased: true });
  return { job: { request }, ctx: { log: silentLogger }, progress: new JobProgress({ progress() {} }) };
}

const insideSentence = (t: number) => clip.sentences.some((s) => t > s.start + 0.05 && t < s.end - 0.05);

describe("chooseHearingEdges", () => {
  it("puts every clip edge in a pause between sentences where the envelope alone cuts through one", async () => {
    const source = { audio, comments: comments(), durationSeconds: C.duration };
    const plain = chooseMoments(run(), source);
    const plainEdges = [...(plain.momentsByProfile.balanced ?? []), ...plain.shorts].flatMap((m) => [m.start, m.end]);
    // The premise: on the envelope's pauses (none here), an edge lies inside a sentence.
    expect(plainEdges.some(insideSentence)).toBe(true);

    const heard = await chooseHearingEdges(run(), source);
    const moments = [...(heard.chosen.momentsByProfile.balanced ?? []), ...heard.chosen.shorts];
    expect(moments.length).toBeGreaterThan(0);
    expect(moments.some((m) => m.start <= C.shoutAt && m.end >= C.shoutAt + 1)).toBe(true);
    for (const m of moments) {
      expect(insideSentence(m.start), `start ${m.start}`).toBe(false);
      expect(insideSentence(m.end), `end ${m.end}`).toBe(false);
    }
    expect(heard.heardSeconds).toBeGreaterThan(0);
    expect(heard.heardSeconds).toBeLessThan(C.duration);
    expect(heard.warning).toBeUndefined();
    // The pauses it heard are the analysis' from now on (a later job reusing it starts from them).
    for (const m of moments) expect(heard.audio.pauses!.some((p) => p.start - 1e-6 <= m.end && m.end <= p.end + 1e-6)).toBe(true);
  });

  it("keeps the envelope's choice, and says so in a warning, when the voice model fails", async () => {
    const source = { audio, comments: comments(), durationSeconds: C.duration };
    const broken = { run: () => Promise.reject(new Error("the model's session failed")) };
    const heard = await chooseHearingEdges(run(), source, { model: broken });
    expect(heard.heardSeconds).toBe(0);
    expect(heard.warning).toMatch(/could not be heard \(the model's session failed\)/);
    expect(heard.audio.pauses).toEqual(audio.pauses);
    expect(heard.chosen.momentsByProfile).toEqual(chooseMoments(run(), source).momentsByProfile);
  });

  it("keeps the envelope's choice when the PCM is gone (a reused analysis)", async () => {
    const { pcm: _pcm, ...withoutPcm } = audio;
    const source = { audio: withoutPcm, comments: comments(), durationSeconds: C.duration };
    const heard = await chooseHearingEdges(run(), source);
    expect(heard.heardSeconds).toBe(0);
    expect(heard.chosen.momentsByProfile).toEqual(chooseMoments(run(), source).momentsByProfile);
  });
});
