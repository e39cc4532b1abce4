import type { AudioAnalysis } from "../../analysis";
import { mergeStretches, speechPausesIn, withHeardPauses, type HeardPauses } from "../../analysis/voice-activity/speech-pauses";
import type { VoiceModel } from "../../analysis/voice-activity";
import { silentLogger } from "../../log";
import { JobProgress } from "../progress";
import type { Acquired } from "./acquire";
import { chooseMoments, type Chosen, type ChoosingRun } from "./choose-moments";

/**
 * How the clip edges are listened to. An edge may move by up to the boundary rules' reach once pauses are known
 * (snapOutwardSeconds 6, settleInPauses ~3 s), so the model hears `padSeconds` either side of it; an edge that
 * moved outside what was heard is heard in the next round, up to `rounds`.
 */
export const EDGE_LISTENING = { padSeconds: 8, marginSeconds: 3, rounds: 3 } as const;

export interface HeardChoice {
  chosen: Chosen;
  /** The analysis with the heard pauses in place of the envelope's around the edges (stored for later jobs). */
  audio: AudioAnalysis;
  heardSeconds: number;
  warning?: string;
}

/**
 * Chooses the moments, then hears the speech around every clip edge with the voice-activity model and chooses
 * again on the pauses it heard. The boundary rules (selection/boundaries.ts) put edges in pauses between
 * sentences; the voice-band envelope finds those pauses in quiet audio but not under a busy music bed, where
 * every edge would land inside a sentence (speech-pauses.ts). Choosing again, rather than moving the edges
 * afterwards, keeps every rule of the selection (lengths, setups, payoffs, neighbours). Without the kept PCM (a
 * reused analysis) or the model, the envelope's pauses stay.
 */
export async function chooseHearingEdges(run: ChoosingRun, source: Pick<Acquired, "audio" | "comments" | "durationSeconds">, opts: { model?: VoiceModel } = {}): Promise<HeardChoice> {
  // The rounds choose silently: the job logs and reports one choice, the last.
  const quiet: ChoosingRun = { ...run, ctx: { log: silentLogger }, progress: new JobProgress({ progress() {} }) };
  try {
    const heard = await hearingEdges(source.audio, source.durationSeconds, (audio) => chooseMoments(quiet, { ...source, audio }), edgesOf, opts);
    return { chosen: chooseMoments(run, { ...source, audio: heard.audio }), audio: heard.audio, heardSeconds: heard.heardSeconds };
  } catch (err) {
    const why = String((err as Error)?.message ?? err);
    run.ctx.log.warn("clip edges not heard", { error: why });
    return { chosen: chooseMoments(run, source), audio: source.audio, heardSeconds: 0, warning: `The pauses around clip edges could not be heard (${why}): edges were placed on the audio's level alone.` };
  }
}

/**
 * The rounds of chooseHearingEdges for any choice: `choose` on the analysis, then on the analysis with the pauses
 * heard around the edges `edges` lists, until every edge lies well inside what was heard (the evaluation of the
 * first source runs its per-profile choice through this).
 */
export async function hearingEdges<T>(audio: AudioAnalysis, durationSeconds: number, choose: (audio: AudioAnalysis) => T, edges: (chosen: T) => number[], opts: { model?: VoiceModel } = {}): Promise<{ chosen: T; audio: AudioAnalysis; heardSeconds: number }> {
  let chosen = choose(audio);
  if (!audio.pcm?.length) return { chosen, audio, heardSeconds: 0 };
  const P = EDGE_LISTENING;
  let heard: HeardPauses = { heard: [], pauses: [] };
  let current = audio;
  for (let round = 0; round < P.rounds; round++) {
    const unheard = edges(chosen).filter((t) => !heard.heard.some((h) => t >= h.start + P.marginSeconds && t <= h.end - P.marginSeconds));
    if (unheard.length === 0) break;
    const fresh = await speechPausesIn(audio, unheard.map((t) => ({ start: Math.max(0, t - P.padSeconds), end: Math.min(durationSeconds, t + P.padSeconds) })), opts);
    // What was heard again replaces what an earlier round heard there.
    const older = heard.pauses.filter((p) => !fresh.heard.some((h) => p.start < h.end && p.end > h.start));
    heard = { heard: mergeStretches([...heard.heard, ...fresh.heard]), pauses: [...older, ...fresh.pauses].sort((a, b) => a.start - b.start) };
    current = { ...audio, pauses: withHeardPauses(audio.pauses, heard) };
    chosen = choose(current);
  }
  return { chosen, audio: current, heardSeconds: heard.heard.reduce((n, h) => n + h.end - h.start, 0) };
}

/** Every start and end of every profile's moments and of the shorts. */
function edgesOf(chosen: Chosen): number[] {
  const all = [...Object.values(chosen.momentsByProfile).flatMap((ms) => ms ?? []), ...chosen.shorts];
  return [...new Set(all.flatMap((m) => [m.start, m.end]))].sort((a, b) => a - b);
}
