import { primaryLanguage } from "../captions/transcriber";
import { parsePronouns, pronounGender } from "./pronouns";
import {
  chatQuotes,
  cleanEmotes,
  momentKind,
  reliableSpokenWords,
  spokenQuotes,
  type ChatQuote,
  type Quote,
} from "./reliable-text";
import { StoryWriter } from "./stories";
import { hashtags, normalizeTags } from "./tags";
import { LANGUAGE_PACKS, type LanguagePack, type Who } from "./templates";
import { limitMultiline, limitText } from "./text-limits";
import { TitlePicker, jobSeed, plainSubject, type TitleSubject } from "./title-picker";
import { TITLE_TEMPLATES, type MomentKind, type TitleTemplates } from "./title-templates";
import {
  LIMITS,
  type MetadataInput,
  type MetadataMoment,
  type MetadataOutput,
  type MetadataWriter,
  type MomentMetadata,
  type ReelMetadata,
  type ShortMetadata,
} from "./types";

/** What one moment offers a title and a story: only reliable text (reliable-text.ts). */
interface MomentFacts {
  moment: MetadataMoment;
  kind: MomentKind;
  said: Quote[];
  chat: ChatQuote[];
  /** Spoken words that are not a lone guess; tags and the story's "talked about". */
  keywords: string[];
}

interface MomentText extends MomentFacts {
  title: string;
  template: string;
  story: string;
}

function factsOf(m: MetadataMoment, language: string, mask: boolean): MomentFacts {
  return {
    moment: m,
    kind: momentKind(m),
    said: spokenQuotes(m, language, mask),
    chat: chatQuotes(m, language, mask),
    keywords: reliableSpokenWords(m, language, 3),
  };
}

/**
 * Subjects for a title, best first: what the moment was about before who typed what. The streamer's own words
 * in the clip first, then chat repeating them, then what the streamer talked about, then the kind of event
 * itself (a shout, a chat explosion, both) with the game: the plain templates. A crowd's reaction that does not
 * echo the clip comes last, when the plain templates of the kind are used up in the job.
 */
function titleSubjects(f: MomentFacts, pack: LanguagePack, plain: TitleSubject): TitleSubject[] {
  const said = f.said.map((q) => ({ type: "said" as const, text: pack.quote(q.text), key: `q:${q.key}` }));
  const chat = (echo: boolean) => f.chat.filter((q) => q.echoesSpeech === echo).map((q) => ({ type: "chat" as const, text: pack.quote(q.text), key: `q:${q.key}` }));
  const topic = f.keywords.length
    ? [{ type: "topic" as const, text: pack.list(f.keywords.slice(0, 2).map(pack.quote)), key: `t:${f.keywords.slice(0, 2).join(" ")}` }]
    : [];
  if (f.moment.label) return [{ type: "label", text: f.moment.label.trim(), key: `l:${f.moment.label.trim().toLowerCase()}` }];
  return [...said, ...chat(true), ...topic, plain, ...chat(false)];
}

/**
 * Titles and stories of every moment, in order: titles through one TitlePicker (varied templates, subjects not
 * repeated), stories through one StoryWriter (wordings in turn, none twice); a range two profiles share keeps
 * one title and story.
 */
function describeMoments(input: MetadataInput, pack: LanguagePack, titles: TitleTemplates, who: Who, game: string | null, mask: boolean): Map<string, MomentText> {
  const picker = new TitlePicker(titles, jobSeed([who.name, game, input.vod_title, ...input.moments.map((m) => m.start.toFixed(1))]));
  const byId = new Map<string, MomentText>();
  const byRange = new Map<string, MomentText>();
  const stories = new StoryWriter(pack, jobSeed([who.name, game, ...input.moments.map((m) => m.end.toFixed(1))]));
  for (const m of input.moments) {
    const range = `${m.start.toFixed(1)}-${m.end.toFixed(1)}`;
    const facts = factsOf(m, pack.code, mask);
    const shared = byRange.get(range);
    if (shared) {
      byId.set(m.id, { ...facts, title: shared.title, template: shared.template, story: shared.story });
      continue;
    }
    const picked = picker.pick(facts.kind, titleSubjects(facts, pack, plainSubject(titles, game)), who.name, game);
    const story = stories.write(facts, who, game);
    const text = { ...facts, title: picked.title, template: picked.template, story };
    byId.set(m.id, text);
    byRange.set(range, text);
  }
  return byId;
}

function followBlock(pack: LanguagePack, who: Who, input: MetadataInput): string {
  const links = [
    input.streamer.twitch_url ? `Twitch: ${input.streamer.twitch_url}` : null,
    input.streamer.twitter_url ? `X (Twitter): ${input.streamer.twitter_url}` : null,
  ].filter((l): l is string => l !== null);
  return links.length ? [pack.follow(who), ...links].join("\n") : "";
}

/** Words by how often they occur, ties in first-seen order. */
function mostFrequent(words: readonly string[], limit: number): string[] {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit).map(([w]) => w);
}

/**
 * Deterministic titles, descriptions, tags and one-line stories from what is not a guess (reliable-text.ts):
 * what chat typed, the kind of moment (hype, audience, streamer) from its signals, the game, the streamer's
 * name, pronouns and links, and only confidently recognised speech. Titles vary their wording (title-templates.ts,
 * several per kind and subject, picked in turn per job). Writes English, Spanish, German, French and Portuguese;
 * other languages get English with a warning.
 */
export function writeLocalMetadata(input: MetadataInput): MetadataOutput {
  const warnings: string[] = [];
  const requested = primaryLanguage(input.language) ?? "en";
  const pack = LANGUAGE_PACKS[requested] ?? LANGUAGE_PACKS.en!;
  if (pack.code !== requested) {
    warnings.push(`Metadata in "${requested}" is not available from the built-in writer; titles and descriptions are in English.`);
  }
  const language = pack.code;
  const who: Who = {
    name: input.streamer.name?.trim() || "Streamer",
    pronouns: parsePronouns(input.streamer.pronouns),
    gender: pronounGender(input.streamer.pronouns),
  };
  const game = input.game?.trim() || null;
  const mask = input.mask_profanity ?? true;
  const titles = TITLE_TEMPLATES[pack.code] ?? TITLE_TEMPLATES.en!;
  const byId = describeMoments(input, pack, titles, who, game, mask);
  const follow = followBlock(pack, who, input);
  const baseTags = [who.name, game, pack.tags.highlights, pack.tags.clips, "twitch"];

  const reels: ReelMetadata[] = input.reels.map((r) => {
    const moments = r.moment_ids.map((id) => byId.get(id)).filter((m): m is MomentText => m !== undefined);
    const keywords = mostFrequent(moments.flatMap((m) => m.keywords), 5);
    const emotes = [...new Set(moments.flatMap((m) => cleanEmotes(m.moment)))].slice(0, 2);
    const tags = normalizeTags([...baseTags, pack.tags.stream, ...keywords, ...emotes]);
    const description = [
      pack.reelIntro(who, r.run_name, game, input.vod_title?.trim() || null, moments.length),
      moments.length ? moments.map((m) => `\u2022 ${m.title}`).join("\n") : "",
      follow,
      hashtags(tags, 5),
    ]
      .filter(Boolean)
      .join("\n\n");
    return {
      run_name: r.run_name,
      title: limitText(pack.reelTitle(who, r.run_name, game), LIMITS.title),
      description: limitMultiline(description, LIMITS.description),
      tags,
    };
  });

  const shorts: ShortMetadata[] = input.shorts.map((s) => {
    const m = byId.get(s.moment_id);
    const title = m?.title ?? limitText(titles.moments.streamer.plain[0]!(who.name, titles.inGame(game)), LIMITS.title);
    const tags = normalizeTags([pack.tags.shorts, ...baseTags, ...(m?.keywords ?? []), ...(m ? cleanEmotes(m.moment).slice(0, 1) : [])]);
    // What happened, where it is from (unless the story says it), then the links and hashtags: the way a streamer
    // posts a clip.
    const story = m?.story ?? "";
    const from = (game ? story.includes(game) : story.includes(who.name)) ? "" : pack.clippedFrom(who, game);
    const description = [[story, from].filter(Boolean).join(" "), follow, hashtags(tags, 5)].filter(Boolean).join("\n\n");
    return { index: s.index, title, description: limitMultiline(description, LIMITS.description), tags };
  });

  const moments: MomentMetadata[] = input.moments.map((mo) => {
    const m = byId.get(mo.id)!;
    return { id: mo.id, title: m.title, story: m.story };
  });
  return { language, reels, shorts, moments, warnings };
}

export class LocalMetadataWriter implements MetadataWriter {
  readonly name = "local";
  async write(input: MetadataInput): Promise<MetadataOutput> {
    return writeLocalMetadata(input);
  }
}
