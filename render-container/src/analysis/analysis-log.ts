/**
 * Reads silencedetect's marks from the analysis pass's log (stderr at level info), where each line carries its
 * filter's prefix (`[silencedetect @ 0x55d1] silence_start: 29.02`). Every other line (stream banners,
 * ebur128's summary, the final size line) is ignored.
 */
export interface SilenceLogHandlers {
  onSilenceStart(time: number): void;
  onSilenceEnd(end: number, durationSeconds: number): void;
}

const FILTER_PREFIX = /^\[([^\]\s]+) @ (?:0x)?[0-9a-f]+\] ?(.*)$/i;
const NUMBER = String.raw`(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)`;
const SILENCE_START = new RegExp(`^silence_start: ${NUMBER}`);
const SILENCE_END = new RegExp(`^silence_end: ${NUMBER} \\| silence_duration: ${NUMBER}`);

export function createSilenceLogReader(h: SilenceLogHandlers): (line: string) => void {
  return (line) => {
    const m = FILTER_PREFIX.exec(line);
    if (!m || !m[1]!.includes("silencedetect")) return;
    const start = SILENCE_START.exec(m[2]!);
    if (start) return h.onSilenceStart(Math.max(0, Number.parseFloat(start[1]!)));
    const end = SILENCE_END.exec(m[2]!);
    if (end) h.onSilenceEnd(Number.parseFloat(end[1]!), Number.parseFloat(end[2]!));
  };
}
