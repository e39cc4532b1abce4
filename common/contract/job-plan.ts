import { z } from "zod";
import { PlanAnalysis } from "./analysis-reuse";
import { RunProfile } from "./enums";
import { ArtifactRef, MomentSignals, RenderJob, RenderStage } from "./render";

/**
 * A job is a plan of tasks (docs/TASK-MODEL.md). The *analysis* task resolves the VOD, reads its audio and
 * chat, selects the moments per profile, finds the facecam and writes the texts, and returns a JobPlan: one
 * versioned document that says every output to make and everything needed to make it. The job's Durable Object
 * stores it and dispatches one *render* task per output piece; when every task is done it writes metadata.json
 * and manifest.json itself (no container) and completes the job.
 *
 * Worker -> renderer:  POST {renderer}/tasks                   body RenderTaskRequest  -> 202 {accepted}
 *                                                                                        503 when it is busy
 *                                                                                        409 contract_unsupported
 *                                                                                            (task-contract.ts)
 *                      POST {renderer}/tasks/{task_key}/cancel                          -> 200 {cancelled}
 * renderer -> Worker:  POST {callback.url}  Bearer {callback.token}  body TaskEvent -> 200 TaskEventAnswer
 *                      (callback.url = {base}/internal/jobs/{job_id}/tasks/{task_id}/attempts/{attempt}/events;
 *                      callback.token speaks for that attempt only); the answer to an analysis' `completed` may
 *                      carry `next_task`, run at once on the same instance (contract 3)
 */

export const JOB_PLAN_VERSION = 1 as const;

/** Task ids are stable names inside a job (also used in R2 part names and container names). */
export const TaskId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/);
export type TaskId = z.infer<typeof TaskId>;
export const ANALYSE_TASK_ID = "analyse";

/** A pause between sentences (VOD seconds): a cut inside one cuts through no speech. */
export const PlanPause = z.object({ start: z.number(), end: z.number() });

/** A moment as chosen by the analysis, with its texts. Render tasks may move its edges (scene cuts) and say so. */
export const PlanMoment = z.object({
  id: z.string(),
  profile: RunProfile,
  start: z.number(),
  end: z.number(),
  peak: z.number(),
  score: z.number(),
  source: z.enum(["auto", "manual"]),
  label: z.string().nullable(),
  signals: MomentSignals,
  title: z.string(),
  story: z.string(),
  /** A profile's chosen moment, listed in the manifest's `highlights` (a short's own pick that is no profile's moment is not). */
  highlight: z.boolean(),
  /**
   * The profane words chat typed during the moment (and its reaction tail), lowercased: all of the chat a render
   * task needs, since a swear word is burned into a caption only when chat has it too. Absent in plans made
   * before it existed.
   */
  chat_profanity: z.array(z.string()).default([]),
  /**
   * The pauses between sentences around the moment, as the audio analysis found them: a render task moves an
   * edge to a scene cut only inside one (and keeps a short's moved end out of speech), so snapping never cuts a
   * sentence. Absent when the analysis found none (or in plans from before): edges then snap as before.
   */
  pauses: z.array(PlanPause).optional(),
});
export type PlanMoment = z.infer<typeof PlanMoment>;

/**
 * How far a render task may move a moment's edges when it snaps them to scene cuts: never into a neighbour of
 * the same reel, never outside the VOD. null: the edges stay (manual highlights).
 */
export const SnapWindow = z.object({ min_start: z.number(), max_end: z.number(), min_duration: z.number(), max_duration: z.number() });
export type SnapWindow = z.infer<typeof SnapWindow>;

const Texts = { title: z.string(), description: z.string(), tags: z.array(z.string()) };

/** Most chat lines one clip task carries (the plan stays small; a clip's chat beyond it is the busiest stretch thinned). */
export const MAX_CHAT_LINES_PER_CLIP = 400;

/**
 * One chat message to draw over a clip (parameters.chat_overlay): what the analysis read from the replay, already
 * cleared of spam (an account on a loop and a pasted line show once; links and promotion never), so a render
 * task never fetches the replay again.
 */
export const ChatLine = z.object({
  /** When it was sent, VOD seconds. */
  at: z.number(),
  /** The sender's display name (their login when the replay has none). */
  name: z.string(),
  /** Their Twitch name colour "#RRGGBB" as in the replay; null when none (the renderer picks a readable one). */
  color: z.string().nullable(),
  /** The message as Twitch split it: text, and emotes by id (their text is the emote's name). */
  fragments: z.array(z.object({ text: z.string(), emote_id: z.string().nullable() })),
});
export type ChatLine = z.infer<typeof ChatLine>;
/** Absent when the clip draws no chat; [] when chat is on but nobody wrote during it. */
const ClipChat = z.array(ChatLine).max(MAX_CHAT_LINES_PER_CLIP).optional();

/** One moment of a reel (and the teaser snippets cut from it): rendered as separate MP4 parts, joined later. */
export const ReelMomentTask = z.object({
  kind: z.literal("reel_moment"),
  id: TaskId,
  run_name: RunProfile,
  moment_id: z.string(),
  /** Position of the moment's piece in the joined reel (teasers come first, then moments in order). */
  position: z.number().int().nonnegative(),
  start: z.number(),
  end: z.number(),
  snap: SnapWindow.nullable(),
  /** Lower-third title over the piece; null without title cards. */
  title_text: z.string().nullable(),
  /** Chat drawn over the moment (parameters.reel_chat_overlay); absent without. */
  chat: ClipChat,
  /** Teaser snippets inside this moment, each its own piece at its own position. */
  teasers: z.array(z.object({ position: z.number().int().nonnegative(), start: z.number(), end: z.number() })),
  /** Output seconds this task encodes: weights its share of the job's progress. */
  expected_encode_seconds: z.number().nonnegative(),
});
export type ReelMomentTask = z.infer<typeof ReelMomentTask>;

/** Joins a reel's parts by stream copy, makes its thumbnail and uploads both. Runs after all its parts exist. */
export const ReelJoinTask = z.object({
  kind: z.literal("reel_join"),
  id: TaskId,
  run_name: RunProfile,
  /** Tasks that make its parts (reel_moment or clip_group ids); it is dispatched only when all of them are done. */
  depends_on: z.array(TaskId),
  /** Number of pieces, positions 0..pieces-1. */
  pieces: z.number().int().positive(),
  /** Seconds into the joined reel for the thumbnail. */
  thumbnail_at: z.number().nonnegative(),
  ...Texts,
  expected_encode_seconds: z.number().nonnegative(),
});
export type ReelJoinTask = z.infer<typeof ReelJoinTask>;

/** Most words a short's `speech` carries: a 60 s short of fast talk has about 250 (the plan stays small). */
export const MAX_SPEECH_WORDS = 600;

/** A recognised word, VOD seconds, as the recogniser gave it (captions/types.ts `Word`). */
export const SpeechWord = z.object({
  word: z.string(),
  start: z.number(),
  end: z.number(),
  confidence: z.number().min(0).max(1).optional(),
  crossChecked: z.boolean().optional(),
});

/**
 * Words the analysis task already heard over a short's whole range, in one piece of audio (a re-cut: docs/TASK-MODEL.md,
 * "Reusing an analysis"): the short's captions are made from them, by the same rules, instead of transcribing the
 * range a second time. The short task uses them only when its range lies inside `start..end` and its recogniser is
 * `recogniser`; otherwise it transcribes its own range as always.
 */
export const ShortSpeech = z.object({
  /** The recogniser that heard them (Transcriber.name). */
  recogniser: z.string(),
  /** The VOD range transcribed as one piece. */
  start: z.number(),
  end: z.number(),
  words: z.array(SpeechWord).max(MAX_SPEECH_WORDS),
});
export type ShortSpeech = z.infer<typeof ShortSpeech>;

/** One vertical short with its captions (transcribed from its own video, or from `speech`) and thumbnail. */
export const ShortTask = z.object({
  kind: z.literal("short"),
  id: TaskId,
  index: z.number().int().positive(),
  moment_id: z.string(),
  start: z.number(),
  end: z.number(),
  peak: z.number(),
  /** Automatic shorts may nudge their start to a scene cut (their length stays). */
  snap: z.boolean(),
  /** Title flashed at the start; null when shorts_title_card_enabled is false. */
  title_text: z.string().nullable(),
  /** Chat drawn over the short (parameters.chat_overlay); absent without. */
  chat: ClipChat,
  /** Its range's words as the analysis heard them (a re-cut's one short); absent: the task transcribes its range. */
  speech: ShortSpeech.optional(),
  ...Texts,
  expected_encode_seconds: z.number().nonnegative(),
});
export type ShortTask = z.infer<typeof ShortTask>;

/** A piece of work cut from one stretch of the VOD: a reel moment or a short. */
export const ClipTask = z.discriminatedUnion("kind", [ReelMomentTask, ShortTask]);
export type ClipTask = z.infer<typeof ClipTask>;

/**
 * Clip tasks whose ranges overlap (the same moment in several profiles' reels, a short around a reel moment's
 * peak), run as one task so the stretch of video they share is downloaded once. Each member keeps its own spec
 * and its own result; a reel's join depends on the group that holds its moment.
 */
export const ClipGroupTask = z.object({
  kind: z.literal("clip_group"),
  id: TaskId,
  members: z.array(ClipTask).min(2),
  /** The members' encode seconds, summed. */
  expected_encode_seconds: z.number().nonnegative(),
});
export type ClipGroupTask = z.infer<typeof ClipGroupTask>;

export const RenderTaskSpec = z.discriminatedUnion("kind", [ReelMomentTask, ReelJoinTask, ShortTask, ClipGroupTask]);
export type RenderTaskSpec = z.infer<typeof RenderTaskSpec>;

/** Every piece of work of a plan with groups opened: reel moments, shorts and joins. */
export function unitTasks(tasks: readonly RenderTaskSpec[]): Exclude<RenderTaskSpec, { kind: "clip_group" }>[] {
  return tasks.flatMap((t) => (t.kind === "clip_group" ? t.members : [t]));
}
export type TaskKind = "analyse" | RenderTaskSpec["kind"];

export const FacecamDecision = z.object({
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  found: z.enum(["configured", "detected", "default"]),
  confidence: z.number(),
});
export type FacecamDecision = z.infer<typeof FacecamDecision>;

export const JobPlan = z.object({
  version: z.literal(JOB_PLAN_VERSION),
  job_id: z.string(),
  source: z.object({
    duration_seconds: z.number().positive(),
    /** Group id of the video rendition the analysis chose (render tasks resolve the VOD again and use it). */
    video_rendition: z.string(),
    /** VOD seconds where an fMP4 video changes its media format; no task range crosses one. */
    format_switches: z.array(z.number()),
    /** The VOD's URL as requested (the editor timelines' media reference); absent in plans made before it existed. */
    vod_url: z.string().optional(),
    /** Frames per second of that rendition as Twitch lists it (FRAME-RATE); null when it does not say. */
    frame_rate: z.number().positive().nullable().optional(),
  }),
  languages: z.object({ stream: z.string(), metadata: z.string() }),
  captions: z.object({ burn: z.boolean(), language: z.string() }),
  /** Region split shorts put in their facecam panel and reels' chat keeps off; null when neither needs it. */
  facecam: FacecamDecision.nullable(),
  moments: z.array(PlanMoment),
  reels: z.array(z.object({ run_name: RunProfile, moment_ids: z.array(z.string()), ...Texts })),
  shorts: z.array(z.object({ index: z.number().int().positive(), moment_id: z.string(), ...Texts })),
  tasks: z.array(RenderTaskSpec),
  /** metadata.json as the finalising step writes it. */
  metadata: z.record(z.string(), z.unknown()),
  /** For the manifest's `warnings`. */
  warnings: z.array(z.string()),
  /** Whether the plan came from a reused analysis, and the analysis this job stored (absent in older plans). */
  analysis: PlanAnalysis.optional(),
});
export type JobPlan = z.infer<typeof JobPlan>;

/** A reel part: an intermediate MP4 stored beside the deliverables (never listed, deleted after the join). */
export const ReelPart = z.object({
  position: z.number().int().nonnegative(),
  name: z.string(),
  size_bytes: z.number().int().nonnegative(),
  duration_seconds: z.number().nonnegative(),
});
export type ReelPart = z.infer<typeof ReelPart>;

/** Where a render task put a moment's edges after snapping them (for the manifest). */
export const MomentBounds = z.object({ id: z.string(), start: z.number(), end: z.number() });

/** Notes a render task adds to the manifest's `warnings` (e.g. captions that could not be made for a short). */
const TaskWarnings = z.array(z.string()).optional();

const ReelMomentResult = z.object({ kind: z.literal("reel_moment"), parts: z.array(ReelPart), moment: MomentBounds, warnings: TaskWarnings });
const ShortResult = z.object({ kind: z.literal("short"), artifacts: z.array(ArtifactRef), moment: MomentBounds, warnings: TaskWarnings });
export const ClipResult = z.discriminatedUnion("kind", [ReelMomentResult, ShortResult]);
export type ClipResult = z.infer<typeof ClipResult>;

export const TaskResult = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("analyse"), plan: JobPlan }),
  ReelMomentResult,
  z.object({ kind: z.literal("reel_join"), artifacts: z.array(ArtifactRef), warnings: TaskWarnings }),
  ShortResult,
  /** One result per member, in the members' order. */
  z.object({ kind: z.literal("clip_group"), results: z.array(ClipResult) }),
]);
export type TaskResult = z.infer<typeof TaskResult>;

/** A group's members' results in its place: what every reader of results (finalise, file checks) works on. */
export function memberResults(results: readonly TaskResult[]): Exclude<TaskResult, { kind: "clip_group" }>[] {
  return results.flatMap((r) => (r.kind === "clip_group" ? r.results : [r]));
}

/** Part file names: `part-<run>-<position>.mp4`. */
export const reelPartName = (run: RunProfile, position: number): string => `part-${run}-${String(position).padStart(3, "0")}.mp4`;

const attempt = z.number().int().positive();
export const TaskEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("started"), attempt, seq: z.number().int() }),
  z.object({
    type: z.literal("progress"),
    attempt,
    seq: z.number().int(),
    stage: RenderStage,
    /** This task's own progress 0..1; the Durable Object weights it into the job's percent. */
    fraction: z.number().min(0).max(1),
  }),
  z.object({ type: z.literal("completed"), attempt, seq: z.number().int(), result: TaskResult }),
  z.object({
    type: z.literal("failed"),
    attempt,
    seq: z.number().int(),
    error: z.object({ code: z.string(), message: z.string() }),
    /** false: the input itself is the problem (e.g. no_highlights_found, vod_private): the job fails at once. */
    retryable: z.boolean(),
  }),
  /** The process was told to stop (SIGTERM: rollout, eviction) before the task ended: run it again elsewhere. */
  z.object({ type: z.literal("interrupted"), attempt, seq: z.number().int(), reason: z.string() }),
]);
export type TaskEvent = z.infer<typeof TaskEvent>;

/** Worker -> renderer: one task of one job. The job fields are those of RenderJob; callback.url is the task's. */
export const RenderTaskRequest = RenderJob.extend({
  /** The task contract version the Worker speaks (common/contract/task-contract.ts); absent means 1. */
  contract: z.number().int().positive().optional(),
  task: z.object({
    id: TaskId,
    kind: z.enum(["analyse", "reel_moment", "reel_join", "short", "clip_group"]),
    attempt,
  }),
  /** null for the analysis task; the stored plan for render tasks. */
  plan: JobPlan.nullable(),
});
export type RenderTaskRequest = z.infer<typeof RenderTaskRequest>;

/**
 * The Worker's 200 answer to a task event. `next_task` (task contract 3, common/plan/task-handoff.ts): only in the
 * answer to an analysis task's `completed` event, when the job's one short is handed to the instance that ran the
 * analysis; the renderer runs it as if it had been POSTed to its /tasks (the same checks: contract version,
 * schema, plan), in the slot the analysis frees. It is recorded as dispatched to that instance: a renderer that
 * does not run it leaves it silent, and the task watchdog retries it elsewhere.
 */
export const TaskEventAnswer = z.object({
  accepted: z.boolean(),
  reason: z.literal("duplicate").optional(),
  status: z.string(),
  progress: z.number(),
  /** Read as unknown by the renderer and checked as a POST /tasks body would be. */
  next_task: z.unknown().optional(),
});
export type TaskEventAnswer = Omit<z.infer<typeof TaskEventAnswer>, "next_task"> & { next_task?: RenderTaskRequest };

/** The renderer's key for a running task: one job may run several tasks on one process (local pool). */
export const taskKey = (jobId: string, taskId: string): string => `${jobId}.${taskId}`;
