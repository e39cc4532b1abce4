import { describe, expect, it } from "vitest";
import { generateChatLog } from "../../dev/synth-vod/chat-log";
import { placeSpeech, planTimeline } from "../../dev/synth-vod/plan";
import { evalScenario, SCENARIO_VARIANTS } from "../../dev/synth-vod/scenarios";

describe("evaluation scenarios", () => {
  it("plant every kind with lags of 5-15 s, one-account spam, and vary the condition by seed", () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 10; seed++) {
      const s = evalScenario(seed);
      expect(evalScenario(seed)).toEqual(s);
      seen.add(s.variant.name);
      const ms = s.options.moments!;
      expect(new Set(ms.map((m) => m.kind))).toEqual(new Set(["hype", "streamer_only", "audience_only", "game_noise", "chat_only"]));
      for (const m of ms) {
        expect(m.chatLag).toBeGreaterThanOrEqual(5);
        expect(m.chatLag).toBeLessThanOrEqual(15);
      }
      expect(ms.filter((m) => m.kind === "chat_only" && m.spamAccounts === 1)).toHaveLength(1);
      expect(s.options.durationSeconds).toBeGreaterThanOrEqual(1200);
      if (s.variant.name === "long_quiet") expect(s.options.quiet!.every((q) => q.end - q.start >= 150)).toBe(true);
    }
    expect(seen).toEqual(new Set(SCENARIO_VARIANTS.map((v) => v.name)));
  });
});

describe("setup markers in the plan", () => {
  const plan = planTimeline(300, 4, [
    { kind: "hype", peak: 100, setupSeconds: 25, setupStyle: "talk", chatLag: 9 },
    { kind: "streamer_only", peak: 200, setupSeconds: 22, setupStyle: "scene" },
  ]);

  it("a talk setup: a 3 s pause, then a sentence starting exactly at the setup", () => {
    const speech = placeSpeech(plan, new Array(32).fill(3), new Array(6).fill(2), 4);
    const setup = plan.moments[0]!.setup_start;
    expect(speech.some((p) => p.style === "calm" && Math.abs(p.start - setup) < 1e-9)).toBe(true);
    expect(speech.some((p) => p.end > setup - 3 && p.start < setup)).toBe(false);
  });

  it("a scene setup: a scene cut at its start (on a 10 s boundary), none inside the moment", () => {
    const m = plan.moments[1]!;
    expect(m.setup_start % 10).toBe(0);
    const cuts = plan.scenes.slice(1).map((s) => s.start);
    expect(cuts).toContain(m.setup_start);
    expect(cuts.filter((c) => c > m.setup_start && c < m.end)).toEqual([]);
  });

  it("chat: a reaction burst from many viewers after the lag; spam from one account", () => {
    const p = planTimeline(300, 4, [
      { kind: "audience_only", peak: 100, chatLag: 12, chatMessages: 50 },
      { kind: "chat_only", peak: 200, spamAccounts: 1, chatMessages: 30 },
    ]);
    const log = generateChatLog({ duration: 300, seed: 4, moments: p.moments, createdAt: "2026-01-01T00:00:00Z", baselineRate: 0.2 });
    const [reaction, spam] = log.truth.bursts;
    expect(reaction!.start).toBe(112);
    expect(reaction!.unique_chatters).toBeGreaterThan(40);
    expect(spam!.unique_chatters).toBe(1);
  });
});
