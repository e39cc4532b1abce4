import { z } from "zod";
import { primaryLanguage } from "../captions/transcriber";
import { Distinct, Evidence, STORY_LIMIT, checkTags, checkText, momentsOf, type TextField } from "./answer-checks";
import { judgeLanguage } from "./language-check";
import { languageName } from "./language-names";
import { chatLineProblem } from "./chat-lines";
import { quoteProblem, titleShape } from "./quote-check";
import { momentKind, quotablePhrases } from "./reliable-text";
import { writeLocalMetadata } from "./local-writer";
import { limitMultiline, limitText } from "./text-limits";
import {
  LIMITS,
  MomentMetadata,
  ReelMetadata,
  ShortMetadata,
  type MetadataInput,
  type MetadataMoment,
  type MetadataOutput,
  type MetadataWriter,
} from "./types";
import { failure, PermanentError, withRetries } from "../http-retry";

export interface LlmMetadataOptions {
  /** Base URL of an OpenAI-compatible API, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** The writer's name in logs and metadata.json's source (default "llm"). */
  name?: string;
  fetchImpl?: typeof fetch;
  /** Default 60 s. */
  timeoutMs?: number;
  /** Attempts on network errors, 408, 429 and 5xx. Default 2. */
  attempts?: number;
  retryDelayMs?: number;
}

/** The JSON object the model must answer with. */
export const LlmAnswer = z.object({
  reels: z.array(ReelMetadata).default([]),
  shorts: z.array(ShortMetadata).default([]),
  moments: z.array(MomentMetadata).default([]),
});
export type LlmAnswer = z.infer<typeof LlmAnswer>;

const ChatCompletion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/**
 * What chat typed that the model may quote: the crowd's lines with how many accounts typed each (chat-crowd.ts),
 * never a line the local writer would not quote (chat-lines.ts), whoever built the input.
 */
function chatReactions(m: MetadataMoment): { text: string; accounts: number | null }[] {
  const accounts = new Map((m.chat_crowd?.lines ?? []).map((l) => [l.text, l.accounts]));
  return m.top_chat_messages
    .filter((t) => chatLineProblem(t) === null)
    .slice(0, 8)
    .map((t) => ({ text: limitText(t, 80), accounts: accounts.get(t) ?? null }));
}

function compactInput(input: MetadataInput) {
  return {
    streamer: input.streamer,
    game: input.game,
    vod_title: input.vod_title,
    moments: input.moments.map((m) => ({
      id: m.id,
      start_seconds: m.start,
      duration_seconds: Math.round(m.end - m.start),
      profile: m.profile,
      kind: momentKind(m),
      label: m.label,
      transcript: m.transcript ? limitText(m.transcript, 600) : null,
      spoken_phrases: quotablePhrases(m, input.language).slice(0, 12).map((p) => limitText(p, 120)),
      chat_reactions: chatReactions(m),
      chat_voices: m.chat_crowd?.voices ?? null,
      top_emotes: m.top_emotes.slice(0, 5),
      why: {
        chat_rate_vs_baseline: m.signals?.chat_rate_ratio ?? null,
        unique_chatters: m.signals?.unique_chatters ?? null,
        chat_hype_share: m.signals?.hype_density ?? null,
        loudness_db_above_baseline: m.signals?.loudness_db_above_baseline ?? null,
        picked_by_hand: m.signals?.source === "manual",
        reasons: m.signals?.reasons ?? [],
      },
    })),
    reels: input.reels,
    shorts: input.shorts,
  };
}

export function buildPrompt(input: MetadataInput, language: string): { system: string; user: string } {
  const name = languageName(language);
  const system = [
    "You write titles, descriptions and tags for highlight videos cut from a Twitch stream.",
    `Write every title, description, story and tag in ${name} (ISO 639-1 "${language}"), whatever the language of the transcripts.`,
    "Answer with a single JSON object and nothing else.",
  ].join(" ");
  const rules = [
    `Shape: {"reels":[{"run_name","title","description","tags":[...]}],"shorts":[{"index","title","description","tags":[...]}],"moments":[{"id","title","story"}]} with exactly one entry per requested reel (by run_name), short (by index) and moment (by id).`,
    `Titles: at most ${LIMITS.title} characters, no clickbait lies, no emoji; every moment and every short gets a title of its own (no two alike).`,
    `Stories: one line of at most ${STORY_LIMIT} characters, written as the streamer would tell their viewers what happened: what was said (spoken_phrases) and how chat reacted, in words (chat_reactions, top_emotes), e.g. "Chat lost it, spamming KEKW, when <streamer> said ...". The numbers in "why" only tell you what kind of moment it was: never write a rate, a multiple ("8x"), decibels or a baseline. No two stories alike.`,
    "kind says what made the moment: hype (chat and streamer erupting together), audience (chat reacting), streamer (the streamer getting loud).",
    "Descriptions: what the streamer would post with the video on YouTube or TikTok: a sentence or two on what happens in it, from the same evidence as the stories and with no figures from \"why\"; mention the streamer by name, use their pronouns, and include their Twitch and Twitter links when given.",
    `Tags: 5 to ${LIMITS.tagCount} short tags without '#'.`,
    "Transcripts hold only the words speech recognition was confident of; words it was unsure of are left out, so the transcript has gaps. Quote speech only from spoken_phrases (words said one after another), chat only from chat_reactions; never invent what was said.",
    "Title a moment by what it was about before who typed what: what the streamer said in it (spoken_phrases), the kind of event (a shout, a chat explosion, both; see why) and the game. Quote chat only when that says little, and only a line of chat_reactions (typed by many distinct viewers, chat_voices in all): never a greeting, a question, small talk, a link or promotion.",
    "No two titles may share their wording and their subject: moments of the same kind need different wordings, or different subjects.",
    `No swear words or slurs unless that very word is in the moment's transcript or chat${(input.mask_profanity ?? true) ? ", and then starred after the first letter (f***)" : ""}. Never a slur.`,
  ];
  return { system, user: JSON.stringify({ rules, input: compactInput(input) }) };
}

/** The model's text as JSON: tolerates a Markdown code fence around the object. */
export function parseAnswer(content: string): LlmAnswer {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content);
  const text = (fenced ? fenced[1]! : content).trim();
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) throw new Error("the answer contains no JSON object");
  return LlmAnswer.parse(JSON.parse(text.slice(start, end + 1)));
}

function ensureLinks(description: string, input: MetadataInput): string {
  const missing = [
    input.streamer.twitch_url && !description.includes(input.streamer.twitch_url) ? `Twitch: ${input.streamer.twitch_url}` : null,
    input.streamer.twitter_url && !description.includes(input.streamer.twitter_url) ? `X (Twitter): ${input.streamer.twitter_url}` : null,
  ].filter((l): l is string => l !== null);
  return missing.length ? `${description.trim()}\n\n${missing.join("\n")}` : description.trim();
}

/**
 * Metadata from an OpenAI-compatible `POST {baseUrl}/chat/completions` in the target language. The model gets
 * each moment's confident transcript and spoken phrases, chat excerpts and the "why" (signals, reasons); its
 * answer is parsed with zod and checked field by field (length, language, uniqueness, profanity: see merge).
 * Whatever the model leaves out or gets wrong is filled from the local writer with a warning, links the model
 * dropped are appended, and any failure (network, HTTP, malformed JSON) falls back to the local writer: metadata
 * never fails a job.
 */
export class LlmMetadataWriter implements MetadataWriter {
  readonly name: string;

  constructor(private readonly opts: LlmMetadataOptions) {
    this.name = opts.name ?? "llm";
  }

  async write(input: MetadataInput, opts: { signal?: AbortSignal } = {}): Promise<MetadataOutput> {
    const language = primaryLanguage(input.language) ?? "en";
    let answer: LlmAnswer;
    try {
      answer = await this.ask(input, language, opts.signal);
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      const local = writeLocalMetadata(input);
      const why = err instanceof Error ? err.message : String(err);
      return { ...local, warnings: [`The metadata model could not be used (${limitText(why, 200)}); built-in templates were used instead.`, ...local.warnings] };
    }
    return this.merge(input, language, answer);
  }

  /**
   * The model's answer checked field by field (answer-checks.ts): a field that is missing, too long, in another
   * language, repeats another moment's title or story, or holds profanity nobody said is replaced by the local
   * writer's, with one warning naming each. An answer that as a whole is in another language is dropped.
   */
  private merge(input: MetadataInput, language: string, answer: LlmAnswer): MetadataOutput {
    let local: MetadataOutput | null = null;
    const fallback = () => (local ??= writeLocalMetadata(input));
    const mask = input.mask_profanity ?? true;
    const names = [input.streamer.name, input.game, input.vod_title, ...input.moments.map((m) => m.label)];

    const everything = [...answer.reels, ...answer.shorts].flatMap((r) => [r.title, r.description]).concat(answer.moments.flatMap((m) => [m.title, m.story]));
    const verdict = judgeLanguage(everything.join("\n"), language, names);
    if (!verdict.plausible) {
      const out = fallback();
      return { ...out, warnings: [`The metadata model answered in ${verdict.looksLike} rather than ${languageName(language)}; built-in templates were used instead.`, ...out.warnings] };
    }

    const omitted: string[] = [];
    const replaced: string[] = [];
    const rangeOf = new Map(input.moments.map((m) => [m.id, `${m.start.toFixed(1)}-${m.end.toFixed(1)}`]));
    /** A checked field of the model, or the local writer's with the reason noted. */
    const field = (who: string, name: TextField, value: string, moments: readonly string[], local: () => string, unique?: { pool: Distinct; key: string }): string => {
      const checked = checkText(name, value, { language, mask, evidence: new Evidence(momentsOf(input, moments)), names });
      if (!checked.ok) {
        replaced.push(`${who} ${name} (${checked.reason})`);
        return local();
      }
      // The local writer's quoting rules (quote-check.ts); the streamer's own links are no advertising.
      const own = [input.streamer.twitch_url, input.streamer.twitter_url].filter((u): u is string => !!u);
      const quoted = quoteProblem(own.reduce((t, u) => t.split(u).join(" "), checked.text), momentsOf(input, moments), { language, mask, names });
      if (quoted) {
        replaced.push(`${who} ${name} (${quoted})`);
        return local();
      }
      // Titles compare by wording and subject: a quote typed otherwise ("NO WAYYY") is the same subject.
      const taken = unique?.pool.claim(name === "title" ? titleShape(checked.text) : checked.text, unique.key, who);
      if (taken) {
        replaced.push(`${who} ${name} (same as ${taken})`);
        return local();
      }
      return checked.text;
    };
    const tags = (who: string, value: string[], local: () => string[]) => {
      const kept = checkTags(value);
      if (!kept) replaced.push(`${who} tags (none usable)`);
      return kept ?? local();
    };

    const reels = input.reels.map((r) => {
      const got = answer.reels.find((a) => a.run_name === r.run_name);
      const mine = () => fallback().reels.find((a) => a.run_name === r.run_name)!;
      const who = `reel ${r.run_name}`;
      if (!got) {
        omitted.push(who);
        return mine();
      }
      return {
        run_name: r.run_name,
        title: field(who, "title", got.title, r.moment_ids, () => mine().title),
        description: limitMultiline(ensureLinks(field(who, "description", got.description, r.moment_ids, () => mine().description), input), LIMITS.description),
        tags: tags(who, got.tags, () => mine().tags),
      };
    });

    const momentTitles = new Distinct();
    const stories = new Distinct();
    const moments = input.moments.map((mo) => {
      const got = answer.moments.find((a) => a.id === mo.id);
      const mine = () => fallback().moments.find((a) => a.id === mo.id)!;
      const who = `moment ${mo.id}`;
      if (!got) {
        omitted.push(who);
        return mine();
      }
      const key = rangeOf.get(mo.id)!;
      return {
        id: mo.id,
        title: field(who, "title", got.title, [mo.id], () => mine().title, { pool: momentTitles, key }),
        story: field(who, "story", got.story, [mo.id], () => mine().story, { pool: stories, key }),
      };
    });

    const shortTitles = new Distinct();
    const shorts = input.shorts.map((s) => {
      const got = answer.shorts.find((a) => a.index === s.index);
      const mine = () => fallback().shorts.find((a) => a.index === s.index)!;
      const who = `short ${s.index}`;
      if (!got) {
        omitted.push(who);
        return mine();
      }
      return {
        index: s.index,
        title: field(who, "title", got.title, [s.moment_id], () => mine().title, { pool: shortTitles, key: String(s.index) }),
        description: limitMultiline(ensureLinks(field(who, "description", got.description, [s.moment_id], () => mine().description), input), LIMITS.description),
        tags: tags(who, got.tags, () => mine().tags),
      };
    });

    const warnings = [
      ...(omitted.length ? [`The metadata model left out ${omitted.join(", ")}; built-in templates filled them in.`] : []),
      ...(replaced.length ? [`Built-in templates replaced what the metadata model wrote for ${replaced.join("; ")}.`] : []),
    ];
    const fallbackWarnings = (local as MetadataOutput | null)?.warnings ?? [];
    return { language, reels, shorts, moments, warnings: [...warnings, ...fallbackWarnings] };
  }

  private async ask(input: MetadataInput, language: string, signal?: AbortSignal): Promise<LlmAnswer> {
    const { system, user } = buildPrompt(input, language);
    const body = JSON.stringify({
      model: this.opts.model,
      temperature: 0.4,
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
    });
    const url = `${this.opts.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    const attempt = async (): Promise<LlmAnswer> => {
      const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 60_000);
      const res = await (this.opts.fetchImpl ?? fetch)(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (!res.ok) throw await failure("the metadata model", res);
      // A model that answers, but not in shape, would not answer better a second time.
      try {
        const completion = ChatCompletion.parse(await res.json());
        const content = completion.choices[0]!.message.content;
        if (!content) throw new Error("the model returned no content");
        return parseAnswer(content);
      } catch (err) {
        throw new PermanentError(err instanceof Error ? err.message : String(err));
      }
    };
    return withRetries("the metadata model", attempt, signal, this.opts.attempts ?? 2, this.opts.retryDelayMs ?? 1000);
  }
}
