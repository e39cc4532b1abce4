import type { EditTimeline } from "./edit-timeline";
import { timecode } from "./frames";

/**
 * A reel's edit timeline as a CMX 3600 EDL (.edl), the plainest format every NLE imports. One event per piece: a
 * cut (C) of video and both audio channels (AA/V) from the source VOD (reel name AX, an auxiliary source: the
 * format's eight characters cannot hold a Twitch VOD id, so `* FROM CLIP` names the VOD's URL, as Avid and
 * Premiere write it), source timecodes on the VOD's clock, record timecodes from 00:00:00:00 (the position in the
 * reel file itself, so a record timecode points at the same frame in reel-<profile>.mp4), non-drop-frame at the
 * timeline's integer rate. Source and record lengths are equal (no speed change), and the record side ends at the
 * reel's length. Event numbers have three digits: past 999 they start again at 001, as tape EDLs do.
 */

/** Typographic punctuation and its plain ASCII stand-in. */
const ASCII_PUNCTUATION: [RegExp, string][] = [
  [/[\u2018\u2019\u201a\u2032]/g, "'"],
  [/[\u201c\u201d\u201e\u2033\u00ab\u00bb]/g, '"'],
  [/[\u2010-\u2015\u2212]/g, "-"],
  [/\u2026/g, "..."],
];

/**
 * Comment text on one line, in the printable ASCII every EDL reader takes: accents dropped (é -> e), typographic
 * quotes and dashes made plain, any other character `?`.
 */
export function commentText(s: string): string {
  let out = s.normalize("NFKD").replace(/\p{M}/gu, "");
  for (const [from, to] of ASCII_PUNCTUATION) out = out.replace(from, to);
  return out.replace(/\s+/g, " ").replace(/[^\x20-\x7e]/g, "?").trim();
}

const pad = (s: string, n: number) => s.padEnd(n, " ");

export function formatEdl(t: EditTimeline): string {
  const lines = [`TITLE: ${commentText(t.title).slice(0, 70)}`, "FCM: NON-DROP FRAME", ""];
  t.events.forEach((e, i) => {
    const tc = [e.source_in, e.source_in + e.frames, e.record_in, e.record_in + e.frames].map((f) => timecode(f, t.rate));
    lines.push(`${String((i % 999) + 1).padStart(3, "0")}  ${pad("AX", 8)} ${pad("AA/V", 5)} ${pad("C", 8)} ${tc.join(" ")}`);
    lines.push(`* FROM CLIP NAME: ${commentText(e.name)}`);
    if (t.source.url) lines.push(`* FROM CLIP: ${commentText(t.source.url)}`);
    lines.push(`* ${e.kind === "teaser" ? "TEASER" : "MOMENT"} ${e.moment_id}: VOD ${e.vod_start.toFixed(3)}-${e.vod_end.toFixed(3)} S`);
    lines.push("");
  });
  return lines.join("\n");
}
