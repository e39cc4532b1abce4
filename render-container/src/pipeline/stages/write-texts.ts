import type { RenderJob } from "../../../../common/contract/render";
import type { ChatComment } from "../../../../common/twitch";
import { createMetadataWriter, distinctTitles, momentsOnce, type MetadataInput, type MetadataOutput } from "../../metadata";
import { trustedWords } from "../../captions/trusted-words";
import { ChatCrowd, momentChat } from "../../metadata/chat-crowd";
import { momentSpeech } from "../../metadata/moment-speech";
import type { Moment } from "../../selection/types";
import type { JobProgress } from "../progress";
import type { RenderPlan } from "../render-plan";
import type { JobContext } from "../types";
import type { Chosen } from "./choose-moments";
import type { Transcripts } from "./transcribe";
import type { RunProfile } from "../../../../common/contract/enums";

/** Chat reacts this long after a moment (TWITCH.md), so a moment's reactions are read a little past its end. */
const CHAT_REACTION_TAIL_SECONDS = 12;

function topCounts(values: string[], limit: number): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit).map(([v]) => v);
}

/** Chat messages typed during a moment or in the reaction tail after it. */
export function commentsDuring(comments: readonly ChatComment[], start: number, end: number): ChatComment[] {
  return comments.filter((c) => c.offset_seconds >= start && c.offset_seconds <= end + CHAT_REACTION_TAIL_SECONDS);
}

/** The most frequent lines typed during a moment, whoever typed them: what a said swear word may be corroborated by. */
function chatLinesDuring(comments: readonly ChatComment[], start: number, end: number): string[] {
  return topCounts(commentsDuring(comments, start, end).map((c) => c.text.trim()).filter((t) => t.length > 0 && t.length <= 80), 8);
}

export interface TextFor {
  title: string;
  description: string;
  tags: string[];
}

export interface Texts {
  reels: Partial<Record<RunProfile, TextFor>>;
  /** By 1-based short index. */
  shorts: Record<number, TextFor>;
  /** Per moment: one-line story and a title (reel title cards, manifest). */
  moments: Map<Moment, { story: string; title: string }>;
}

/** What writeTexts writes from. */
export interface TextsInput {
  job: RenderJob;
  plan: Pick<RenderPlan, "reels" | "shorts">;
  chosen: Chosen;
  transcripts: Pick<Transcripts, "textFor" | "wordsFor">;
  comments: readonly ChatComment[];
  /** metadata_language, else the stream language (jobLanguages). */
  language: string;
  /** The job's recogniser is the offline one (Transcriber.local): its speech is quoted only where chat echoes it. */
  localRecogniser: boolean;
}

export interface WrittenTexts {
  texts: Texts;
  /** metadata.json as written today (without the renderer's `render` key). */
  document: MetadataOutput & { source: unknown };
  warnings: string[];
  /** The id each moment has in the document (momentIds). */
  ids: Map<Moment, string>;
  /** What the writer wrote from (chat, names, the trusted speech): every word of a text must come from it or a template. */
  input: MetadataInput;
}

/**
 * Each distinct moment's id in metadata.json: every profile's moments in order, then the shorts that are not one
 * of them (a manual short is the very moment of its profile; an automatic short is its own window), as m1, m2, ...
 */
export function momentIds(chosen: Pick<Chosen, "momentsByProfile" | "shorts">): Map<Moment, string> {
  const ids = new Map<Moment, string>();
  const all: Moment[] = [...Object.values(chosen.momentsByProfile).flatMap((m) => m ?? []), ...chosen.shorts];
  for (const m of all) if (!ids.has(m)) ids.set(m, `m${ids.size + 1}`);
  return ids;
}

/**
 * Writes titles, descriptions, tags and one-line stories for every reel, short and moment in `language`
 * (metadata_language, else the stream language: see jobLanguages), through the configured writer (LLM or local).
 */
export async function writeTexts(what: TextsInput, ctx: JobContext, progress: JobProgress, env: NodeJS.ProcessEnv): Promise<WrittenTexts> {
  const { job, plan, chosen, transcripts, comments, language } = what;
  progress.report("writing_metadata", 0);
  const request = job.request;
  const ids = momentIds(chosen);
  const crowd = new ChatCrowd(comments);

  const input: MetadataInput = {
    language,
    streamer: {
      name: request.streamer_name ?? job.vod.streamer_display_name ?? job.vod.streamer_login,
      pronouns: request.streamer_pronouns,
      twitch_url: request.streamer_twitch_url ?? (job.vod.streamer_login ? `https://www.twitch.tv/${job.vod.streamer_login}` : null),
      twitter_url: request.streamer_twitter_url,
    },
    game: request.game_name ?? job.vod.game_name,
    vod_title: job.vod.title,
    moments: [...ids.entries()].map(([m, id]) => {
      // Titles and stories quote only what a crowd of distinct voices typed in reaction (chat-crowd.ts).
      const reaction = crowd.during(m.start, m.end);
      // ...and only words the recogniser was sure of; a swear word also needs chat to have it.
      const trusted = trustedWords(transcripts.wordsFor(m.start, m.end), { maskProfanity: request.parameters.mask_profanity, corroboration: chatLinesDuring(comments, m.start, m.end) });
      return {
        id,
        start: m.start,
        end: m.end,
        profile: m.profile,
        ...momentSpeech(trusted),
        // Offline words also show as cross-checked ones when a remote recogniser fell back to the offline one.
        speech_offline: what.localRecogniser || trusted.words.some((w) => w.crossChecked !== undefined),
        ...momentChat(reaction),
        signals: m.signals,
        label: m.label,
      };
    }),
    reels: plan.reels.map((r) => ({ run_name: r.profile, moment_ids: r.moments.map((m) => ids.get(m)!) })),
    shorts: plan.shorts.map((s) => ({ index: s.index, moment_id: ids.get(s.moment)! })),
    mask_profanity: request.parameters.mask_profanity,
  };

  const writer = createMetadataWriter(env, ctx.fetchImpl, job.ai);
  const out = distinctTitles(input, await writer.write(input, { signal: ctx.signal }));
  const byId = new Map(out.moments.map((m) => [m.id, m]));
  const texts: Texts = {
    reels: Object.fromEntries(out.reels.map((r) => [r.run_name, { title: r.title, description: r.description, tags: r.tags }])),
    shorts: Object.fromEntries(out.shorts.map((s) => [s.index, { title: s.title, description: s.description, tags: s.tags }])),
    moments: new Map([...ids.entries()].flatMap(([m, id]) => {
      const t = byId.get(id);
      return t ? [[m, { story: t.story, title: t.title }] as const] : [];
    })),
  };
  progress.report("writing_metadata", 1);
  ctx.log.info("metadata written", { writer: writer.name, language: out.language });
  return {
    texts,
    document: { ...out, moments: momentsOnce(input, out.moments), source: { vod_id: job.vod.vod_id, vod_url: request.vod_url, vod_title: job.vod.title, writer: writer.name } },
    warnings: out.warnings,
    ids,
    input,
  };
}
