/**
 * The profile and boundary rules on a small generated stream (audio and chat only, as the evaluation uses):
 * a streamer-only shout after a talk setup, an audience-only chat reaction 10 s late, a build-up into a hype
 * moment, and two distractors (loud game noise, one account spamming). Also what a job sees through its selection
 * stage: the run_overrides weights moving the choice, and the warning that says why a reel came out short.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunProfile } from "../../../common/contract/enums";
import { RunOverrideInput } from "../../../common/contract/job-request";
import { Manifest } from "../../../common/contract/render";
import { finaliseJob } from "../../../common/plan/finalise";
import type { ChatComment } from "../../../common/twitch";
import { generateSyntheticVod, synthCacheRoot, type SyntheticVodTruth } from "../../../dev/synth-vod";
import type { ChatFile } from "../../../dev/twitch-server";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import { analyzeChat } from "../../../render-container/src/analysis/chat-signals";
import type { AudioAnalysis, ChatSignals } from "../../../render-container/src/analysis/types";
import { silentLogger } from "../../../render-container/src/log";
import { JobProgress } from "../../../render-container/src/pipeline/progress";
import { chooseMoments } from "../../../render-container/src/pipeline/stages/choose-moments";
import { selectMoments } from "../../../render-container/src/selection/select-moments";
import { BOUNDARY_RULES } from "../../../render-container/src/selection/boundaries";
import type { Moment } from "../../../render-container/src/selection/types";
import { resolveProfileSettings } from "../../../worker/src/domain/normalise-request";
import { normalizedRequest } from "../pipeline/plan-fixtures";
import { handMadePlan } from "../pipeline/task-fixtures";
import { PARAMS, TUNING } from "./signals";

let truth: SyntheticVodTruth;
let audio: AudioAnalysis;
let chat: ChatSignals;
let comments: ChatComment[];

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
  comments = file.comments.map((n) => ({
    id: n.id,
    offset_seconds: n.contentOffsetSeconds,
    commenter_login: n.commenter?.login ?? null,
    commenter_name: n.commenter?.displayName ?? null,
    text: n.message.fragments.map((f) => f.text).join(""),
    emote_count: n.message.fragments.filter((f) => f.emote !== null).length,
    fragments: n.message.fragments.map((f) => ({ text: f.text, emote_id: f.emote?.emoteID ?? null })),
  }));
  chat = analyzeChat(comments, truth.duration_seconds);
  audio = await analyzeAudio(path.join(dir, truth.audio_file!), { durationSeconds: truth.duration_seconds });
});

const peak = (id: string) => truth.moments.find((m) => m.id === id)!;
const holding = (ms: Moment[], id: string) => ms.find((m) => m.start <= peak(id).peak && peak(id).peak < m.end);
const pick = (p: "balanced" | "audience" | "streamer", target?: number) =>
  selectMoments({ audio, chat, durationSeconds: truth.duration_seconds, tuning: { ...TUNING[p], ...(target ? { target_duration_seconds: target } : {}) }, params: PARAMS, manual: [], profile: p });
const PROFILES = ["balanced", "audience", "streamer"] as const;
/** The planted events a clip may hold, and the distractors none may. */
const EVENTS = ["streamer", "audience", "hype"];
const DISTRACTORS = ["noise", "spam"];
const peaksIn = (m: Moment) => truth.moments.filter((t) => m.start <= t.peak && t.peak < m.end).map((t) => t.id);

/** The job's selection stage (chooseMoments) with one profile tuned by `run_overrides`, as a job resolves them. */
function chooseWith(profile: RunProfile, override: Record<string, unknown>) {
  const profile_settings = resolveProfileSettings([profile], null, { [profile]: RunOverrideInput.parse(override) });
  const request = normalizedRequest({ run_profiles: [profile], executed_profiles: [profile], profile_settings, parameters: PARAMS });
  return chooseMoments({ job: { request }, ctx: { log: silentLogger }, progress: new JobProgress({ progress() {} }) }, { audio, comments, durationSeconds: truth.duration_seconds });
}

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

  it("a moment high on both signals wins in every profile: with room for one clip, each takes the hype moment", () => {
    for (const p of PROFILES) {
      const ms = pick(p, 40);
      expect(ms, p).toHaveLength(1);
      expect(holding(ms, "hype"), p).toBeTruthy();
    }
    expect(holding(pick("balanced", 75), "hype")).toBeTruthy();
  });

  it("never pads: with an open budget every clip of every profile holds a planted event's peak, and none a distractor's", () => {
    for (const p of PROFILES) {
      const ms = pick(p, 1800);
      expect(ms.length, p).toBeGreaterThan(0);
      for (const m of ms) {
        const held = peaksIn(m);
        expect(held.some((id) => EVENTS.includes(id)), `${p} clip ${m.start}-${m.end} holds ${held.join(", ") || "nothing"}`).toBe(true);
        expect(held.filter((id) => DISTRACTORS.includes(id)), `${p} clip ${m.start}-${m.end}`).toEqual([]);
      }
    }
  });

  it("says in the manifest's warnings that a reel is short because only so many moments showed an event of its own signal", async () => {
    // 400 s fits in the 420 s VOD and in its buckets: the only reason left for a short reel is the scores.
    const chosen = chooseWith("audience", { target_duration_seconds: 400 });
    const n = chosen.momentsByProfile.audience!.length;
    expect(n).toBeGreaterThan(0);
    const warning = expect.stringMatching(
      new RegExp(
        `^The audience reel runs \\d+ s of its 400 s target: only ${n} distinct moment\\(s\\) showed an event in chat's reaction; \\d+ other stretch\\(es\\) scored above highlight_min_score 0\\.35 but showed no such event, and a reel is never padded with them\\.$`,
      ),
    );
    expect(chosen.warnings).toEqual([warning]);
    // The analysis puts the selection's warnings in the job plan; finalising the job lists them in the manifest.
    let manifest: unknown;
    await finaliseJob(handMadePlan("job_short_reel", truth.duration_seconds, [], [], { warnings: chosen.warnings! }), [], async (name, body) => {
      if (name === "manifest.json") manifest = JSON.parse(body);
      return { size_bytes: body.length };
    });
    expect(Manifest.parse(manifest).warnings).toEqual([warning]);
  });

  it("moves the choice with run_overrides: as audience_weight rises (streamer_weight = 1 - it), own-kind picks move one way", () => {
    const sweep = [0, 0.25, 0.5, 0.75, 1].map((a) => {
      const ms = chooseWith("balanced", { target_duration_seconds: 75, audience_weight: a, streamer_weight: Math.round((1 - a) * 100) / 100 }).momentsByProfile.balanced!;
      return { a, audience: ms.filter((m) => peaksIn(m).includes("audience")).length, streamer: ms.filter((m) => peaksIn(m).includes("streamer")).length };
    });
    const trace = JSON.stringify(sweep);
    for (let i = 1; i < sweep.length; i++) {
      expect(sweep[i]!.audience, trace).toBeGreaterThanOrEqual(sweep[i - 1]!.audience);
      expect(sweep[i]!.streamer, trace).toBeLessThanOrEqual(sweep[i - 1]!.streamer);
    }
    // The two ends differ: chat alone takes the audience moment, the voice alone the streamer's.
    expect([sweep[0]!.audience, sweep[0]!.streamer], trace).toEqual([0, 1]);
    expect([sweep.at(-1)!.audience, sweep.at(-1)!.streamer], trace).toEqual([1, 0]);
  });

  it("starts the hype moment's clip where its planted build-up begins to rise (or the sentence it rises in), and keeps 8 s of payoff after its peak", () => {
    const hype = peak("hype");
    expect(hype.setup_style).toBe("rise");
    // The rise begins inside a sentence: the clip may start where that sentence does (in the pause before it,
    // so no sentence is cut), no earlier, and never after the rise.
    const sentence = truth.sentences.find((x) => x.start <= hype.setup_start && hype.setup_start < x.end);
    const earliest = (sentence?.start ?? hype.setup_start) - BOUNDARY_RULES.pauseMarginSeconds - 0.1;
    for (const p of PROFILES) {
      const clip = holding(pick(p, 1800), "hype")!;
      const at = `${p}: starts at ${clip.start.toFixed(2)}, the rise at ${hype.setup_start}, its sentence at ${sentence?.start}`;
      expect(clip.start, at).toBeGreaterThanOrEqual(earliest);
      // The loudness is measured per second over a 3 s envelope: the measured climb may begin a second after
      // the planted one (here it turns at 321, in the pause after the rise's first sentence).
      expect(clip.start, at).toBeLessThanOrEqual(hype.setup_start + 1.5);
      expect(hype.setup_start - clip.start, at).toBeLessThanOrEqual(4);
      expect(clip.end - hype.peak, p).toBeGreaterThanOrEqual(8);
    }
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
