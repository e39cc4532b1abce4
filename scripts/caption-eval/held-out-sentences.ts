/**
 * Sentences nobody says in dev/synth-vod/phrases.ts: the held-out half of the caption evaluation. The caption
 * filter's thresholds are chosen on VODs of the generator's own sentences; these check them on words and
 * sentence shapes the tuning never heard (chat talk, game talk, numbers, shouted hype).
 */
export const HELD_OUT_CALM = [
  "Thank you for the five gifted subs, that is so kind of you.",
  "I cannot believe he missed that shot from so close.",
  "Okay everyone, the next giveaway is in twenty minutes.",
  "Should we try the hard mode after dinner tonight?",
  "My internet was lagging a lot earlier today, sorry about that.",
  "That was the worst landing I have ever done in my life.",
  "Let me read the chat for a moment before we continue.",
  "We need two more wins to reach the top of the ladder.",
  "Honestly the final boss was easier than the tutorial.",
  "I am going to grab a snack, be right back in two minutes.",
  "The new patch changed how the shield works on this hero.",
  "Who wants to join the next lobby with me?",
  "There is a secret room behind the waterfall somewhere.",
  "I keep forgetting to equip the better armor.",
  "This map is way bigger than the one from yesterday.",
  "Can someone in chat remind me of the code later?",
  "I wonder what happens if we open the red chest first.",
  "We lost the last match because nobody defended the base.",
  "The controls feel a little slow on this console.",
  "My cat just walked across the keyboard, sorry everyone.",
  "Let us farm some coins before we buy the new car.",
  "I am pretty sure the exit is on the other side of the bridge.",
  "Tomorrow we start the story mode from the very beginning.",
  "The graphics in this game still look great after all these years.",
] as const;

export const HELD_OUT_SHOUTED = [
  "No no no no way, that was insane!",
  "He is right behind us, go go go!",
  "I got him! I actually got him!",
  "Are you kidding me? That is so lucky!",
  "Run! Get out of there right now!",
  "We won! We won the whole thing!",
] as const;
