import { describe, expect, it } from "vitest";
import { commentsFromNodes } from "../../scripts/highlight-eval/job-selection";
import { parseArgs } from "node:util";
import { isUsageError } from "../../scripts/highlight-eval/usage-error";
import { emotesAsTextOf, sourceOfOptions, targetsB, VARIANT_OPTIONS, variantsGiven, type RowB } from "../../scripts/highlight-eval/source-b";

describe("eval:highlights: which source --source and the variant options (--voices, --mix, --sounds, --moments, --levels) name", () => {
  it("names b, c and c's six variants", () => {
    expect(sourceOfOptions("b")).toBe("b");
    expect(sourceOfOptions("c")).toBe("c");
    expect(sourceOfOptions("c", { voices: "flat" })).toBe("c-flat");
    expect(sourceOfOptions("c", { mix: "compressed" })).toBe("c-compressed");
    expect(sourceOfOptions("c", { mix: "loudnorm" })).toBe("c-loudnorm");
    expect(sourceOfOptions("c", { sounds: "loud" })).toBe("c-loud");
    expect(sourceOfOptions("c", { moments: "none" })).toBe("c-calm");
    expect(sourceOfOptions("c", { levels: "drift" })).toBe("c-drift");
  });

  it("reads every variant option from the parsed command line, and only those (the options are made from the variants)", () => {
    expect(VARIANT_OPTIONS).toEqual(["voices", "mix", "sounds", "moments", "levels"]);
    expect(variantsGiven({ source: "c", levels: "drift", emotes: "text", split: undefined })).toEqual({ levels: "drift" });
    expect(sourceOfOptions("c", variantsGiven({ levels: "drift" }))).toBe("c-drift");
    expect(variantsGiven({ source: "a" })).toEqual({});
  });

  it("says which option is wrong and why", () => {
    expect(() => sourceOfOptions("c", { voices: "loud" })).toThrow("--voices takes flat (every voice on one pitch), got loud");
    expect(() => sourceOfOptions("c", { mix: "limited" })).toThrow("--mix takes compressed (the mix through a broadcast compressor) or loudnorm (the mix through FFmpeg's loudness normaliser), got limited");
    expect(() => sourceOfOptions("c", { sounds: "quiet" })).toThrow("--sounds takes loud (game sounds louder than the streamer), got quiet");
    expect(() => sourceOfOptions("b", { voices: "flat" })).toThrow("--voices, --mix, --sounds, --moments, --levels are variants of source c, not of source b");
    expect(() => sourceOfOptions("c", { moments: "all" })).toThrow("--moments takes none (no moment to find, only the distractors), got all");
    expect(() => sourceOfOptions("c", { levels: "steady" })).toThrow("--levels takes drift (the streamer's and the game's levels wandering over the stream), got steady");
    expect(() => sourceOfOptions("a", { sounds: "loud" })).toThrow("are variants of source c, not of source a");
    expect(() => sourceOfOptions("c", { voices: "flat", mix: "compressed" })).toThrow("--voices and --mix are separate variants of source c: give one");
    expect(() => sourceOfOptions("d")).toThrow("--source must be b or c here, got d");
  });
});

describe("eval:highlights: the issue's targets on a split's rows", () => {
  const row = (run: string, over: Partial<RowB> = {}): RowB => ({
    run, clips_per_stream: "0-0", own_kinds: "hype", own_recall: "0/0", own_recall_value: null, hype: "0/0", streamer_only: "0/0", audience_only: "0/0",
    both_strong: "0/0", short_shouts: "0/0", precision: null, empty_clips: 0, reaction_only_clips: 0, distractor_clips: 0, payoff_median: null, mid_sentence: "0/0", near_speech: "0/0", titles: "",
    titles_quoting_small_talk_or_spam: 0, examples: [], ...over,
  });
  const runs = ["balanced", "audience", "streamer", "balanced (3 profiles, 6 min)", "audience (3 profiles, 6 min)", "streamer (3 profiles, 6 min)"];

  it("on a stream with nothing to find (--moments none), the recall target has nothing to miss; a clip there still fails precision", () => {
    expect(targetsB(runs.map((r) => row(r))).own_recall_ge_0_75_alone).toBe(true);
    const withClip = targetsB(runs.map((r) => (r === "streamer" ? row(r, { precision: 0, distractor_clips: 1, mid_sentence: "0/2" }) : row(r))));
    expect(withClip.precision_ge_0_9).toBe(false);
    expect(withClip.no_distractor_clip).toBe(false);
  });

  it("where own moments were planted, a recall under 0.75 fails", () => {
    const t = targetsB(runs.map((r) => row(r, r === "audience" ? { own_recall: "5/10", own_recall_value: 0.5 } : { own_recall: "9/10", own_recall_value: 0.9 })));
    expect(t.own_recall_ge_0_75_alone).toBe(false);
  });
});

describe("eval:highlights --emotes text: the chat's emotes as bare words", () => {
  const node = {
    id: "c1",
    commenter: { id: "1", login: "viewer", displayName: "Viewer" },
    contentOffsetSeconds: 12,
    createdAt: "2026-03-02T19:00:12.000Z",
    message: {
      fragments: [
        { text: "DansGame", emote: { id: "33;0;7", emoteID: "33", from: 0 } },
        { text: " no way", emote: null },
      ],
      userBadges: [],
      userColor: null,
    },
  };

  it("reads the chat as the replay reads it: marked emotes counted, or one plain fragment with none marked", () => {
    const [marked] = commentsFromNodes([node]);
    expect(marked).toMatchObject({ text: "DansGame no way", emote_count: 1, commenter_login: "viewer", offset_seconds: 12 });
    const [plain] = commentsFromNodes([node], { emotesAsText: true });
    expect(plain).toMatchObject({ text: "DansGame no way", emote_count: 0, fragments: [{ text: "DansGame no way", emote_id: null }] });
  });

  it("takes text on sources b and c only, and says which is wrong", () => {
    expect(emotesAsTextOf("b", "text")).toBe(true);
    expect(emotesAsTextOf("c", undefined)).toBe(false);
    expect(emotesAsTextOf("a", undefined)).toBe(false);
    expect(() => emotesAsTextOf("c", "marked")).toThrow("--emotes takes text (the chat's emotes as bare words, no fragment marked), got marked");
    expect(() => emotesAsTextOf("a", "text")).toThrow("--emotes is an option of sources b and c, not of source a");
  });
});

describe("eval:highlights: a wrong option is told in one sentence, a fault with its stack", () => {
  const thrown = (f: () => unknown): unknown => {
    try {
      f();
    } catch (error) {
      return error;
    }
    throw new Error("nothing thrown");
  };

  it("takes the option checks' errors and parseArgs' unknown options for usage errors, and nothing else", () => {
    expect(isUsageError(thrown(() => sourceOfOptions("c", { mix: "bad" })))).toBe(true);
    expect(isUsageError(thrown(() => emotesAsTextOf("a", "text")))).toBe(true);
    expect(isUsageError(thrown(() => parseArgs({ args: ["--bogus"], options: { source: { type: "string" } } })))).toBe(true);
    expect(isUsageError(new Error("ffmpeg exited with code 1"))).toBe(false);
    expect(isUsageError("--source")).toBe(false);
  });
});
