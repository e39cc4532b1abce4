/**
 * What the streamers of source b say and what their chat types. Written from what Twitch streams sound and read
 * like, not from the first generator's lists: chat is mostly small talk (greetings, questions to the streamer,
 * chatter about the game), reactions come as words or as emotes only, and there is a raid's copy-pasted
 * message, a looping account and bot networks pasting promotion. Each chat line carries its category so the
 * evaluation can tell a title quoting small talk or spam from one quoting a reaction.
 */

/** The streamer talking through the game (calm). */
export const STREAMER_TALK = [
  "Okay so the plan is we rotate through the east side and hold the bridge.",
  "I swapped my loadout, the shotgun felt terrible last match.",
  "Chat, I have been grinding this ranked season for like three weeks now.",
  "We need two more wins to get out of this tier.",
  "I am going to play this one slow and look for third party fights.",
  "Hydrate check, everybody drink some water.",
  "The patch notes nerfed my favourite character again, classic.",
  "Let me loot this building real quick, there should be armor upstairs.",
  "If the circle pulls north we are in a great spot.",
  "My teammate last game was incredible, shout out to him.",
  "I will show the build after this round, remind me.",
  "This map is honestly my least favourite one in the pool.",
  "The sound design in this game is so good with headphones.",
  "We are streaming until midnight today, maybe a bit longer.",
  "I think the enemy team is sitting in the tower again.",
  "Subscribers, the new emote is coming next week.",
  "Okay okay, reset, we play it clean this time.",
  "That crate had nothing in it, unlucky.",
  "I bought a new chair and my back already feels better.",
  "Remember the tournament qualifier is on Saturday.",
  "Wait let me check the minimap, where did they go.",
  "Thanks for the bits, that is very kind of you.",
  "We have enough materials for the upgrade now.",
  "I am not tilted, I am perfectly calm, it is fine.",
] as const;

/** The streamer shouting: the biggest reactions of a stream. */
export const STREAMER_SHOUTS = [
  "OH MY GOD! NO WAY! NO WAY!",
  "LET'S GO! LET'S GOOO!",
  "ARE YOU KIDDING ME? WHAT WAS THAT?",
  "DID YOU SEE THAT? ONE HP! ONE HP!",
  "GET OUT OF HERE! HAHA, YES!",
  "I CANNOT BELIEVE IT! WE WON!",
  "RUN! RUN! HE IS RIGHT BEHIND ME!",
  "CLIP THAT! SOMEBODY CLIP THAT!",
] as const;

/** The streamer thanking a raid, calmly (a raid is greeted, not a highlight). */
export const STREAMER_RAID_THANKS = [
  "Oh hey, thank you so much for the raid, welcome in everybody.",
  "Welcome raiders, we are just playing some ranked, get comfy.",
] as const;

/** A guest or teammate on voice chat. */
export const GUEST_TALK = [
  "I am pushing left, cover me when I peek.",
  "Do you have any heals left? I am out.",
  "There is one on the roof, careful.",
  "My internet is lagging a little, sorry.",
  "I can drop you some ammo, come here.",
  "Should we wait for the zone or go now?",
  "I think they heard us coming.",
  "Nice shot, good stuff.",
] as const;

export const GUEST_SHOUTS = ["NO WAY! THAT WAS CRAZY!", "HOLY! YOU CLUTCHED IT!", "WHAT? HOW DID THAT WORK?"] as const;

export type ChatCategory = "greeting" | "question" | "chatter" | "reaction" | "emote_reaction" | "raid" | "spam_loop" | "promotion";

/** Viewers saying hello; most chat lines of a stream's first minutes and after a raid. */
export const GREETINGS = ["hi", "hello", "hey chat", "first time here", "hello from brazil", "yo", "good evening", "hiii", "just got here", "hey everyone"] as const;

/** Questions to the streamer: small talk, never what a moment is about. */
export const QUESTIONS = [
  "how long have you been live", "can you show the build", "what rank are you", "what is your sens",
  "what headset is that", "when is the next stream", "what game is this", "is this ranked",
] as const;

/** Chat talking among itself about the game. */
export const CHATTER = [
  "gg", "nice", "this map is so bad", "lol", "true", "the patch ruined this gun", "he is cracked", "rip",
  "lmao", "idk", "same", "good rotation", "that guy is camping", "gl next game", "o7", "the music is fire",
] as const;

/** Reactions with words (third-party emote names are typed as text, as they are in the replay). */
export const REACTIONS = [
  "NO WAY", "WHAT", "HOLY", "INSANE", "CLIP IT", "clip that", "LETS GOOO", "no shot", "KEKW", "OMEGALUL",
  "bro what", "W", "thats so clean", "HUGE", "nahhh", "sheesh",
] as const;

/** Emote-only reactions: nothing but Twitch emotes. */
export const EMOTE_REACTIONS = ["PogChamp", "PogChamp PogChamp", "LUL LUL LUL", "LUL", "Kreygasm", "PogChamp PogChamp PogChamp", "BibleThump", "LUL PogChamp"] as const;

/** Twitch global emotes, which the replay returns as emote fragments. */
export const GLOBAL_EMOTES: Record<string, string> = {
  PogChamp: "305954156",
  LUL: "425618",
  Kreygasm: "41",
  BibleThump: "86",
  VoHiYo: "81274",
  TwitchUnity: "196892",
};

/** What a raid's viewers paste (the raiding channel's name filled in). */
export const RAID_LINES = ["{raider} raid VoHiYo", "{raider} RAID TwitchUnity", "RAID FROM {raider} VoHiYo VoHiYo", "{raider} sent us VoHiYo"] as const;

/** One account looping the same line. */
export const LOOP_LINES = ["follow me back pls", "!points", "notice me pls", "PLAY FORTNITE"] as const;

/** Bot networks pasting promotion: links, follower sellers, "check my channel". */
export const PROMOTION_LINES = [
  "buy cheap followers now at fastfollows dot shop",
  "Wanna become famous? Buy followers, primes and viewers on streamboost.example",
  "check my channel, I stream every day",
  "https://cheap-viewers.example/promo best prices",
  "buy cheap followers and viewers https://follows.example",
] as const;
