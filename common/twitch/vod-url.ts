const VOD_URL = /^https?:\/\/(?:www\.|m\.)?twitch\.tv\/videos\/(\d+)\/?(?:[?#].*)?$/i;

/** Accepts only the platform's VOD page URLs; clips, channels and other hosts are not VODs. */
export function parseVodUrl(input: string): { vod_id: string; canonical_url: string } | null {
  const match = VOD_URL.exec(input.trim());
  if (!match) return null;
  const vod_id = match[1]!;
  return { vod_id, canonical_url: `https://www.twitch.tv/videos/${vod_id}` };
}
