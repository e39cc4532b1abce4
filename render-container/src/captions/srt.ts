import type { Cue } from "./types";

/** `HH:MM:SS,mmm` as SubRip writes it. */
export function formatSrtTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const r = ms % 1000;
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)},${pad(r, 3)}`;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/**
 * A SubRip document: numbered cues, CRLF-free, blank line between cues. Blank lines inside a cue's text
 * would end the cue early for every parser, so they are collapsed.
 */
export function formatSrt(cues: readonly Cue[]): string {
  return cues
    .map((c, i) => {
      const text = c.text.replace(/\r\n?/g, "\n").replace(/\n\s*\n+/g, "\n").trim();
      return `${i + 1}\n${formatSrtTime(c.start)} --> ${formatSrtTime(c.end)}\n${text}\n`;
    })
    .join("\n");
}

const TIME_LINE = /^\s*(\d+):(\d{1,2}):(\d{1,2})[,.](\d{1,3})\s*-->\s*(\d+):(\d{1,2}):(\d{1,2})[,.](\d{1,3})/;

function toSeconds(h: string, m: string, s: string, frac: string): number {
  return Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(frac.padEnd(3, "0")) / 1000;
}

/**
 * Parses SubRip leniently (BOM, CRLF, `.` as decimal mark, missing index lines), the way players do.
 * Blocks without a valid time line are skipped.
 */
export function parseSrt(text: string): Cue[] {
  const blocks = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split(/\n\s*\n/);
  const cues: Cue[] = [];
  for (const block of blocks) {
    const lines = block.split("\n").filter((l, i, all) => i > 0 || l.trim() !== "" || all.length === 1);
    const idx = lines.findIndex((l) => TIME_LINE.test(l));
    if (idx < 0) continue;
    const m = TIME_LINE.exec(lines[idx]!)!;
    const body = lines.slice(idx + 1).join("\n").trim();
    cues.push({
      start: toSeconds(m[1]!, m[2]!, m[3]!, m[4]!),
      end: toSeconds(m[5]!, m[6]!, m[7]!, m[8]!),
      text: body,
    });
  }
  return cues;
}
