import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { FetchLike } from "../../../common/twitch/gql";
import { runProcess } from "../ffmpeg/process";
import { FFMPEG_BIN } from "../ffmpeg/run-ffmpeg";

/** Twitch's emote CDN; the local Twitch server serves the same paths (TWITCH_EMOTE_URL points the renderer at it). */
export const TWITCH_EMOTE_CDN = "https://static-cdn.jtvnw.net/emoticons/v2";
/** Distinct emote images one clip may draw (each is one FFmpeg input); other emotes are drawn as their name. */
export const MAX_EMOTE_IMAGES = 8;
/** How long one emote download may take before its name is drawn instead. */
export const EMOTE_FETCH_TIMEOUT_MS = 3000;
/** Larger answers are not emotes (Twitch's 2.0 images are 56x56, a few KB). */
const MAX_EMOTE_BYTES = 512 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type { FetchLike };

/** The 2.0 (56x56) dark-theme still image of an emote (`static`: a PNG even for animated emotes), drawn at about 50 px on a 1080-wide short. */
export function emoteUrl(base: string, id: string): string {
  return `${base.replace(/\/+$/, "")}/${encodeURIComponent(id)}/static/dark/2.0`;
}

/**
 * Downloads emote images into `dir`, at most MAX_EMOTE_IMAGES, most used first, each with a short timeout.
 * Emotes are an extra: a failure (timeout, 404, not a PNG) leaves that emote as text and never fails the
 * render. Returns id -> file for the ones that arrived.
 */
export async function fetchEmotes(ids: readonly string[], o: { base: string; dir: string; fetch?: FetchLike; signal?: AbortSignal; warn?: (m: string) => void }): Promise<Map<string, string>> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const wanted = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, MAX_EMOTE_IMAGES).map(([id]) => id);
  const doFetch = o.fetch ?? fetch;
  const files = new Map<string, string>();
  await Promise.all(
    wanted.map(async (id, n) => {
      const timeout = AbortSignal.timeout(EMOTE_FETCH_TIMEOUT_MS);
      const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
      try {
        const res = await doFetch(emoteUrl(o.base, id), { signal });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const body = Buffer.from(await res.arrayBuffer());
        if (body.length > MAX_EMOTE_BYTES || !body.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error("not a PNG emote");
        const file = path.join(o.dir, `emote-${n}.png`);
        await writeFile(file, body);
        // Decoded once here: a damaged image would otherwise fail the whole encode that overlays it.
        await runProcess(FFMPEG_BIN, ["-hide_banner", "-nostdin", "-v", "error", "-xerror", "-i", file, "-frames:v", "1", "-f", "null", "-"], { signal: o.signal }).catch(() => {
          throw new Error("the image does not decode");
        });
        files.set(id, file);
      } catch (error) {
        if (o.signal?.aborted) throw error;
        o.warn?.(`emote ${id}: ${(error as Error).message}; drawn as its name`);
      }
    }),
  );
  return files;
}
