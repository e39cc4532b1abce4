/**
 * Emote names a crowd types, for chat whose emotes arrive as plain text: Twitch marks every emote it renders as a
 * fragment (counted in a comment's emote_count), but a replay taken through another client, an export or a bridge
 * may carry them as bare words, and an emote-only reaction then read as conversation (no hype word, no laughter).
 * Names are matched as whole words, case and all, as Twitch matches them: Twitch's global emotes that crowds react
 * with and third-party ones (7TV, BTTV, FFZ), where the lexicon's patterns (chat-lexicon.ts: LUL, PogChamp, monkaS,
 * KEKW) do not already cover them. Ordinary words that are also emote names ("Clap", "Aware") are left out, since
 * a sentence holds them too.
 */
const NAMES = [
  // Twitch global emotes
  "Kappa", "KappaPride", "Keepo", "Kippa", "Kreygasm", "BibleThump", "DansGame", "NotLikeThis", "SeemsGood", "ResidentSleeper",
  "4Head", "TriHard", "WutFace", "FailFish", "BabyRage", "Jebaited", "CoolStoryBob", "PJSalt", "SMOrc", "HeyGuys", "VoHiYo",
  "TwitchUnity", "BloodTrail", "CoolCat", "OSFrog", "KomodoHype", "MingLee", "HotPokket", "EleGiggle", "NotATK", "cmonBruh",
  "TheIlluminati", "PunOko", "GivePLZ", "TakeNRG", "MrDestructoid", "PopCorn", "StinkyCheese", "SwiftRage", "BrokeBack",
  "DatSheffy", "FrankerZ", "HSCheers", "KAPOW", "OpieOP", "PanicVis", "TBAngel", "TehePelo", "TwitchLit", "UWot", "VoteYea",
  "VoteNay", "CorgiDerp", "CurseLit", "GlitchCat", "NomNom", "BegWan", "TableHere", "FlipThis", "DinoDance", "ItsBoshyTime",
  "KonCha", "DoritosChip", "SabaPing",
  // Third-party emotes that no pattern of the lexicon covers
  "Sadge", "FeelsBadMan", "FeelsGoodMan", "FeelsStrongMan", "FeelsWeirdMan", "FeelsOkayMan", "gachiGASM",
  "widepeepoHappy", "widepeepoSad", "peepoHappy", "peepoSad", "peepoClap", "COPIUM", "Susge", "Madge", "Okayge",
  "Prayge", "Deadge", "forsenCD", "WeirdChamp", "PauseChamp", "NODDERS", "NOPERS", "HYPERS", "Kapp",
];

const EMOTE_NAMES: ReadonlySet<string> = new Set(NAMES);

/** The line's words that are emote names, in order (as typed: "Kappa Kappa" is two, "kappa" none). */
export function typedEmoteNames(text: string): string[] {
  return text.split(/\s+/).filter((word) => EMOTE_NAMES.has(word));
}

export function typedEmotes(text: string): number {
  return typedEmoteNames(text).length;
}
