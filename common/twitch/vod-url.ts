const VOD_URL = /^https?:\/\/(?:www\.|m\.)?twitch\.tv\/videos\/(\d+)\/?(?:[?#].*)?$/i;

/**
 * Twitch's video ids are 64-bit integers: at most 19 digits. Longer ones are no VOD: refused here, not sent to
 * Twitch to find out.
 */
const MAX_ID_DIGITS = 19;

/**
 * Accepts only the platform's VOD page URLs; clips, channels and other hosts are not VODs. The id is kept as text
 * (ids beyond 2^53 lose nothing) without leading zeros: `/videos/00123` is video 123, and one VOD has one
 * canonical URL (re-cuts and Idempotency-Key replays compare it).
 */
export function parseVodUrl(input: string): { vod_id: string; canonical_url: string } | null {
  const match = VOD_URL.exec(input.trim());
  if (!match) return null;
  const vod_id = match[1]!.replace(/^0+(?=\d)/, "");
  if (vod_id.length > MAX_ID_DIGITS) return null;
  return { vod_id, canonical_url: `https://www.twitch.tv/videos/${vod_id}` };
}
