/** Everything the synthetic streamer says and the chat types. Known words let caption tests check transcripts. */

export const CALM_SENTENCES = [
  "Alright chat, let us see if we can get through this level without dying again.",
  "I think the key is to wait for the guard to turn around first.",
  "Thank you so much for the follow, welcome to the stream.",
  "We need more wood before the night comes, so let us go gather some.",
  "This boss has three phases and the second one is the hardest.",
  "Okay I am going to try the left path this time.",
  "Somebody asked about my settings, they are in the description below.",
  "The weather here has been really cold this week.",
  "Let me check the map real quick before we move on.",
  "I should probably upgrade my sword before the next fight.",
  "We are almost at the checkpoint, just a little bit further.",
  "Did anyone else play the original version of this game?",
  "I will take a short break after this round.",
  "That jump is harder than it looks, trust me.",
  "My plan is to sneak around the back and take the tower.",
  "Remember to stay hydrated everybody, drink some water.",
  "I have never seen this area before, it looks amazing.",
  "We have about ten minutes left until the raid starts.",
  "The music in this level is really good.",
  "Let us try that again, slowly this time.",
  "I need to find the blue key to open that door.",
  "Good morning to everyone joining from Europe.",
  "This puzzle took me an hour last time.",
  "I am going to save the game right now just in case.",
  "Watch the timing on these platforms, they move fast.",
  "If we win this one we move up to the next rank.",
  "The community event starts on Friday evening.",
  "Hold on, I think I hear something behind that wall.",
  "My hands are a bit tired from the last fight.",
  "We finally have enough gold to buy the horse.",
  "Please be nice to each other in the chat.",
  "This character has a special ability on the right trigger.",
] as const;

export const EXCITED_SENTENCES = [
  "No way! Did you see that? That was insane!",
  "Oh my god, we did it! We actually did it!",
  "Let us go! That was the best play ever!",
  "What just happened? That is unbelievable!",
  "Yes! Yes! Get in there! Come on!",
  "Oh no no no, run, run, run!",
] as const;

export const BASELINE_MESSAGES = [
  "hi", "hello chat", "gg", "lol", "what game is this", "first time here", "nice", "good luck",
  "how long have you been live", "love the stream", "o7", "true", "wait what", "hahaha", "nice play",
  "that was close", "gl", "lets go", "hmm", "what rank are you", "cute", "is this the new update",
] as const;

/** Reactions typed after something happened; emotes are Twitch emotes (fragments) or plain third-party text. */
export const HYPE_MESSAGES = [
  "KEKW", "KEKW KEKW", "PogChamp", "PogChamp PogChamp PogChamp", "LUL", "LUL LUL", "no way", "NO WAY",
  "LMAO", "LMAOOO", "OMEGALUL", "clip it", "CLIP IT", "WHAT", "insane", "HOLY", "W", "POGGERS", "Kreygasm",
  "that was crazy", "no way KEKW", "LETS GOOO PogChamp", "ahahaha LUL", "clip that",
] as const;

/** Copy-pasted spam with no event behind it: a distractor that must not look like a highlight. */
export const SPAM_MESSAGES = [
  "!drops", "!drops", "!giveaway", "type 1 if you are here", "1", "1", "1", "follow my channel",
] as const;

/** Twitch global emotes appear as emote fragments in chat replay; third-party ones (KEKW, OMEGALUL) as text. */
export const TWITCH_EMOTES: Record<string, string> = {
  PogChamp: "305954156",
  LUL: "425618",
  Kreygasm: "41",
  Kappa: "25",
};

const SYLLABLES = ["zap", "mo", "kin", "ra", "tek", "lu", "vor", "pi", "dex", "no", "shi", "ga", "bo", "fen", "qua", "xi"];

/** Deterministic, readable chatter names: viewer index -> login. */
export function chatterLogin(index: number): string {
  let n = index;
  let name = "";
  do {
    name += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return `${name}_${(index * 7919) % 1000}`;
}
