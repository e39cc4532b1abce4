import { TwitchUnavailableError } from "./errors";
import { gqlRequest, gqlString, type GqlOptions } from "./gql";

export interface PlaybackToken {
  /** A JSON document, signed as-is; usher wants it back verbatim. */
  value: string;
  signature: string;
}

export function playbackTokenQuery(vodId: string): string {
  return `{videoPlaybackAccessToken(id:${gqlString(vodId)},params:{platform:"web",playerBackend:"mediaplayer",playerType:"site"}){value signature}}`;
}

/** null = no token, which Twitch does for deleted or expired videos. */
export async function getPlaybackToken(opts: GqlOptions, vodId: string): Promise<PlaybackToken | null> {
  const [result] = await gqlRequest(opts, [{ query: playbackTokenQuery(vodId) }]);
  const data = result!.data as { videoPlaybackAccessToken?: unknown } | null;
  if (!data || !("videoPlaybackAccessToken" in data)) {
    const reason = result!.errors.map((e) => e.message).join("; ") || "no token field";
    throw new TwitchUnavailableError(`Twitch GQL gave no playback token for ${vodId}: ${reason}`);
  }
  const token = data.videoPlaybackAccessToken as { value?: unknown; signature?: unknown } | null;
  if (token === null) {
    if (result!.errors.length > 0) {
      throw new TwitchUnavailableError(`Twitch GQL failed to issue a playback token: ${result!.errors[0]!.message}`);
    }
    return null;
  }
  if (typeof token.value !== "string" || typeof token.signature !== "string") {
    throw new TwitchUnavailableError("Twitch GQL returned a playback token without value/signature");
  }
  return { value: token.value, signature: token.signature };
}

export interface TokenAccess {
  forbidden: boolean;
  restrictedBitrates: string[];
}

/** Reads the access flags out of the token's JSON value; a value we cannot parse grants nothing special. */
export function readTokenAccess(value: string): TokenAccess {
  try {
    const doc = JSON.parse(value) as {
      authorization?: { forbidden?: unknown };
      chansub?: { restricted_bitrates?: unknown };
    };
    const restricted = doc.chansub?.restricted_bitrates;
    return {
      forbidden: doc.authorization?.forbidden === true,
      restrictedBitrates: Array.isArray(restricted) ? restricted.filter((r): r is string => typeof r === "string") : [],
    };
  } catch {
    return { forbidden: false, restrictedBitrates: [] };
  }
}
