import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { VideoFile } from "../../../dev/twitch-server";

/** Metadata-only VOD folders for every probe outcome; only the media playlists needed for a duration fallback. */
export const VODS = {
  ok: "1001",
  zeroLength: "1002",
  deletedFlag: "1003",
  missing: "1004",
  live: "1005",
  private: "1006",
  subscriberOnly: "1007",
  restrictedAll: "1008",
  restrictedSome: "1009",
} as const;

const RENDITIONS: VideoFile["renditions"] = [
  { group_id: "chunked", name: "720p30 (source)", bandwidth: 3_000_000, codecs: "avc1.64001F,mp4a.40.2", resolution: "1280x720", frame_rate: 30 },
  { group_id: "360p30", name: "360p30", bandwidth: 700_000, codecs: "avc1.4D401E,mp4a.40.2", resolution: "640x360", frame_rate: 30 },
  { group_id: "audio_only", name: "Audio Only", bandwidth: 160_000, codecs: "mp4a.40.2" },
];

function video(id: string, extra: Partial<VideoFile> = {}): VideoFile {
  return {
    id,
    title: `Test stream ${id}`,
    lengthSeconds: 24,
    createdAt: "2026-01-02T03:04:05Z",
    status: "RECORDED",
    broadcastType: "ARCHIVE",
    description: "a description",
    viewCount: 321,
    language: "en",
    owner: { id: "77", login: "teststreamer", displayName: "TestStreamer" },
    game: { id: "509658", name: "Just Chatting", displayName: "Just Chatting" },
    renditions: RENDITIONS,
    ...extra,
  };
}

const PLAYLIST = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.000,\n0.ts\n#EXTINF:10.000,\n1.ts\n#EXTINF:4.500,\n2.ts\n#EXT-X-ENDLIST\n";

export async function writeMetadataVods(root: string): Promise<void> {
  const all: Record<string, VideoFile> = {
    [VODS.ok]: video(VODS.ok),
    [VODS.zeroLength]: video(VODS.zeroLength, { lengthSeconds: 0 }),
    [VODS.deletedFlag]: video(VODS.deletedFlag, { access: { deleted: true } }),
    [VODS.live]: video(VODS.live, { status: "RECORDING" }),
    [VODS.private]: video(VODS.private, { access: { private: true } }),
    [VODS.subscriberOnly]: video(VODS.subscriberOnly, { access: { subscriber_only: true } }),
    [VODS.restrictedAll]: video(VODS.restrictedAll, { access: { restricted_bitrates: ["chunked", "360p30"] } }),
    [VODS.restrictedSome]: video(VODS.restrictedSome, { access: { restricted_bitrates: ["chunked"] } }),
  };
  for (const [id, v] of Object.entries(all)) {
    await mkdir(path.join(root, id), { recursive: true });
    await writeFile(path.join(root, id, "video.json"), JSON.stringify(v, null, 2));
    for (const r of RENDITIONS!) {
      await mkdir(path.join(root, id, r.group_id), { recursive: true });
      await writeFile(path.join(root, id, r.group_id, "index-dvr.m3u8"), PLAYLIST);
    }
  }
}
