import { describe, expect, it } from "vitest";
import { crowdVoices, normalizeChatText } from "../../../render-container/src/analysis/chat-voices";
import type { ChatCommentInput } from "../../../render-container/src/analysis/types";

const msg = (t: number, login: string | null, text: string, emotes = 0): ChatCommentInput => ({ offset_seconds: t, commenter_login: login, text, emote_count: emotes });

describe("crowd voices", () => {
  it("normalises near-duplicate lines to one text", () => {
    const same = ["Type 1 if you are here", "type 1 if you are here!!!", "TYPE  1  IF YOU ARE HERE \u{E0000}", "type 1 1 1 if you are here", "type 1 if you are heeeere"];
    const norms = new Set(same.map(normalizeChatText));
    expect(norms.size).toBe(1);
    expect(normalizeChatText("type 1 if you are heree")).toBe(normalizeChatText("type 1 if you are here"));
    expect(normalizeChatText("follow my channel")).not.toBe(normalizeChatText("follow my stream"));
    expect(normalizeChatText("💀💀")).toBe("💀💀");
  });

  it("leaves out accounts posting on a loop; a viewer posting twice still counts", () => {
    const v = crowdVoices([msg(0, "looper", "1"), msg(5, "viewer", "nice"), msg(10, "looper", "1"), msg(12, "viewer", "haha"), msg(20, "looper", "1"), msg(100, "looper", "back")]);
    expect(v).toEqual([null, "u:viewer", null, "u:viewer", null, "u:looper"]);
    // Two messages 30 s apart and a third later are no loop.
    expect(crowdVoices([msg(0, "a", "x"), msg(20, "a", "y"), msg(45, "a", "z")])).toEqual(["u:a", "u:a", "u:a"]);
  });

  it("three short reactions from one viewer are no loop; five within half a minute are (an emote spammer)", () => {
    const hard = crowdVoices([msg(0, "tiny", "?????"), msg(1, "salty", "YOOO"), msg(3, "tiny", "that was insane"), msg(6, "tiny", "?????")]);
    expect(hard).toEqual(["u:tiny", "u:salty", "u:tiny", "u:tiny"]);
    // A loop of conversation or promotion stays out, and so does a viewer who keeps posting reactions.
    expect(crowdVoices([msg(0, "a", "is this the new update"), msg(3, "a", "KEKW"), msg(6, "a", "KEKW")])).toEqual([null, null, null]);
    const spam = crowdVoices(Array.from({ length: 8 }, (_, i) => msg(i * 3, "spammer", "Kappa Kappa", 2)));
    expect(spam.every((v) => v === null)).toBe(true);
  });

  it("counts a line pasted by three or more accounts once, but never a reaction", () => {
    const sorted = [msg(0, "a", "follow my channel"), msg(1, "b", "Follow my channel!"), msg(2, "c", "follow my channel"), msg(3, "d", "KEKW"), msg(3, "e", "KEKW"), msg(4, "f", "KEKW"), msg(60, "g", "follow my channel")];
    const v = crowdVoices(sorted);
    expect(v[0]).toMatch(/^copy:/);
    expect(v.slice(0, 3)).toEqual([v[0], v[0], v[0]]);
    expect(v.slice(3, 6)).toEqual(["u:d", "u:e", "u:f"]);
    // Far from the others, the same line is one person's again.
    expect(v[6]).toBe("u:g");
  });

  it("a shouted or long line is no reaction for this: capitals and emotes do not exempt a copypasta", () => {
    const pasta = "PogChamp giveaway in my channel go follow now";
    const v = crowdVoices([msg(0, "a", pasta, 1), msg(1, "b", pasta.toUpperCase(), 1), msg(2, "c", "FOLLOW MY CHANNEL"), msg(3, "d", "FOLLOW MY CHANNEL"), msg(3, "e", "follow my channel!!")]);
    expect(v[0]).toBe("u:a"); // two accounts are no pasted line yet
    expect(v[2]).toMatch(/^copy:/);
    expect(v.slice(2)).toEqual([v[2], v[2], v[2]]);
  });

  it("a raid's pasted line is one voice though it holds an emote; lines of nothing but reactions stay a crowd", () => {
    const raid = [0, 1, 2, 3, 4, 5].map((t) => msg(t, `raider${t}`, "xqcowtv raid VoHiYo", 1));
    const v = crowdVoices(raid);
    expect(new Set(v).size).toBe(1);
    expect(v[0]).toMatch(/^copy:/);
    // Each of these, pasted by three accounts at once, is three people reacting.
    for (const [text, emotes] of [["gg wp", 0], ["NO WAY", 0], ["PogChamp PogChamp", 2], ["L", 0], ["💀💀", 0], ["KEKW LUL", 0], ["that was insane", 0]] as const) {
      const crowd = crowdVoices([msg(0, "a", text, emotes), msg(1, "b", text, emotes), msg(2, "c", text, emotes)]);
      expect(crowd, text).toEqual(["u:a", "u:b", "u:c"]);
    }
    // An emote beside other words is a pasted line once three accounts paste it.
    const mixed = crowdVoices([msg(0, "a", "VoHiYo follow my channel", 1), msg(1, "b", "VoHiYo follow my channel", 1), msg(2, "c", "VoHiYo follow my channel", 1)]);
    expect(new Set(mixed).size).toBe(1);
  });

  it("keeps anonymous messages as separate voices", () => {
    expect(crowdVoices([msg(0, null, "hi"), msg(1, null, "hey")])).toEqual(["anon:0", "anon:1"]);
  });
});
