import { primaryLanguage } from "../captions/transcriber";
import { extractKeywords, tokenize } from "./keywords";
import { parsePronouns, pronounGender } from "./pronouns";
import { hashtags, normalizeTags } from "./tags";
import { LANGUAGE_PACKS, type LanguagePack, type Who } from "./templates";
import { limitMultiline, limitText } from "./text-limits";
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

/** Chat at this multiple of its baseline "exploded"; above PICKED_UP it merely picked up. */
const CHAT_EXPLODED = 2.5;
const CHAT_PICKED_UP = 1.5;
/** Loudness above the stream's baseline that counts as the streamer getting loud. */
const LOUD_DB = 6;

function ratioText(r: number): string {
  return r >= 10 ? String(Math.round(r)) : String(Math.round(r * 10) / 10);
}

interface MomentText {
  moment: MetadataMoment;
  keywords: string[];
  title: string;
  story: string;
}

/**
 * `usedWords`: words earlier moments' titles feature; a title prefers words no other title has, so the shorts of
 * one job do not all get the same title when the streamer keeps saying the same thing.
 */
function describeMoment(m: MetadataMoment, pack: LanguagePack, who: Who, game: string | null, language: string, usedWords: ReadonlySet<string>): MomentText {
  const keywords = extractKeywords([m.transcript], language, 3);
  const fresh = (ws: string[]) => ws.filter((w) => !usedWords.has(w));
  const spoken = extractKeywords([m.transcript], language, 8);
  const chat = extractKeywords(m.top_chat_messages, language, 4);
  const words = fresh(spoken).length ? fresh(spoken) : fresh(chat).length ? fresh(chat) : spoken.length ? spoken : chat.slice(0, 2);
  const s = m.signals;
  const ratio = s?.chat_rate_ratio ?? null;
  const loud = s?.loudness_db_above_baseline ?? 0;
  const emote = m.top_emotes[0] ?? null;
  const manual = s?.source === "manual" || (s === null && m.label !== null);

  const opening = manual
    ? pack.handPicked(m.label)
    : ratio !== null && ratio >= CHAT_EXPLODED
      ? pack.chatExploded(ratioText(ratio), emote)
      : ratio !== null && ratio >= CHAT_PICKED_UP
        ? pack.chatPickedUp(ratioText(ratio), emote)
        : loud >= LOUD_DB
          ? pack.gotLoud(String(Math.round(loud)))
          : pack.standout();
  const ending = keywords.length
    ? pack.talkedAbout(who, keywords.slice(0, 2))
    : loud >= LOUD_DB
      ? pack.yelled(who)
      : pack.during(who, game);

  const title = m.label
    ? pack.titleLabel(who, m.label)
    : ratio !== null && ratio >= CHAT_EXPLODED
      ? pack.titleChat(who, words[0] ?? null, game)
      : loud >= LOUD_DB
        ? pack.titleLoud(who, words[0] ?? null, game)
        : words.length >= 2
          ? pack.titleTalk(who, words.slice(0, 2))
          : pack.titleFallback(who, game);

  return {
    moment: m,
    keywords,
    title: limitText(title, LIMITS.title),
    story: limitText(pack.story(opening, ending), 300),
  };
}

function followBlock(pack: LanguagePack, who: Who, input: MetadataInput): string {
  const links = [
    input.streamer.twitch_url ? `Twitch: ${input.streamer.twitch_url}` : null,
    input.streamer.twitter_url ? `X (Twitter): ${input.streamer.twitter_url}` : null,
  ].filter((l): l is string => l !== null);
  return links.length ? [pack.follow(who), ...links].join("\n") : "";
}

/**
 * Deterministic titles, descriptions, tags and one-line stories from what the pipeline measured: transcript
 * keywords (stop words removed), chat reaction, loudness, the game and the streamer's name, pronouns and
 * links. Writes English, Spanish, German, French and Portuguese; other languages get English with a warning.
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
  const byId = new Map<string, MomentText>();
  const usedWords = new Set<string>();
  const titleOfRange = new Map<string, string>();
  for (const m of input.moments) {
    const range = `${m.start.toFixed(1)}-${m.end.toFixed(1)}`;
    const text = describeMoment(m, pack, who, game, language, usedWords);
    // The same range in two profiles' reels keeps one title (distinctTitles settles what still repeats).
    text.title = titleOfRange.get(range) ?? text.title;
    titleOfRange.set(range, text.title);
    for (const w of tokenize(text.title)) usedWords.add(w);
    byId.set(m.id, text);
  }
  const follow = followBlock(pack, who, input);
  const baseTags = [who.name, game, pack.tags.highlights, pack.tags.clips, "twitch"];

  const reels: ReelMetadata[] = input.reels.map((r) => {
    const moments = r.moment_ids.map((id) => byId.get(id)).filter((m): m is MomentText => m !== undefined);
    const keywords = extractKeywords(moments.map((m) => m.moment.transcript), language, 5);
    const emotes = [...new Set(moments.flatMap((m) => m.moment.top_emotes))].slice(0, 2);
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
    const title = m?.title ?? limitText(pack.titleFallback(who, game), LIMITS.title);
    const tags = normalizeTags([pack.tags.shorts, ...baseTags, ...(m?.keywords ?? []), ...(m?.moment.top_emotes.slice(0, 1) ?? [])]);
    const description = [m?.story ?? "", follow, hashtags(tags, 5)].filter(Boolean).join("\n\n");
    return { index: s.index, title, description: limitMultiline(description, LIMITS.description), tags };
  });

  const moments: MomentMetadata[] = [...byId.values()].map((m) => ({ id: m.moment.id, title: m.title, story: m.story }));
  return { language, reels, shorts, moments, warnings };
}

export class LocalMetadataWriter implements MetadataWriter {
  readonly name = "local";
  async write(input: MetadataInput): Promise<MetadataOutput> {
    return writeLocalMetadata(input);
  }
}
