/**
 * What a pasted Twitch link is. Users copy VOD links from many places: the address bar (`/videos/<id>`), the
 * mobile site (`m.twitch.tv`), old links and bookmarks (`/<channel>/v/<id>`, `/<channel>/video/<id>`,
 * `/video/<id>`, which Twitch still redirects to `/videos/<id>`), an embed's player (`player.twitch.tv/?video=v<id>`),
 * or the address without its scheme. All of them name one VOD and are accepted; the job keeps the canonical
 * `https://www.twitch.tv/videos/<id>` (re-cuts and Idempotency-Key replays compare it).
 *
 * Everything else that is recognisably Twitch (a clip, a channel page, the live player, a collection) is refused
 * with a sentence naming what it is, since "not a VOD URL" alone leaves a user who pasted a clip guessing.
 */

/** A Twitch link that names one VOD. */
export interface VodTarget {
  vod_id: string;
  canonical_url: string;
}

export type TwitchUrlKind =
  | { kind: "vod"; vod_id: string; canonical_url: string }
  | { kind: "clip" | "channel" | "channel_videos" | "live_player" | "collection" | "other_twitch" | "id_too_long" | "not_twitch" | "not_url" };

/**
 * Twitch's video ids are 64-bit integers: at most 19 digits. Longer ones are no VOD: refused here, not sent to
 * Twitch to find out.
 */
const MAX_ID_DIGITS = 19;

/** Hosts that serve VOD pages. `player.twitch.tv` (embeds) and `clips.twitch.tv` are handled on their own. */
const PAGE_HOSTS = new Set(["twitch.tv", "www.twitch.tv", "m.twitch.tv"]);

/** A Twitch login: 1-25 letters, digits or underscores (the channel part of `/<channel>/v/<id>`). */
const LOGIN = /^[a-z0-9_]{1,25}$/i;
const DIGITS = /^\d+$/;

/** Top-level paths of twitch.tv that are not channels (`/directory`, `/settings`, ...): "another Twitch page". */
const NOT_CHANNELS = new Set([
  "directory", "downloads", "settings", "subscriptions", "inventory", "wallet", "drops", "search", "p", "jobs",
  "turbo", "prime", "store", "friends", "messages", "payments", "following", "videos", "video", "collections",
]);

/** The link as a URL; a twitch.tv address pasted without its scheme (`twitch.tv/videos/1`) gets `https://`. */
function toUrl(input: string): URL | null {
  const text = input.trim();
  if (text === "") return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : /^(?:[a-z0-9-]+\.)*twitch\.tv(?:[/?#:]|$)/i.test(text) ? `https://${text}` : null;
  if (withScheme === null) return null;
  try {
    return new URL(withScheme);
  } catch {
    return null;
  }
}

function vod(digits: string): TwitchUrlKind {
  // Without leading zeros: `/videos/00123` is video 123, and one VOD has one canonical URL.
  const vod_id = digits.replace(/^0+(?=\d)/, "");
  if (vod_id.length > MAX_ID_DIGITS) return { kind: "id_too_long" };
  return { kind: "vod", vod_id, canonical_url: `https://www.twitch.tv/videos/${vod_id}` };
}

/** What a pasted link is; only `kind: "vod"` is a VOD. */
export function classifyTwitchUrl(input: string): TwitchUrlKind {
  const url = toUrl(input);
  if (url === null) return { kind: "not_url" };
  if (url.protocol !== "https:" && url.protocol !== "http:") return { kind: "not_url" };
  const host = url.hostname.toLowerCase();
  const isTwitch = host === "twitch.tv" || host.endsWith(".twitch.tv");
  if (!isTwitch) return { kind: "not_twitch" };
  // A user name, password or port is no link anyone copies from Twitch; refusing them keeps one reading of the URL.
  if (url.username !== "" || url.password !== "" || url.port !== "") return { kind: "other_twitch" };

  const segments = url.pathname.split("/").filter((s) => s !== "");
  const lower = segments.map((s) => s.toLowerCase());

  if (host === "clips.twitch.tv") return { kind: "clip" };
  // The player of an embed, and the "everything" embed (player and chat), both take ?video= or ?channel=.
  if (host === "player.twitch.tv" || host === "embed.twitch.tv") {
    const video = url.searchParams.get("video");
    if (video !== null) {
      const digits = video.replace(/^v/i, "");
      return DIGITS.test(digits) ? vod(digits) : { kind: "other_twitch" };
    }
    if (url.searchParams.has("clip")) return { kind: "clip" };
    if (url.searchParams.has("channel")) return { kind: "live_player" };
    if (url.searchParams.has("collection")) return { kind: "collection" };
    return { kind: "other_twitch" };
  }
  if (!PAGE_HOSTS.has(host)) return { kind: "other_twitch" };

  // /videos/<id>, /video/<id>
  if (segments.length === 2 && (lower[0] === "videos" || lower[0] === "video")) {
    return DIGITS.test(segments[1]!) ? vod(segments[1]!) : { kind: "other_twitch" };
  }
  if (lower[0] === "collections") return { kind: "collection" };
  if (segments.length >= 1 && LOGIN.test(segments[0]!) && !NOT_CHANNELS.has(lower[0]!)) {
    // /<channel>/v/<id>, /<channel>/video/<id>: the old forms, which Twitch redirects to /videos/<id>;
    // /<channel>/videos/<id> names one video as plainly (not to be read as the channel's list of videos).
    if (segments.length === 3 && (lower[1] === "v" || lower[1] === "video" || lower[1] === "videos")) {
      return DIGITS.test(segments[2]!) ? vod(segments[2]!) : { kind: "other_twitch" };
    }
    if (lower[1] === "clip") return { kind: "clip" };
    if (lower[1] === "videos" || lower[1] === "clips") return { kind: "channel_videos" };
    // The channel itself, or one of its pages (about, schedule): what plays there is the live broadcast.
    if (segments.length <= 2) return { kind: "channel" };
  }
  return { kind: "other_twitch" };
}

/** The VOD a link names, or null when it names none (classifyTwitchUrl says what it is instead). */
export function parseVodUrl(input: string): VodTarget | null {
  const found = classifyTwitchUrl(input);
  return found.kind === "vod" ? { vod_id: found.vod_id, canonical_url: found.canonical_url } : null;
}

const EXAMPLE = "https://www.twitch.tv/videos/123456789";

/** Why a link is not a VOD, as the rest of a sentence after the field name ("vod_url is a Twitch clip URL, ..."). */
export function notAVodMessage(kind: Exclude<TwitchUrlKind["kind"], "vod">): string {
  switch (kind) {
    case "clip":
      return `is a Twitch clip URL, not a VOD; send the URL of the VOD the clip was cut from, such as ${EXAMPLE}`;
    case "channel":
      return `is a Twitch channel URL (its live broadcast), not a VOD; send one of its past broadcasts, such as ${EXAMPLE}`;
    case "channel_videos":
      return `is a Twitch channel's list of videos or clips, not one VOD; open a past broadcast and send its URL, such as ${EXAMPLE}`;
    case "live_player":
      return `is a Twitch player URL of a live channel, not a VOD; send a past broadcast, such as ${EXAMPLE}`;
    case "collection":
      return `is a Twitch collection, not one VOD; send one of its videos, such as ${EXAMPLE}`;
    case "id_too_long":
      return "has a video id of more than 19 digits; Twitch video ids are at most 19 digits";
    case "other_twitch":
      return `is a Twitch URL but not a VOD URL such as ${EXAMPLE}`;
    case "not_twitch":
      return `is not a Twitch URL; only Twitch VODs are accepted, such as ${EXAMPLE}`;
    case "not_url":
      return `must be a Twitch VOD URL such as ${EXAMPLE}`;
  }
}
