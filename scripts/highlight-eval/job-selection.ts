/**
 * What a job's analysis task does with a VOD's audio and chat, in process and without the network: the audio
 * analysed as the job analyses a downloaded rendition (analyzeAudioInParts, two parts), the request normalised
 * by the API's own rules (normaliseJobRequest: PROFILE_DEFAULTS, final_video_length_minutes split across
 * profiles), the job's selection stage (chooseHearingEdges: chooseMoments with the clip edges heard), its render plan (planRendering) and its texts
 * (writeTexts with the local writer, as a renderer without an LLM writes them). Two differences from a real job,
 * both because these streams have no video and no speech recogniser runs: nothing snaps to scene cuts (no
 * video, so no cuts), and titles are written without transcribed speech (chat and names only).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RunProfile } from "../../common/contract/enums";
import type { RenderJob } from "../../common/contract/render";
import { JobRequestInput } from "../../common/contract/job-request";
import { commentFromNode, type ChatComment } from "../../common/twitch";
import type { ChatNode } from "../../dev/twitch-server/vod-folder";
import { analyzeAudioInParts, type AudioAnalysis } from "../../render-container/src/analysis";
import { withVoiceActivity } from "../../render-container/src/analysis/voice-activity";
import { silentLogger } from "../../render-container/src/log";
import { JobProgress } from "../../render-container/src/pipeline/progress";
import { chooseHearingEdges } from "../../render-container/src/pipeline/stages/hear-edges";
import { planRendering } from "../../render-container/src/pipeline/stages/plan-rendering";
import { writeTexts } from "../../render-container/src/pipeline/stages/write-texts";
import type { JobContext } from "../../render-container/src/pipeline/types";
import type { Moment } from "../../render-container/src/selection/types";
import { normaliseJobRequest } from "../../worker/src/domain/normalise-request";

export function commentsFromNodes(nodes: readonly ChatNode[], o: { emotesAsText?: boolean } = {}): ChatComment[] {
  const read = o.emotesAsText ? nodes.map(emotesAsText) : nodes;
  return read.map((n) => commentFromNode(n)).filter((c): c is ChatComment => c !== null);
}

/**
 * A comment as a replay that marks no emotes would carry it (`eval:highlights -- --emotes text`): one plain
 * fragment, emote names as bare words. What an independent simulator or an export may serve.
 */
export function emotesAsText(node: ChatNode): ChatNode {
  const text = node.message.fragments.map((f) => f.text).join("");
  return { ...node, message: { ...node.message, fragments: [{ text, emote: null }] } };
}

/**
 * The job analyses its audio in two parallel parts above SPLIT_ANALYSIS_ABOVE_SECONDS, keeping the PCM, and then
 * runs the voice-activity model on the loud stretches (acquireSource). The PCM stays (the selection hears the
 * clip edges in it) until `dispose`.
 */
export async function analyseLikeAJob(audioFile: string, durationSeconds: number): Promise<{ audio: AudioAnalysis; dispose: () => Promise<void> }> {
  const pcmDir = await mkdtemp(path.join(os.tmpdir(), "eval-pcm-"));
  const dispose = () => rm(pcmDir, { recursive: true, force: true });
  try {
    const analysed = await analyzeAudioInParts(audioFile, durationSeconds, 2, { keepPcmDir: pcmDir });
    const voiced = await withVoiceActivity(analysed);
    if (voiced.warning) throw new Error(voiced.warning);
    return { audio: voiced.audio, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

export interface JobOutcome {
  byProfile: Partial<Record<RunProfile, Moment[]>>;
  /** Every title the job would write: one per reel and one per moment (start..end), with the profile it belongs to. */
  titles: { profile: RunProfile; reel: boolean; title: string; start: number; end: number }[];
  warnings: string[];
  /** Seconds of audio the voice model heard around the clip edges, and the CPU seconds choosing took (both rounds). */
  edges: { heardSeconds: number; cpuSeconds: number };
}

/**
 * One job on one stream. `body` is what a client would POST (without vod_url): run_profiles and, optionally,
 * final_video_length_minutes.
 */
export async function runJobSelection(
  stream: { vodId: string; title: string; streamer: string; game: string; durationSeconds: number; audio: AudioAnalysis; comments: ChatComment[] },
  body: { run_profiles: RunProfile[]; final_video_length_minutes?: number },
  withTitles: boolean,
): Promise<JobOutcome> {
  const input = JobRequestInput.parse({ vod_url: `https://www.twitch.tv/videos/${stream.vodId}`, num_shorts: 0, ...body });
  const request = normaliseJobRequest(input, { vodId: stream.vodId, canonicalUrl: `https://www.twitch.tv/videos/${stream.vodId}`, plan: "pro", purchased: true });
  const progress = new JobProgress({ progress() {} });
  const cpu0 = process.cpuUsage();
  const heard = await chooseHearingEdges({ job: { request }, ctx: { log: silentLogger }, progress }, { audio: stream.audio, comments: stream.comments, durationSeconds: stream.durationSeconds });
  if (heard.warning) throw new Error(heard.warning);
  const chosen = heard.chosen;
  const used = process.cpuUsage(cpu0);
  const edges = { heardSeconds: heard.heardSeconds, cpuSeconds: (used.user + used.system) / 1e6 };
  const outcome: JobOutcome = { byProfile: chosen.momentsByProfile, titles: [], warnings: chosen.warnings ?? [], edges };
  const empty = Object.values(chosen.momentsByProfile).every((m) => !m || m.length === 0);
  if (!withTitles || empty) return outcome;
  const plan = planRendering(request, chosen);
  const job: RenderJob = {
    job_id: `eval-${stream.vodId}`,
    request,
    vod: { vod_id: stream.vodId, title: stream.title, duration_seconds: stream.durationSeconds, streamer_login: stream.streamer.toLowerCase(), streamer_display_name: stream.streamer, game_name: stream.game, created_at: null, language: "en" },
    callback: { url: "about:blank", token: "" },
    upload: { mode: "worker", url: "about:blank", token: "" },
    twitch: { gql_url: "about:blank", usher_url: "about:blank" },
  };
  const ctx = { signal: new AbortController().signal, log: silentLogger, fetchImpl: fetch } as unknown as JobContext;
  const written = await writeTexts(
    { job, plan, chosen, transcripts: { textFor: () => "", wordsFor: () => [] }, comments: stream.comments, language: "en", localRecogniser: true },
    ctx,
    progress,
    {},
  );
  for (const [profile, t] of Object.entries(written.texts.reels)) if (t) outcome.titles.push({ profile: profile as RunProfile, reel: true, title: t.title, start: 0, end: 0 });
  for (const [m, t] of written.texts.moments) outcome.titles.push({ profile: m.profile, reel: false, title: t.title, start: m.start, end: m.end });
  return outcome;
}
