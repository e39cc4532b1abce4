/**
 * What the streamers of source c say and what their chat types: a co-op dungeon game instead of source b's arena
 * shooter, written without looking at either earlier list. The shouts are shorter and more varied (a single
 * word, laughter, a groan), reactions use other words and other Twitch emotes, questions and greetings are other
 * small talk, and the spam sells with other words (a "free" offer, a Discord invite, a giveaway), so a rule that
 * learnt source b's phrases does not carry over for free.
 */

export const STREAMER_TALK = [
  "Alright, this dungeon has three floors and the boss is at the bottom.",
  "I am going to put two more points into stamina before the next fight.",
  "The blacksmith said he can upgrade the sword if we bring him ore.",
  "This part of the map always makes me a little nervous.",
  "We should save the fire potions for the boss, not waste them here.",
  "Yesterday we got stuck on this exact puzzle for an hour.",
  "The lighting in this cave is honestly beautiful.",
  "Let me read the quest log again, I forgot where we were going.",
  "My build is mostly dodge and bleed damage right now.",
  "If anyone finds the hidden chest, let me know in chat.",
  "I think the merchant restocks after every boss.",
  "Okay, slow and careful, there are traps in this hallway.",
  "Coffee number three tonight, do not judge me.",
  "The next update adds a new class, I am pretty excited about that.",
  "That was a weird sound, probably just the wind.",
  "We will do one more run and then take a short break.",
  "I really like how the music changes when enemies are near.",
  "Give me a second, I need to sort my inventory.",
  "The archer enemies are the worst, they always kite you.",
  "I have been saving these runes for something big.",
] as const;

/** The streamer at a moment: single words, laughter, a groan, a full sentence shouted. */
export const STREAMER_SHOUTS = [
  "NOOOO!",
  "WHAT?",
  "HAHAHA! NO WAY!",
  "YES! YES! YES!",
  "GET HIM! GET HIM!",
  "OH COME ON!",
  "THAT WAS INSANE!",
  "I AM DEAD! I AM SO DEAD!",
  "HE ONE SHOT ME!",
  "WE DID IT!",
] as const;

export const STREAMER_RAID_THANKS = [
  "Hey, thanks for bringing everyone over, welcome to the dungeon crawl.",
  "Oh, a raid, welcome in, we are just about to fight the second boss.",
] as const;

export const GUEST_TALK = [
  "I will take the left corridor, you check the room.",
  "How much health do you have?",
  "There is a lever behind that statue.",
  "Sorry, my dog was barking, what did I miss?",
  "I can revive you if you go down.",
  "Wait for me at the bridge.",
  "This loot is terrible, honestly.",
] as const;

export const GUEST_SHOUTS = ["WHAT WAS THAT?", "NICE ONE!", "HAHA! RUN!"] as const;

export const GREETINGS = ["hey hey", "evening all", "wassup", "hello streamer", "back again", "morning from australia", "howdy", "hi hi", "sup chat", "yo yo"] as const;

export const QUESTIONS = [
  "whats the song called", "do you have a discord", "what class is that", "how many hours do you have in this",
  "is this the new dlc", "are you going to play the sequel", "what keyboard do you use", "when do you sleep",
] as const;

export const CHATTER = [
  "this boss took me ages", "lol", "the archers are so annoying", "rip", "true true", "that sword looks sick",
  "i love this area", "ok", "haha", "same", "the music here slaps", "o7", "he needs more stamina", "relatable",
] as const;

export const REACTIONS = [
  "YOOO", "WHAT JUST HAPPENED", "NO SHOT", "bro", "HOLY MOLY", "INSANE PLAY", "clip it clip it", "LMAOOO",
  "monkaS", "EZ Clap", "POGGERS", "?????", "that was nuts", "GG", "oh my", "AINTNOWAY",
] as const;

export const EMOTE_REACTIONS = ["Kappa Kappa", "NotLikeThis", "SeemsGood SeemsGood", "4Head", "DansGame DansGame", "NotLikeThis NotLikeThis NotLikeThis", "Kappa", "SeemsGood"] as const;

export const GLOBAL_EMOTES: Record<string, string> = {
  Kappa: "25",
  NotLikeThis: "58765",
  SeemsGood: "64138",
  "4Head": "354",
  DansGame: "33",
  HeyGuys: "30259",
  TwitchUnity: "196892",
};

export const RAID_LINES = ["{raider} raiders HeyGuys", "HeyGuys {raider} HeyGuys", "we came from {raider} TwitchUnity", "{raider} RAID HeyGuys HeyGuys"] as const;

export const LOOP_LINES = ["!discord", "PLAY ELDEN RING", "can i be a mod", "first"] as const;

export const PROMOTION_LINES = [
  "Get 500 free followers today at growstream dot net",
  "want more viewers? visit viewerboost.example now",
  "join my discord for free nitro giveaway discord.gg/fr33",
  "go follow my stream, i am live every night",
  "best viewbot prices at t.co/xyzviews",
] as const;

export const SELLING_WORDS = ["free followers", "more viewers", "free nitro", "follow my stream", "viewbot", "discord gg"] as const;
