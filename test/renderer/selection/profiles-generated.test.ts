/**
 * The profile and boundary rules on a small generated stream (audio and chat only, as the evaluation uses):
 * a streamer-only shout after a talk setup, an audience-only chat reaction 10 s late, a build-up into a hype
 * moment, and two distractors (loud game noise, one account spamming).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generateSyntheticVod, synthCacheRoot, type SyntheticVodTruth } from "../../../dev/synth-vod";
import type { ChatFile } from "../../../dev/twitch-server";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import { analyzeChat } from "../../../render-container/src/analysis/chat-signals";
import type { AudioAnalysis, ChatSignals } from "../../../render-container/src/analysis/types";
import { selectMoments } from "../../../render-container/src/selection/select-moments";
import type { Moment } from "../../../render-container/src/selection/types";
import { PARAMS, TUNING } from "./signals";

let truth: SyntheticVodTruth;
let audio: AudioAnalysis;
let chat: ChatSignals;

beforeAll(async () => {
  const root = path.join(synthCacheRoot(), "selection-profile-streams");
  let dir: string;
  ({ dir, truth } = await generateSyntheticVod({
    root,
    vodId: "900000160",
    durationSeconds: 420,
    seed: 21,
    media: "audio",
    chatRate: 0.5,
    moments: [
      { kind: "streamer_only", id: "streamer", peak: 70, setupSeconds: 18, setupStyle: "talk", reactionSeconds: 8 },
      { kind: "audience_only", id: "audience", peak: 150, setupSeconds: 15, setupStyle: "talk", chatLag: 10, chatMessages: 80 },
      { kind: "game_noise", id: "noise", peak: 215, reactionSeconds: 6 },
      { kind: "chat_only", id: "spam", peak: 250, spamAccounts: 1, chatMessages: 35, chatSeconds: 30 },
      { kind: "hype", id: "hype", peak: 340, setupSeconds: 20, setupStyle: "rise", chatLag: 8, chatMessages: 90, reactionSeconds: 8 },
    ],
  }));
  const file = JSON.parse(await readFile(path.join(dir, "chat.json"), "utf8")) as ChatFile;
  const comments = file.comments.map((n) => ({
    offset_seconds: n.contentOffsetSeconds,
    commenter_login: n.commenter?.login ?? null,
    text: n.message.fragments.map((f) => f.text).join(""),
    emote_count: n.message.fragments.filter((f) => f.emote !== null).length,
  }));
  chat = analyzeChat(comments, truth.duration_seconds);
  audio = await analyzeAudio(path.join(dir, truth.audio_file!), { durationSeconds: truth.duration_seconds });
});

const peak = (id: string) => truth.moments.find((m) => m.id === id)!;
const holding = (ms: Moment[], id: string) => ms.find((m) => m.start <= peak(id).peak && peak(id).peak < m.end);
const pick = (p: "balanced" | "audience" | "streamer", target?: number) =>
  selectMoments({ audio, chat, durationSeconds: truth.duration_seconds, tuning: { ...TUNING[p], ...(target ? { target_duration_seconds: target } : {}) }, params: PARAMS, manual: [], profile: p });

describe("profiles on a generated stream", () => {
  it("with room for two clips, each profile takes the hype moment and then its own kind", () => {
    const audience = pick("audience", 75);
    const streamer = pick("streamer", 75);
    expect(holding(audience, "hype") && holding(streamer, "hype")).toBeTruthy();
    expect(holding(audience, "audience")).toBeTruthy();
    expect(holding(audience, "streamer")).toBeUndefined();
    expect(holding(streamer, "streamer")).toBeTruthy();
    expect(holding(streamer, "audience")).toBeUndefined();
  });

  it("no profile takes the game noise or the one-account spam, even with an open budget", () => {
    for (const p of ["balanced", "audience", "streamer"] as const) {
      const ms = pick(p, 1800);
      expect(holding(ms, "noise")).toBeUndefined();
      expect(holding(ms, "spam")).toBeUndefined();
    }
  });

  it("maps chat's late reaction back to the moment and keeps 8 s after it", () => {
    const clip = holding(pick("audience", 1800), "audience")!;
    expect(clip.end - peak("audience").peak).toBeGreaterThanOrEqual(8);
  });

  it("starts the talk-led setup where the talk begins, and cuts no sentence", () => {
    const ms = pick("balanced", 1800);
    const clip = holding(ms, "streamer")!;
    expect(clip.start).toBeLessThanOrEqual(peak("streamer").setup_start + 0.5);
    expect(clip.start).toBeGreaterThanOrEqual(peak("streamer").setup_start - 6);
    for (const m of ms)
      for (const t of [m.start, m.end]) expect(truth.sentences.find((s) => t > s.start + 0.15 && t < s.end - 0.15)).toBeUndefined();
  });

  it("explains both ends of every clip", () => {
    for (const m of pick("balanced", 1800)) {
      expect(m.signals.reasons).toContainEqual(expect.stringMatching(/^starts \d+\.\d s before the peak: /));
      expect(m.signals.reasons).toContainEqual(expect.stringMatching(/^ends \d+\.\d s after the peak: /));
    }
  });
});
