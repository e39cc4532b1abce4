import { tokenize } from "../../../render-container/src/metadata/keywords";
import { LANGUAGE_PACKS, type Who } from "../../../render-container/src/metadata/templates";
import { TITLE_TEMPLATES } from "../../../render-container/src/metadata/title-templates";
import type { MetadataInput, MetadataOutput } from "../../../render-container/src/metadata/types";

/**
 * The words a job's titles, stories and tags may hold: what the templates write themselves, and what the job's
 * input holds that is not a guess. A word outside both was made up or misheard; shared by the writer's unit tests
 * and the check of a real analysis.
 */

/** Every word the language's title and story templates can write themselves (placeholders filled with marks). */
export function templateVocabulary(language: string): Set<string> {
  const t = TITLE_TEMPLATES[language]!;
  const pack = LANGUAGE_PACKS[language]!;
  const who: Who = { name: "nnn", pronouns: null, gender: "n" };
  const texts: string[] = [];
  for (const kind of Object.values(t.moments)) {
    for (const list of [kind.said, kind.chat, kind.topic]) for (const f of list) texts.push(f("nnn", "qqq"));
    for (const f of kind.plain) texts.push(f("nnn", t.inGame("ggg")), f("nnn", t.inGame(null)));
  }
  for (const f of t.labelled) texts.push(f("nnn", "lll"));
  texts.push(
    ...[...pack.chatExploded, ...pack.chatPickedUp].flatMap((f) => [f("eee"), f(null)]),
    ...pack.gotLoud.map((f) => f()), pack.handPicked("lll"), pack.handPicked(null), ...pack.standout.map((f) => f()),
    ...pack.talkedAbout.map((f) => f(who, ["aaa", "bbb"])),
    ...(["balanced", "audience", "streamer"] as const).flatMap((p) => [pack.reelTitle(who, p, "ggg"), pack.reelIntro(who, p, "ggg", "vvv", 3)]),
    pack.follow(who), pack.clippedFrom(who, "ggg"), pack.clippedFrom(who, null), ...pack.yelled.map((f) => f(who)), ...pack.shouted.flatMap((f) => [f(who, "ggg"), f(who, null)]), ...pack.during.flatMap((f) => [f(who, "ggg"), f(who, null)]),
    ...pack.said.map((f) => f(who, "qqq")), ...pack.chatSaid.map((f) => f("qqq")),
  );
  return new Set(texts.flatMap((x) => tokenize(x)));
}

/** The words a job's texts may take from its input: names, chat, and speech that is not a lone guess. */
export function inputVocabulary(input: MetadataInput): Set<string> {
  const words = [input.streamer.name, input.game, input.vod_title]
    .concat(input.moments.flatMap((m) => [m.label, ...m.top_chat_messages, ...m.top_emotes, ...(m.spoken_phrases ?? []).filter((p) => p.split(" ").length >= 2)]))
    .flatMap((x) => tokenize(x ?? ""));
  return new Set(words);
}

/** Template words of the job's language, its reliable input, "twitch" and the language's fixed tags. */
export function allowedWords(input: MetadataInput, language: string): Set<string> {
  const allowed = new Set([...templateVocabulary(language), ...inputVocabulary(input)]);
  for (const t of ["twitch", ...Object.values(LANGUAGE_PACKS[language]!.tags)]) for (const w of tokenize(t)) allowed.add(w);
  return allowed;
}

/**
 * The words of `text` outside `allowed`. The streamer's name stands where the templates have their mark
 * ("NovaPlays's" as "nnn's"); figures (ratios such as "8x") are the job's numbers.
 */
export function strayWords(text: string, allowed: ReadonlySet<string>, streamerName: string): string[] {
  return tokenize(text.split(streamerName).join("nnn")).filter((w) => !allowed.has(w) && !/^\d+x?$/.test(w));
}

/** Every text a writer produced: moment titles and stories, short and reel titles and tags. */
export function allTexts(out: MetadataOutput): string[] {
  return [...out.moments.flatMap((m) => [m.title, m.story]), ...out.shorts.flatMap((s) => [s.title, ...s.tags]), ...out.reels.flatMap((r) => [r.title, ...r.tags])];
}
