import { z } from "zod";

/**
 * Re-cut in seconds: a job on a VOD the same account had analysed recently reuses that analysis (docs/TASK-MODEL.md,
 * "Reusing an analysis"). What a full analysis task keeps is its intermediate results — the per-second audio
 * signals, the chat replay, the words it transcribed and the ranges they cover, the facecam decision — stored as
 * one object beside the job's files (STORED_ANALYSIS_NAME in `jobs/<job_id>/`, so it is deleted with them) and
 * indexed in D1 (`vod_analyses`, migrations/0005) by (account, VOD id, ANALYSIS_VERSION, analysis options hash).
 * A later job finding it runs the same analysis task with `reuse` set: it loads that object instead of
 * downloading and analysing the whole VOD, and builds its own plan (selection, texts, tasks) from it, so every
 * render option (profiles, manual highlights, layout, captions, shorts) may differ.
 */

/**
 * The stored analysis' format and meaning. Bump it whenever the renderer's analysis changes what it stores or how
 * its signals are computed: every analysis stored under an older version is then ignored (never reused), because
 * selection on old signals would not match what a fresh analysis finds.
 */
// 2: the voice's rise measured on voiced power (render-container/src/analysis/voice-activity/periodicity.ts).
// 3: speech windows holding one pitch (music's held notes) leave the voice's rise (voice-activity/measure-voice.ts).
// 4: the voice's rise counts only the part of each window's power no note holds (voice-activity/unheld-share.ts).
// 5: a pitch recurring in bursts within a second (an alarm) leaves the voice's rise too; pauses around clip edges heard.
// 6: a held or recurring pitch leaves the voice's rise only where its sound recurs too (a monotone voice keeps it).
// 7: the voice model listens from a threshold scaled to the stream's loudness range (a compressed mix: loudness-range.ts).
// 8: the voice's pitch rise over its usual pitch (voice-activity/measure-voice.ts, PITCH_RISE) lifts its level.
// 9: loudness over the level around each second (analysis/local-baseline.ts), not over one median of the whole
//    stream; the voice model also listens where a second is loud over the whole stream's median.
// 10: that level never sinks more than 8 dB under the whole stream's median (a quiet minute's ambience).
// 11: a second voice pitched over the streamer's (a guest) gets its own usual pitch (measure-voice.ts, OTHER_VOICE).
// 12: the voice's usual level read around each second, more reference pieces (voice-activity/usual-level.ts).
// 13: a reference second is talk by its share of speech and its voiced windows' pitch, not their number (usual-level.ts).
// 14: windows over the octave count as the voice where its pitch climbed there by small steps (pitch-climb.ts).
// 15: a pause the voice model hears ends where a sound starts inside it after a quiet part (speech-pauses.ts PAUSE_SOUND).
export const ANALYSIS_VERSION = 15;

/** The stored analysis' file in its job's folder (never listed among the deliverables, never in the ZIP). */
export const STORED_ANALYSIS_NAME = "analysis.json.gz";

/**
 * The request fields a stored analysis depends on, beyond the VOD: `model_preset` (the rate the analysis was paid
 * at; a preset is the analysis' quality level, so a job at another preset analyses again) and `stream_language`
 * (the language its transcripts are in). Every other field (profiles and their tuning, manual highlights, the
 * number of shorts, layout, captions, title cards, texts' language) only changes what is chosen and rendered from
 * the analysis, which a reusing job does itself.
 */
export const ANALYSIS_OPTION_FIELDS = ["model_preset", "stream_language"] as const;

/** Where the reused analysis came from: in the 202 of POST /jobs, the job record and the estimate. */
export const AnalysisReused = z
  .object({
    from_job_id: z.string().meta({ description: "The earlier job of this account whose analysis of the VOD was reused." }),
    analysed_at: z.string().meta({ description: "When that analysis was made (ISO 8601 UTC)." }),
  })
  .meta({
    description:
      "Set when this job reuses the analysis of an earlier job of the same account on the same VOD (same analysis version, model_preset and stream_language, made within the reuse window): the whole-VOD analysis is skipped and its processing credits are not charged. null when the VOD is analysed.",
  });
export type AnalysisReused = z.infer<typeof AnalysisReused>;

/** Most links to earlier shorts' heard words a reusing analysis task is given (a few jobs' shorts). */
export const MAX_HEARD_LINKS = 20;

/** Worker -> renderer, on the analysis task of a reusing job: where to read the stored analysis. */
export const AnalysisReuseSource = AnalysisReused.extend({
  /** A signed GET link to the stored object (the Worker's /files route); it expires, so it is minted per dispatch. */
  url: z.string(),
  /**
   * Signed GET links to the words earlier shorts heard (heard-words.ts: HEARD_WORDS_NAME of each short of the job
   * whose analysis is reused and of the account's later jobs that reused it): a re-cut's short takes the words of
   * the part of its range one of them covers and hears only the rest. Absent from an older Worker: nothing is reused.
   */
  heard: z.array(z.string()).max(MAX_HEARD_LINKS).optional(),
});
export type AnalysisReuseSource = z.infer<typeof AnalysisReuseSource>;

/** Renderer -> Worker, in the job plan: what the analysis task did with the stored analysis. */
export const PlanAnalysis = z.object({
  /** The job whose stored analysis this plan was built from; null: the VOD was analysed by this job. */
  reused_from: z.string().nullable(),
  /**
   * The analysis this job stored for later jobs (null: none, e.g. it reused one, or storing it failed). The
   * Worker indexes it when the job completes.
   */
  stored: z
    .object({
      name: z.string(),
      version: z.number().int().positive(),
      size_bytes: z.number().int().nonnegative(),
      duration_seconds: z.number().positive(),
      analysed_at: z.string(),
    })
    .nullable(),
});
export type PlanAnalysis = z.infer<typeof PlanAnalysis>;
