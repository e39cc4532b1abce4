import path from "node:path";
import { parseArgs } from "node:util";
import { generateSyntheticVod } from "./generate";
import { synthCacheRoot } from "./cache-dir";

// Builds a synthetic VOD folder for the local Twitch server, e.g. for the benchmark or manual runs.
const { values } = parseArgs({
  options: {
    root: { type: "string", default: path.join(synthCacheRoot(), "vods") },
    "vod-id": { type: "string", default: "900000001" },
    duration: { type: "string", default: "600" },
    seed: { type: "string", default: "1" },
    width: { type: "string" },
    height: { type: "string" },
    fps: { type: "string" },
    facecam: { type: "string" },
    muted: { type: "string" },
  },
});
const started = Date.now();
const { dir, truth } = await generateSyntheticVod({
  root: values.root!,
  vodId: values["vod-id"]!,
  durationSeconds: Number(values.duration),
  seed: Number(values.seed),
  width: values.width ? Number(values.width) : undefined,
  height: values.height ? Number(values.height) : undefined,
  fps: values.fps ? Number(values.fps) : undefined,
  facecamCorner: values.facecam === "bottom-right" || values.facecam === "top-left" || values.facecam === "none" ? values.facecam : undefined,
  mutedSegments: values.muted ? values.muted.split(",").map(Number) : undefined,
  log: (line) => console.error(line),
});
const bytes = (list: { bytes: number }[]) => list.reduce((s, x) => s + x.bytes, 0);
console.log(
  JSON.stringify(
    {
      dir,
      seconds_taken: (Date.now() - started) / 1000,
      duration_seconds: truth.duration_seconds,
      moments: truth.moments.map((m) => `${m.kind}@${m.peak}`),
      sentences: truth.sentences.length,
      chat_messages: truth.chat.total_messages,
      chunked_bytes: bytes(truth.renditions.chunked),
      audio_only_bytes: bytes(truth.renditions.audio_only),
    },
    null,
    2,
  ),
);
