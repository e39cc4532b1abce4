import { cleanedText } from "../../../common/contract/plain-text";
import { TwitchUnavailableError } from "../../../common/twitch/errors";
import { probeVod, type VodProbe } from "../../../common/twitch/probe";
import { workerConfig } from "../config";
import type { Env } from "../env";

/** A probe is a handful of small requests; a Twitch that takes longer than this is treated as unreachable. */
export const PROBE_TIMEOUT_MS = 15_000;

/**
 * Twitch's texts held to the rules of a client's (plain-text.ts), since they go where a client's go (the job
 * record, generated titles and descriptions, the renderer): a VOD title with a direction override or a control
 * character is cleaned, not stored as sent.
 */
function cleaned(probe: VodProbe): VodProbe {
  const name = (text: string | null) => (text === null ? null : cleanedText(text) || null);
  return { ...probe, title: cleanedText(probe.title), streamer_name: name(probe.streamer_name), game_name: name(probe.game_name) };
}

/** Probes a VOD through the Twitch endpoints configured for this deployment. Throws TwitchUnavailableError. */
export async function lookupVod(env: Pick<Env, "TWITCH_GQL_URL" | "TWITCH_USHER_URL">, vodId: string): Promise<VodProbe> {
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  try {
    return cleaned(
      await probeVod({ gqlUrl: workerConfig(env).twitchGqlUrl, usherUrl: workerConfig(env).twitchUsherUrl, signal }, vodId),
    );
  } catch (error) {
    if (signal.aborted && !(error instanceof TwitchUnavailableError)) {
      throw new TwitchUnavailableError(`Twitch did not answer within ${PROBE_TIMEOUT_MS / 1000} s`, { cause: error });
    }
    throw error;
  }
}
