import { STORY_LIMIT } from "./answer-checks";
import { vodClock } from "./distinct-titles";
import { CHAT_EXPLODED, CHAT_PICKED_UP, LOUD_DB, cleanEmotes, type Quote } from "./reliable-text";
import type { LanguagePack, Who } from "./templates";
import { limitText } from "./text-limits";
import type { MetadataMoment } from "./types";

/** What a story may tell of one moment: only reliable text (reliable-text.ts) and the moment's signals. */
export interface StoryFacts {
  moment: MetadataMoment;
  said: Quote[];
  chat: Quote[];
  keywords: string[];
}

/** One part of a story (opening or ending): which kind it is, and its wordings in the language. */
interface Part {
  cell: string;
  wordings: string[];
}

/**
 * The opening says what the audience did (chat reacting, in words, and what it typed) or that the stream got loud;
 * the ending what the streamer did (a quotable phrase, what they talked about, getting loud) or, with nothing else
 * known, chat's phrase or the game. Every fact is from the moment's signals or reliable text; the signals only
 * choose the wording (a story is read by viewers: no rates against a baseline, no decibels).
 */
function storyParts(f: StoryFacts, pack: LanguagePack, who: Who, game: string | null): { opening: Part; ending: Part } | { fixed: string; ending: Part } | { whole: Part } {
  const m = f.moment;
  const s = m.signals;
  const ratio = s?.chat_rate_ratio ?? null;
  const loud = s?.loudness_db_above_baseline ?? 0;
  const emote = cleanEmotes(m)[0] ?? null;
  const chatQuote = f.chat.find((q) => q.text.toLowerCase() !== emote?.toLowerCase()) ?? null;
  const manual = s?.source === "manual" || (s === null && m.label !== null);
  const chatOpening = !manual && ratio !== null && ratio >= CHAT_PICKED_UP;
  const typed = [emote, chatQuote ? pack.quote(chatQuote.text) : null].filter((t): t is string => t !== null);
  const typedText = typed.length ? pack.list(typed) : null;

  const said = f.said[0];
  const ending: Part = said
    ? { cell: "said", wordings: pack.said.map((w) => w(who, pack.quote(said.text))) }
    : f.keywords.length
      ? { cell: "talked", wordings: pack.talkedAbout.map((w) => w(who, f.keywords.slice(0, 2))) }
      : loud >= LOUD_DB
        ? { cell: "yelled", wordings: pack.yelled.map((w) => w(who)) }
        : chatQuote && !chatOpening
          ? { cell: "chat", wordings: pack.chatSaid.map((w) => w(pack.quote(chatQuote.text))) }
          : { cell: "during", wordings: pack.during.map((w) => w(who, game)) };
  if (manual) return { fixed: pack.handPicked(m.label), ending };
  // Loud, and nothing else known of it: one sentence about the streamer ("It got loud as X got loud" says it twice).
  if (ending.cell === "yelled" && !chatOpening) return { whole: { cell: "shouted", wordings: pack.shouted.map((w) => `${w(who, game)}.`) } };
  const opening: Part =
    ratio !== null && ratio >= CHAT_EXPLODED
      ? { cell: "exploded", wordings: pack.chatExploded.map((w) => w(typedText)) }
      : chatOpening
        ? { cell: "picked-up", wordings: pack.chatPickedUp.map((w) => w(typedText)) }
        : loud >= LOUD_DB
          ? { cell: "loud", wordings: pack.gotLoud.map((w) => w()) }
          : { cell: "standout", wordings: pack.standout.map((w) => w()) };
  return { opening, ending };
}

/**
 * The one-line stories of one job, in moment order. Openings and endings of the same kind take their wordings in
 * turn from a per-job starting point, so three chat explosions do not read alike; a story another moment already
 * has is worded otherwise, and only when every wording is taken does it get the moment's time in the VOD.
 */
export class StoryWriter {
  private readonly stories = new Set<string>();
  private readonly turns = new Map<string, number>();

  constructor(
    private readonly pack: LanguagePack,
    private readonly seed: number,
  ) {}

  write(f: StoryFacts, who: Who, game: string | null): string {
    const parts = storyParts(f, this.pack, who, game);
    if ("whole" in parts) {
      const wholes = this.inTurn(parts.whole).map((w) => limitText(w, STORY_LIMIT));
      const story = wholes.find((w) => !this.stories.has(w));
      if (story) {
        this.advance(parts.whole);
        this.stories.add(story);
        return story;
      }
      const timed = limitText(`${wholes[0]!.replace(/\.$/, "")} (${vodClock(f.moment.start)}).`, STORY_LIMIT);
      this.stories.add(timed);
      return timed;
    }
    const openings = "fixed" in parts ? [parts.fixed] : this.inTurn(parts.opening);
    const endings = this.inTurn(parts.ending);
    for (const opening of openings) {
      for (const ending of endings) {
        const story = limitText(this.pack.story(opening, ending), STORY_LIMIT);
        if (this.stories.has(story)) continue;
        if (!("fixed" in parts)) this.advance(parts.opening);
        this.advance(parts.ending);
        this.stories.add(story);
        return story;
      }
    }
    const first = limitText(this.pack.story(openings[0]!, endings[0]!), STORY_LIMIT);
    const timed = limitText(`${first.replace(/\.$/, "")} (${vodClock(f.moment.start)}).`, STORY_LIMIT);
    this.stories.add(timed);
    return timed;
  }

  /** The part's wordings starting at its turn. */
  private inTurn(part: Part): string[] {
    const n = part.wordings.length;
    const from = (this.seed + (this.turns.get(part.cell) ?? 0)) % n;
    return part.wordings.map((_, i) => part.wordings[(from + i) % n]!);
  }

  private advance(part: Part): void {
    this.turns.set(part.cell, (this.turns.get(part.cell) ?? 0) + 1);
  }
}
