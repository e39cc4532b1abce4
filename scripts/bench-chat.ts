/**
 * `npm run bench:chat`: the CPU time of a job's chat analysis (analyzeChat: bursts at two window scales, voices,
 * per-second signals) on a generated 6-hour replay of a busy chat, about 5 messages a second from 3,000 accounts
 * with a crowd reacting every 10 minutes. Prints the messages, the bursts found and the CPU seconds of five runs
 * (the first warms the JIT); a figure to read beside the audio analysis' ~16 s per 6 hours, not a pass or fail.
 */
import { analyzeChat } from "../render-container/src/analysis/chat-signals";
import type { ChatCommentInput } from "../render-container/src/analysis/types";

const SECONDS = 6 * 3600;
let seed = 11;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const texts = ["hello chat", "KEKW", "what rank are you", "Kappa Kappa", "LUL", "nice", "is this the new update", "POGGERS", "gg", "first time here"];
const comments: ChatCommentInput[] = [];
for (let t = 0; t < SECONDS; t += -Math.log(1 - rnd()) / 5) comments.push({ offset_seconds: Math.floor(t), commenter_login: `u${Math.floor(rnd() * 3000)}`, text: texts[Math.floor(rnd() * texts.length)]!, emote_count: 0 });
for (let at = 300; at < SECONDS; at += 600) for (let i = 0; i < 80; i++) comments.push({ offset_seconds: at + Math.floor(i / 8), commenter_login: `crowd${at}_${i}`, text: "KEKW", emote_count: 0 });
comments.sort((a, b) => a.offset_seconds - b.offset_seconds);

const runs: number[] = [];
let bursts = 0;
for (let k = 0; k < 5; k++) {
  const t0 = process.cpuUsage();
  bursts = analyzeChat(comments, SECONDS).bursts?.length ?? 0;
  const used = process.cpuUsage(t0);
  runs.push((used.user + used.system) / 1e6);
}
console.log(`chat analysis of 6 hours: ${comments.length} messages, ${bursts} bursts; CPU s per run ${runs.map((r) => r.toFixed(2)).join(" ")}`);
