import { JOB_PLAN_VERSION, JobPlan, type FacecamDecision, type PlanMoment, type RenderTaskSpec, type ReelJoinTask, type ReelMomentTask, type ShortSpeech, type ShortTask } from "../../../common/contract/job-plan";
import type { PlanAnalysis } from "../../../common/contract/analysis-reuse";
import type { RenderJob } from "../../../common/contract/render";
import type { ChatComment } from "../../../common/twitch";
import { profaneWords } from "../captions/profanity";
import { chatLinesPerClip, clipChatReader } from "../chat-overlay/clip-chat";
import type { FacecamChoice } from "../render";
import type { Moment } from "../selection/types";
import type { RenderPlan } from "./render-plan";
import { groupClipTasks } from "./group-clips";
import { snapWindows } from "./snap-windows";
import { SHORT_SNAP_SECONDS } from "./tasks/clips";
import type { Chosen } from "./stages/choose-moments";
import { commentsDuring, type WrittenTexts } from "./stages/write-texts";

/** Everything the analysis found, in one object: what buildJobPlan turns into the job's plan. */
export interface Analysis {
  job: RenderJob;
  source: {
    durationSeconds: number;
    /** Group id of the video rendition the render tasks read. */
    videoRendition: string;
    /** VOD seconds where the video changes its media format (placeAroundFormatSwitches). */
    formatSwitches: readonly number[];
    /** That rendition's frames per second as Twitch lists it; null when it does not say (the editor timelines' rate). */
    frameRate: number | null;
  };
  languages: { stream: string; metadata: string };
  captions: { burn: boolean; language: string };
  /** Every profile's moments and the shorts, as selected and kept off format switches. */
  chosen: Chosen;
  /** What gets rendered: the reels (with their teaser snippets) and the shorts. */
  render: RenderPlan;
  texts: Omit<WrittenTexts, "input">;
  /** The facecam of split shorts and of reels with chat (their chat keeps off it); null when neither needs it. */
  facecam: FacecamChoice | null;
  /** Words the analysis heard over a short's whole range, by short index (a re-cut's one short: reuse/recut-captions.ts). */
  speech?: ReadonlyMap<number, ShortSpeech>;
  /** The VOD's chat (what a moment's chat_profanity is read from). */
  comments: readonly ChatComment[];
  warnings: string[];
  /** Whether this plan came from a reused analysis, and the analysis the job stored (analysis-reuse.ts). */
  analysis?: PlanAnalysis;
}

/**
 * How far past a reel moment's edges its chat is carried (within its snap window): as far as snapping moves an
 * edge in practice, without spending the plan's chat budget on a whole gap between moments.
 */
export const REEL_CHAT_REACH_SECONDS = 20;

/** Encoding a vertical short costs about 2.5x a reel second (two scaled layers, captions): as JobProgress weighs it. */
export const SHORT_ENCODE_WEIGHT = 2.5;
/**
 * A join encodes nothing (stream copy of the parts, one thumbnail, the upload): weighed as this share of the
 * reel's seconds, so the job's bar still moves while it runs.
 */
export const JOIN_ENCODE_SHARE = 0.05;

const two = (n: number) => String(n).padStart(2, "0");
export const taskIds = {
  reelMoment: (run: string, n: number) => `reel-${run}-m${two(n)}`,
  reelJoin: (run: string) => `reel-${run}-join`,
  short: (index: number) => `short-${two(index)}`,
};

const seconds = (r: { start: number; end: number }) => r.end - r.start;

/**
 * The job's plan from its analysis: every moment with its texts, and one render task per output piece. Per reel,
 * one `reel_moment` task per moment (in time order) carrying the teaser snippets cut from it, then a `reel_join`
 * that depends on them; per short one `short` task. Pieces are numbered as renderReel orders them: the teaser
 * snippets first, best moment first (coldOpenSnippets), then the moments in time order. Clip tasks whose ranges
 * overlap are then grouped so their video is downloaded once (groupClipTasks). The result is validated:
 * a plan the Worker could not read fails here, in the analysis task.
 */
export function buildJobPlan(a: Analysis): JobPlan {
  const p = a.job.request.parameters;
  const { ids, texts, document } = a.texts;
  const idOf = (m: Moment): string => {
    const id = ids.get(m);
    if (!id) throw new Error(`moment ${m.start}-${m.end} has no id in the texts`);
    return id;
  };
  const noText = { title: "", description: "", tags: [] as string[] };
  // The chat each clip draws travels in the plan (parameters.chat_overlay, reel_chat_overlay): render tasks never
  // read the replay again. Ranges reach as far as the clip's edges may move when they snap to scene cuts.
  const readChat = p.chat_overlay !== "off" || p.reel_chat_overlay ? clipChatReader(a.comments) : null;
  const chatClips = (p.chat_overlay !== "off" ? a.render.shorts.length : 0) + (p.reel_chat_overlay ? a.render.reels.reduce((n, r) => n + r.moments.length, 0) : 0);
  const chatOf = readChat && ((start: number, end: number) => readChat(start, end, chatLinesPerClip(chatClips)));
  const highlights = new Set(Object.values(a.chosen.momentsByProfile).flatMap((ms) => ms ?? []));
  const moments: PlanMoment[] = [...ids.entries()].map(([m, id]) => ({
    id,
    profile: m.profile,
    start: m.start,
    end: m.end,
    peak: m.peak,
    score: m.score,
    source: m.source,
    label: m.label,
    signals: m.signals,
    title: texts.moments.get(m)?.title ?? "",
    story: texts.moments.get(m)?.story ?? "",
    highlight: highlights.has(m),
    chat_profanity: [...new Set(commentsDuring(a.comments, m.start, m.end).flatMap((c) => profaneWords(c.text)))].sort(),
    ...(m.pauses ? { pauses: m.pauses } : {}),
  }));

  const tasks: RenderTaskSpec[] = [];
  for (const reel of a.render.reels) {
    const windows = snapWindows(reel.moments, {
      durationSeconds: a.source.durationSeconds,
      formatSwitches: a.source.formatSwitches,
      minDuration: p.min_highlight_duration,
      maxDuration: p.max_highlight_duration,
    });
    // Each snippet is cut from the moment it was centred in, so that moment's task (which has its video) cuts it.
    const owners = reel.coldOpen.map((s) => {
      const owner = reel.moments.findIndex((m) => m.start <= s.start + 1e-6 && s.end <= m.end + 1e-6);
      if (owner < 0) throw new Error(`the teaser snippet ${s.start}-${s.end} of the ${reel.profile} reel lies in none of its moments`);
      return owner;
    });
    const momentTasks: ReelMomentTask[] = reel.moments.map((m, i) => {
      const teasers = reel.coldOpen.flatMap((s, position) => (owners[position] === i ? [{ position, start: s.start, end: s.end }] : []));
      return {
        kind: "reel_moment",
        id: taskIds.reelMoment(reel.profile, i + 1),
        run_name: reel.profile,
        moment_id: idOf(m),
        position: reel.coldOpen.length + i,
        start: m.start,
        end: m.end,
        snap: windows[i]!,
        title_text: p.reel_title_card_enabled ? (texts.moments.get(m)?.title ?? null) : null,
        ...(chatOf && p.reel_chat_overlay ? { chat: chatOf(Math.max(windows[i]?.min_start ?? m.start, m.start - REEL_CHAT_REACH_SECONDS), Math.min(windows[i]?.max_end ?? m.end, m.end + REEL_CHAT_REACH_SECONDS)) } : {}),
        teasers,
        expected_encode_seconds: seconds(m) + teasers.reduce((sum, t) => sum + seconds(t), 0),
      };
    });
    const first = reel.moments[0]!;
    const join: ReelJoinTask = {
      kind: "reel_join",
      id: taskIds.reelJoin(reel.profile),
      run_name: reel.profile,
      depends_on: momentTasks.map((t) => t.id),
      pieces: reel.coldOpen.length + reel.moments.length,
      // As the one-process renderer picks it: a second into the teaser, else the first moment's peak.
      thumbnail_at: reel.coldOpen.length > 0 ? 1 : Math.max(0, first.peak - first.start),
      ...(texts.reels[reel.profile] ?? noText),
      expected_encode_seconds: JOIN_ENCODE_SHARE * momentTasks.reduce((sum, t) => sum + t.expected_encode_seconds, 0),
    };
    tasks.push(...momentTasks, join);
  }
  for (const short of a.render.shorts) {
    const m = short.moment;
    const text = texts.shorts[short.index] ?? noText;
    const task: ShortTask = {
      kind: "short",
      id: taskIds.short(short.index),
      index: short.index,
      moment_id: idOf(m),
      start: m.start,
      end: m.end,
      peak: m.peak,
      snap: m.source === "auto",
      title_text: p.shorts_title_card_enabled ? (texts.shorts[short.index]?.title ?? null) : null,
      ...(chatOf && p.chat_overlay !== "off" ? { chat: chatOf(m.start - SHORT_SNAP_SECONDS, m.end + SHORT_SNAP_SECONDS) } : {}),
      ...(a.speech?.has(short.index) ? { speech: a.speech.get(short.index)! } : {}),
      ...text,
      expected_encode_seconds: SHORT_ENCODE_WEIGHT * seconds(m),
    };
    tasks.push(task);
  }

  // metadata.json says where split shorts and reels' chat took the facecam from (an additive key; the manifest keeps its shape).
  const render = a.facecam ? { render: { facecam: { ...a.facecam.region, found: a.facecam.found, confidence: a.facecam.confidence } } } : {};
  const plan = {
    version: JOB_PLAN_VERSION,
    job_id: a.job.job_id,
    source: { duration_seconds: a.source.durationSeconds, video_rendition: a.source.videoRendition, format_switches: [...a.source.formatSwitches], vod_url: a.job.request.vod_url, frame_rate: a.source.frameRate },
    languages: a.languages,
    captions: a.captions,
    facecam: a.facecam && facecamDecision(a.facecam),
    moments,
    reels: a.render.reels.map((r) => ({ run_name: r.profile, moment_ids: r.moments.map(idOf), ...(texts.reels[r.profile] ?? noText) })),
    shorts: a.render.shorts.map((s) => ({ index: s.index, moment_id: idOf(s.moment), ...(texts.shorts[s.index] ?? noText) })),
    tasks: groupClipTasks(tasks),
    metadata: { ...document, ...render },
    warnings: a.warnings,
    ...(a.analysis ? { analysis: a.analysis } : {}),
  };
  // Through JSON first: the plan is stored and sent as JSON, so what the Worker reads is what is validated here.
  return JobPlan.parse(JSON.parse(JSON.stringify(plan)));
}

/** The plan's facecam: a configured region has no detection confidence (null in metadata.json); it counts as certain. */
function facecamDecision(c: FacecamChoice): FacecamDecision {
  return { ...c.region, found: c.found, confidence: c.confidence ?? 1 };
}
