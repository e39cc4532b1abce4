/**
 * End to end on media the project generates: a synthetic VOD with one hype moment and one chat-spam
 * distractor, read like a job reads it (chat replay over the local Twitch server's GQL, audio analysis of the
 * audio_only HLS rendition over HTTP), then selection per profile.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchChatReplay } from "../../../common/twitch/chat-replay";
import { generateSyntheticVod, synthCacheRoot, type SyntheticVodTruth } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import { analyzeChat } from "../../../render-container/src/analysis/chat-signals";
import type { AudioAnalysis, ChatSignals } from "../../../render-container/src/analysis/types";
import { selectMoments } from "../../../render-container/src/selection/select-moments";
import { PARAMS, TUNING } from "./signals";

const VOD_ID = "900000150";

describe("selection on a generated VOD read through the local Twitch server", () => {
  let server: TwitchServer;
  let truth: SyntheticVodTruth;
  let audio: AudioAnalysis;
  let chat: ChatSignals;

  beforeAll(async () => {
    const root = path.join(synthCacheRoot(), "selection-test-vods");
    ({ truth } = await generateSyntheticVod({
      root,
      vodId: VOD_ID,
      durationSeconds: 240,
      seed: 5,
      width: 320,
      height: 180,
      fps: 10,
      moments: [
        { kind: "hype", peak: 70 },
        { kind: "chat_only", peak: 170 },
      ],
    }));
    server = await startTwitchServer({ root });
    const replay = await fetchChatReplay({ gqlUrl: server.gqlUrl }, VOD_ID, truth.duration_seconds);
    expect(replay.complete).toBe(true);
    chat = analyzeChat(replay.comments, truth.duration_seconds);
    audio = await analyzeAudio(`${server.url}/media/${VOD_ID}/audio_only/index-dvr.m3u8`, { durationSeconds: truth.duration_seconds });
  });

  afterAll(async () => {
    await server?.close();
  });

  const hype = () => truth.moments.find((m) => m.kind === "hype")!;
  const spam = () => truth.moments.find((m) => m.kind === "chat_only")!;
  const covers = (ms: { start: number; end: number }[], t: number) => ms.some((m) => m.start <= t && t < m.end);

  it("hears the planted shout within a second of where it was put", () => {
    const h = hype();
    const loudest = audio.loudnessAboveBaselineDb.reduce((b, v, i) => (v > audio.loudnessAboveBaselineDb[b]! ? i : b), 0);
    expect(loudest).toBeGreaterThanOrEqual(h.loud_start! - 1);
    expect(loudest).toBeLessThanOrEqual(h.loud_end! + 1);
  });

  it("balanced picks the hype moment with its setup, and not the spam", () => {
    const ms = selectMoments({ audio, chat, durationSeconds: truth.duration_seconds, tuning: TUNING.balanced, params: PARAMS, manual: [], profile: "balanced" });
    expect(covers(ms, hype().peak)).toBe(true);
    expect(covers(ms, spam().peak)).toBe(false);
    const clip = ms.find((m) => m.start <= hype().peak && hype().peak < m.end)!;
    expect(clip.start).toBeLessThanOrEqual(hype().setup_start);
    expect(clip.signals.reasons.some((r) => r.startsWith("chat rate"))).toBe(true);
    expect(clip.signals.reasons.some((r) => r.startsWith("voice +"))).toBe(true);
  });

  it("no profile takes the copy-paste spam (a dozen accounts posting five lines each is not a crowd reacting)", () => {
    const audience = selectMoments({ audio, chat, durationSeconds: truth.duration_seconds, tuning: TUNING.audience, params: PARAMS, manual: [], profile: "audience" });
    const streamer = selectMoments({ audio, chat, durationSeconds: truth.duration_seconds, tuning: TUNING.streamer, params: PARAMS, manual: [], profile: "streamer" });
    expect(covers(audience, spam().peak)).toBe(false);
    expect(covers(streamer, spam().peak)).toBe(false);
    expect(covers(audience, hype().peak)).toBe(true);
    expect(covers(streamer, hype().peak)).toBe(true);
  });
});
