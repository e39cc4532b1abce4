import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMetadataWriter } from "../../../render-container/src/metadata/create-writer";
import { LlmMetadataWriter, parseAnswer } from "../../../render-container/src/metadata/llm-writer";
import { LocalMetadataWriter, writeLocalMetadata } from "../../../render-container/src/metadata/local-writer";
import { MetadataOutput } from "../../../render-container/src/metadata/types";
import { sampleInput } from "./sample-input";

interface ChatRequest {
  model: string;
  response_format?: { type: string };
  messages: { role: string; content: string }[];
}

let server: http.Server;
let baseUrl: string;
let requests: { auth: string | undefined; url: string; body: ChatRequest }[] = [];
let answers: Array<(res: http.ServerResponse) => void> = [];

const completion = (content: string) => (res: http.ServerResponse) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ id: "chatcmpl-1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] }));
};
const status = (code: number, body = "{}") => (res: http.ServerResponse) => {
  res.writeHead(code, { "content-type": "application/json" });
  res.end(body);
};

const GERMAN_ANSWER = {
  reels: [{ run_name: "balanced", title: "NovaPlays: Die besten Momente", description: "Die besten Momente von NovaPlays. Folge ihr auf Twitch: https://www.twitch.tv/novaplays", tags: ["NovaPlays", "#Elden Ring", "Highlights"] }],
  shorts: [
    { index: 1, title: "Der Drache fällt!", description: "Der Chat rastet aus.", tags: ["shorts", "Drache"] },
    { index: 2, title: "Unfairer Boss", description: "NovaPlays ärgert sich über den Boss.", tags: ["Boss"] },
  ],
  moments: [
    { id: "m1", title: "Der Drache fällt!", story: "Der Chat explodierte, als NovaPlays den Drachen besiegte." },
    { id: "m2", title: "Unfairer Boss", story: "NovaPlays schimpft lautstark über den Boss." },
    { id: "m3", title: "Das geheime Ende", story: "Von Hand gewählt: das geheime Ende." },
  ],
};

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    requests.push({ auth: req.headers.authorization, url: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequest });
    (answers.shift() ?? status(500))(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  requests = [];
  answers = [];
});

describe("LlmMetadataWriter", () => {
  it("asks for strict JSON in the target language and uses the validated answer", async () => {
    answers.push(completion("```json\n" + JSON.stringify(GERMAN_ANSWER) + "\n```"));
    const w = new LlmMetadataWriter({ baseUrl, apiKey: "sk-meta", model: "gpt-test" });
    const out = await w.write(sampleInput({ language: "de" }));
    MetadataOutput.parse(out);

    expect(requests).toHaveLength(1);
    const r = requests[0]!;
    expect(r.url).toBe("/v1/chat/completions");
    expect(r.auth).toBe("Bearer sk-meta");
    expect(r.body.model).toBe("gpt-test");
    expect(r.body.response_format).toEqual({ type: "json_object" });
    expect(r.body.messages[0]!.role).toBe("system");
    expect(r.body.messages[0]!.content).toMatch(/German/);
    const user = JSON.parse(r.body.messages[1]!.content) as { input: { moments: { id: string; transcript: string | null }[]; streamer: { pronouns: string } } };
    expect(user.input.moments.map((m) => m.id)).toEqual(["m1", "m2", "m3"]);
    expect(user.input.moments[0]!.transcript).toContain("dragon");
    expect(user.input.streamer.pronouns).toBe("she/her");

    expect(out.language).toBe("de");
    expect(out.warnings).toEqual([]);
    expect(out.reels[0]!.title).toBe("NovaPlays: Die besten Momente");
    expect(out.reels[0]!.tags).toEqual(["NovaPlays", "Elden Ring", "Highlights"]);
    expect(out.moments.map((m) => m.title)).toEqual(["Der Drache fällt!", "Unfairer Boss", "Das geheime Ende"]);
    // The model kept the Twitch link but dropped the Twitter one: it is appended.
    expect(out.reels[0]!.description.match(/twitch\.tv\/novaplays/g)).toHaveLength(1);
    expect(out.reels[0]!.description).toContain("https://x.com/novaplays");
    expect(out.shorts[0]!.description).toContain("https://www.twitch.tv/novaplays");
  });

  it("fills in what the model left out from the local writer, with a warning", async () => {
    answers.push(completion(JSON.stringify({ ...GERMAN_ANSWER, shorts: [GERMAN_ANSWER.shorts[0]], moments: GERMAN_ANSWER.moments.slice(0, 2) })));
    const out = await new LlmMetadataWriter({ baseUrl, model: "m" }).write(sampleInput({ language: "de" }));
    const local = writeLocalMetadata(sampleInput({ language: "de" }));
    expect(out.shorts[1]!.title).toBe(local.shorts[1]!.title);
    expect(out.moments[2]!.story).toBe(local.moments[2]!.story);
    expect(out.warnings.join(" ")).toMatch(/left out moment m3, short 2;/);
  });

  const failures: [string, () => (res: http.ServerResponse) => void][] = [
    ["prose instead of JSON", () => completion("Sure! Here are some great titles for your video.")],
    ["JSON of the wrong shape", () => completion(JSON.stringify({ reels: [{ run_name: "balanced", title: "" }] }))],
    ["a client error", () => status(400, JSON.stringify({ error: { message: "bad model" } }))],
  ];
  for (const [what, answer] of failures) {
    it(`falls back to the local writer on ${what}`, async () => {
      answers.push(answer());
      const out = await new LlmMetadataWriter({ baseUrl, model: "m", retryDelayMs: 1 }).write(sampleInput());
      const local = writeLocalMetadata(sampleInput());
      expect(out.reels).toEqual(local.reels);
      expect(out.moments).toEqual(local.moments);
      expect(out.warnings[0]).toMatch(/built-in templates/);
      expect(requests).toHaveLength(1);
    });
  }

  it("retries a server error once, then falls back", async () => {
    answers.push(status(503), status(502));
    const out = await new LlmMetadataWriter({ baseUrl, model: "m", retryDelayMs: 1 }).write(sampleInput());
    expect(requests).toHaveLength(2);
    expect(out.warnings[0]).toMatch(/HTTP 502/);
  });

  it("falls back when the API cannot be reached", async () => {
    const out = await new LlmMetadataWriter({ baseUrl: "http://127.0.0.1:9/v1", model: "m", retryDelayMs: 1 }).write(sampleInput());
    expect(out.reels[0]!.title).toBe(writeLocalMetadata(sampleInput()).reels[0]!.title);
    expect(out.warnings[0]).toMatch(/built-in templates/);
  });

  describe("checks what comes back", () => {
    /** The German answer with some fields changed. */
    const german = (edit: (a: typeof GERMAN_ANSWER) => void) => {
      const a = structuredClone(GERMAN_ANSWER);
      edit(a);
      return completion(JSON.stringify(a));
    };
    const write = (over: Parameters<typeof sampleInput>[0] = {}) => new LlmMetadataWriter({ baseUrl, model: "m" }).write(sampleInput({ language: "de", ...over }));

    it("gives the model the confident transcript, its phrases, chat and the moment's why", async () => {
      answers.push(completion(JSON.stringify(GERMAN_ANSWER)));
      const input = sampleInput({ language: "de" });
      input.moments[0]!.spoken_phrases = ["the dragon is down", "we actually killed the dragon"];
      // A question slipped into the moment's chat (a hand-built input): the model never sees it as a reaction.
      input.moments[0]!.top_chat_messages = ["POGGERS", "what game is this", "no way", "dragon down"];
      input.moments[0]!.chat_crowd = { voices: 60, lines: [{ text: "POGGERS", accounts: 21 }, { text: "no way", accounts: 12 }, { text: "dragon down", accounts: 5 }] };
      await new LlmMetadataWriter({ baseUrl, model: "m" }).write(input);
      const user = JSON.parse(requests[0]!.body.messages[1]!.content) as { rules: string[]; input: { moments: Record<string, unknown>[] } };
      const m1 = user.input.moments[0]!;
      expect(m1.kind).toBe("hype");
      expect(m1.spoken_phrases).toEqual(["the dragon is down", "we actually killed the dragon"]);
      expect(m1.chat_reactions).toEqual([{ text: "POGGERS", accounts: 21 }, { text: "no way", accounts: 12 }, { text: "dragon down", accounts: 5 }]);
      expect(m1.chat_voices).toBe(60);
      expect(user.rules.join(" ")).toMatch(/what it was about before who typed what/);
      expect(m1.why).toMatchObject({ chat_rate_vs_baseline: 8.04, loudness_db_above_baseline: 9, picked_by_hand: false });
      expect(user.rules.join(" ")).toMatch(/spoken_phrases/);
      expect(user.rules.join(" ")).toMatch(/No swear words/);
    });

    it("gives the model only the offline recogniser's phrases that chat echoes", async () => {
      answers.push(completion(JSON.stringify(GERMAN_ANSWER)));
      const input = sampleInput({ language: "de" });
      Object.assign(input.moments[0]!, { spoken_phrases: ["the dragon is down", "we actually killed it"], speech_offline: true });
      await new LlmMetadataWriter({ baseUrl, model: "m" }).write(input);
      const user = JSON.parse(requests[0]!.body.messages[1]!.content) as { input: { moments: Record<string, unknown>[] } };
      // Chat typed "dragon down": the first phrase is corroborated, the second is the recogniser's word alone.
      expect(user.input.moments[0]!.spoken_phrases).toEqual(["the dragon is down"]);
    });

    it("replaces a field that is too long, in another language, repeated or profane, and says which", async () => {
      answers.push(
        german((a) => {
          a.moments[0]!.title = `Der Drache fällt ${"und fällt ".repeat(12)}`;
          a.moments[1]!.story = "Chat went wild as NovaPlays was raging at the boss and it was the best part of the stream";
          a.moments[2]!.title = "UNFAIRER Boss";
          a.shorts[1]!.title = "NovaPlays ist ein Wichser";
          a.shorts[1]!.tags = ["Boss", "Scheiße", "shit show", "Elden Ring"];
        }),
      );
      const out = await write();
      const local = writeLocalMetadata(sampleInput({ language: "de" }));
      MetadataOutput.parse(out);
      expect(out.moments[0]!.title).toBe(local.moments[0]!.title);
      expect(out.moments[0]!.story).toBe(GERMAN_ANSWER.moments[0]!.story);
      expect(out.moments[1]!.title).toBe("Unfairer Boss");
      expect(out.moments[1]!.story).toBe(local.moments[1]!.story);
      expect(out.moments[2]!.title).toBe(local.moments[2]!.title);
      expect(out.shorts[1]!.title).toBe(local.shorts[1]!.title);
      expect(out.shorts[1]!.tags).toEqual(["Boss", "Elden Ring"]);
      expect(out.shorts[0]!.title).toBe("Der Drache fällt!");
      const warning = out.warnings.join(" ");
      expect(warning).toMatch(/moment m1 title \(longer than 100 characters\)/);
      expect(warning).toMatch(/moment m2 story \(in English rather than German\)/);
      expect(warning).toMatch(/moment m3 title \(same as moment m2\)/);
      expect(warning).toMatch(/short 2 title \(profanity nobody said or typed: "W\*{6}"\)/);
    });

    it("writes a story or description that repeats the figures a moment was picked by (8x, dB, baseline) locally", async () => {
      answers.push(
        german((a) => {
          a.moments[0]!.story = "Der Chat explodierte (8x), als NovaPlays den Drachen besiegte.";
          a.moments[1]!.story = "Laut (+12 dB): NovaPlays schimpft über den Boss.";
          a.shorts[0]!.description = "Der Chat lief 8,5 x schneller als sonst.";
        }),
      );
      const out = await write();
      const local = writeLocalMetadata(sampleInput({ language: "de" }));
      expect(out.moments[0]!.story).toBe(local.moments[0]!.story);
      expect(out.moments[1]!.story).toBe(local.moments[1]!.story);
      expect(out.shorts[0]!.description).toBe(local.shorts[0]!.description);
      // The story the model wrote in words stays.
      expect(out.moments[2]!.story).toBe(GERMAN_ANSWER.moments[2]!.story);
      const warning = out.warnings.join(" ");
      expect(warning).toMatch(/moment m1 story \(it reads like analytics: "8x"\)/);
      expect(warning).toMatch(/moment m2 story \(it reads like analytics: "\+12 dB"\)/);
      expect(warning).toMatch(/short 1 description \(it reads like analytics: "8,5 x"\)/);
    });

    it("holds quotes to the local writer's rules: only what was said or a crowd typed, never promotion, a greeting or a question, no wording and subject twice", async () => {
      const input = sampleInput({ language: "de", moments: sampleInput().moments.map((m) => (m.id === "m2" ? { ...m, top_chat_messages: ["skill issue", "no way"] } : m)) });
      answers.push(
        german((a) => {
          a.moments[0]!.title = "NovaPlays: \u201Eno way\u201C";
          a.moments[0]!.story = "Der Chat explodierte, als NovaPlays \u201Ethe dragon is dead\u201C rief.";
          a.moments[1]!.title = "NovaPlays: \u201ENO WAYYY!\u201C";
          a.moments[1]!.story = "Laut, und der Chat fragt \u201Ehow long have you been live\u201C.";
          a.moments[2]!.title = "\u201Ebuy cheap followers now\u201C \u2013 pures Chaos bei NovaPlays";
          a.shorts[0]!.title = "Der Chat flutet \u201Eno way\u201C";
          a.shorts[1]!.title = "NovaPlays: \u201Efirst time here\u201C";
          a.shorts[1]!.description = "Kauft Follower auf cheapviewers.com";
        }),
      );
      const out = await new LlmMetadataWriter({ baseUrl, model: "m" }).write(input);
      const local = writeLocalMetadata(input);
      // A crowd's line, and a run of what was said, are quoted as the model wrote them.
      expect(out.moments[0]!.title).toBe("NovaPlays: \u201Eno way\u201C");
      expect(out.shorts[0]!.title).toBe("Der Chat flutet \u201Eno way\u201C");
      expect(out.moments[0]!.story).toBe(local.moments[0]!.story);
      expect(out.moments[1]!.title).toBe(local.moments[1]!.title);
      expect(out.moments[1]!.story).toBe(local.moments[1]!.story);
      expect(out.moments[2]!.title).toBe(local.moments[2]!.title);
      expect(out.shorts[1]!.title).toBe(local.shorts[1]!.title);
      expect(out.shorts[1]!.description).toBe(local.shorts[1]!.description);
      const warning = out.warnings.join(" ");
      expect(warning).toMatch(/moment m1 story \(it quotes what was neither said nor typed by a crowd: \u201Cthe dragon is dead\u201D\)/);
      expect(warning).toMatch(/moment m2 title \(same as moment m1\)/);
      expect(warning).toMatch(/moment m2 story \(it quotes a question: \u201Chow long have you been live\u201D\)/);
      expect(warning).toMatch(/moment m3 title \(it advertises/);
      expect(warning).toMatch(/short 2 title \(it quotes a greeting: \u201Cfirst time here\u201D\)/);
      expect(warning).toMatch(/short 2 description \(it advertises/);
    });

    it("keeps profanity that was said or typed, masked unless the job turns masking off; never a slur", async () => {
      const swearing = (mask: boolean) =>
        sampleInput({
          language: "de",
          mask_profanity: mask,
          moments: sampleInput().moments.map((m) => (m.id === "m2" ? { ...m, transcript: "dieser boss ist scheiße", top_chat_messages: ["SCHEISSE", "skill issue"] } : m)),
        });
      const answer = german((a) => {
        a.moments[1]!.title = "Scheiße, dieser Boss!";
        a.shorts[1]!.title = "Scheiße, dieser Boss!";
        a.moments[0]!.story = "Der Chat schreibt retards, als NovaPlays den Drachen besiegt.";
      });
      answers.push(answer);
      const masked = await new LlmMetadataWriter({ baseUrl, model: "m" }).write(swearing(true));
      expect(masked.moments[1]!.title).toBe("S******, dieser Boss!");
      expect(masked.shorts[1]!.title).toBe("S******, dieser Boss!");
      expect(masked.moments[0]!.story).toBe(writeLocalMetadata(swearing(true)).moments[0]!.story);
      expect(masked.warnings.join(" ")).toMatch(/moment m1 story \(a slur\)/);

      answers.push(answer);
      const plain = await new LlmMetadataWriter({ baseUrl, model: "m" }).write(swearing(false));
      expect(plain.moments[1]!.title).toBe("Scheiße, dieser Boss!");
    });

    it("drops an answer written in another language as a whole", async () => {
      answers.push(
        completion(
          JSON.stringify({
            reels: [{ run_name: "balanced", title: "NovaPlays: the best moments of the stream", description: "All of the best moments from the stream, with the dragon and the boss.", tags: ["NovaPlays"] }],
            shorts: [{ index: 1, title: "The dragon is down", description: "Chat went wild when the dragon fell.", tags: ["dragon"] }],
            moments: [{ id: "m1", title: "The dragon is down", story: "Chat exploded as the dragon fell and it was over." }],
          }),
        ),
      );
      const out = await write();
      const local = writeLocalMetadata(sampleInput({ language: "de" }));
      expect(out.reels).toEqual(local.reels);
      expect(out.shorts).toEqual(local.shorts);
      expect(out.moments).toEqual(local.moments);
      expect(out.language).toBe("de");
      expect(out.warnings[0]).toBe("The metadata model answered in English rather than German; built-in templates were used instead.");
    });
  });

  it("parseAnswer finds the object inside chatter", () => {
    expect(parseAnswer('Here you go: {"reels": [], "shorts": [], "moments": []} Enjoy!')).toEqual({ reels: [], shorts: [], moments: [] });
    expect(() => parseAnswer("no json")).toThrow();
  });
});

describe("createMetadataWriter", () => {
  it("picks the LLM writer only when configured", () => {
    expect(createMetadataWriter({})).toBeInstanceOf(LocalMetadataWriter);
    expect(createMetadataWriter({ METADATA_API_URL: baseUrl, METADATA_API_KEY: "k", METADATA_MODEL: "x" })).toBeInstanceOf(LlmMetadataWriter);
    expect(createMetadataWriter({}, fetch, null)).toBeInstanceOf(LocalMetadataWriter);
  });

  // This server plays the Worker's Workers AI route (common/contract/workers-ai.ts): OpenAI's chat completions.
  // The analysis task's attempt's own endpoint and token, as its task request carries them: used as given.
  const ai = () => ({ url: `${new URL(baseUrl).origin}/internal/jobs/job_ai/tasks/analyse/attempts/1/ai/v1`, token: "attempt-token" });

  it("writes through the task's Workers AI endpoint with the attempt's token when METADATA_API_URL is unset", async () => {
    answers.push(completion(JSON.stringify(GERMAN_ANSWER)));
    const writer = createMetadataWriter({}, fetch, ai());
    expect(writer.name).toBe("workers-ai");
    const out = await writer.write(sampleInput({ language: "de" }));
    expect(requests.map((r) => [r.url, r.auth])).toEqual([["/internal/jobs/job_ai/tasks/analyse/attempts/1/ai/v1/chat/completions", "Bearer attempt-token"]]);
    expect(requests[0]!.body.response_format).toEqual({ type: "json_object" });
    expect(out.warnings).toEqual([]);
    expect(out.moments.map((m) => m.title)).toEqual(GERMAN_ANSWER.moments.map((m) => m.title));
  });

  it("lets METADATA_API_URL win over the job's endpoint", async () => {
    answers.push(completion(JSON.stringify(GERMAN_ANSWER)));
    await createMetadataWriter({ METADATA_API_URL: baseUrl, METADATA_API_KEY: "own" }, fetch, ai()).write(sampleInput({ language: "de" }));
    expect(requests.map((r) => [r.url, r.auth, r.body.model])).toEqual([["/v1/chat/completions", "Bearer own", "gpt-4o-mini"]]);
  });

  it("writes from templates, with a warning, when Workers AI stays unavailable through the retry", async () => {
    const unavailable = () => status(503, JSON.stringify({ error: { code: "ai_unavailable", message: "Workers AI could not run the model just now" } }));
    answers.push(unavailable(), unavailable());
    const out = await createMetadataWriter({}, fetch, ai()).write(sampleInput());
    expect(requests).toHaveLength(2);
    expect(out.reels).toEqual(writeLocalMetadata(sampleInput()).reels);
    expect(out.warnings[0]).toMatch(/^The metadata model could not be used \(.*HTTP 503.*ai_unavailable.*\); built-in templates were used instead\.$/);
  }, 10_000);
});
