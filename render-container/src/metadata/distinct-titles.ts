import { limitText } from "./text-limits";
import { LIMITS, type MetadataInput, type MetadataOutput } from "./types";

/** VOD time as h:mm:ss (or m:ss), the way Twitch shows it. */
export function vodClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

/** The stretch of the VOD a moment id stands for, as a key: moments of the same stretch are one moment to a reader. */
function stretchOf(input: MetadataInput): (id: string) => string {
  const momentById = new Map(input.moments.map((m) => [m.id, m]));
  return (id) => {
    const m = momentById.get(id);
    return m ? `${m.start.toFixed(1)}-${m.end.toFixed(1)}` : id;
  };
}

/**
 * metadata.json's `moments`: one entry per stretch of the VOD. The same stretch can stand behind several moment
 * ids (a short cut from a reel moment, two profiles choosing the same moment); they share a title and story, and
 * listing each would show a reader the same moment twice, word for word. The first id (a reel's) is kept.
 */
export function momentsOnce(input: MetadataInput, moments: MetadataOutput["moments"]): MetadataOutput["moments"] {
  const rangeKey = stretchOf(input);
  const seen = new Set<string>();
  return moments.filter((m) => {
    const key = rangeKey(m.id);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Whatever wrote them (LLM or local), two different moments of one job never share a title, and neither do two
 * shorts: a repeated title gets the moment's time in the VOD (" @ 1:02:05"). The same range picked by two
 * profiles keeps one title.
 */
export function distinctTitles(input: MetadataInput, out: MetadataOutput): MetadataOutput {
  const momentById = new Map(input.moments.map((m) => [m.id, m]));
  const rangeKey = stretchOf(input);
  /** The title with a suffix that makes it unused: the VOD time, then a counter (moments in the same second). */
  const unused = (title: string, id: string, taken: (t: string) => boolean): string => {
    const at = vodClock(momentById.get(id)?.start ?? 0);
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? ` @ ${at}` : ` @ ${at} (${n})`;
      const candidate = `${limitText(title, LIMITS.title - [...suffix].length)}${suffix}`;
      if (!taken(candidate)) return candidate;
    }
  };

  const titleOfRange = new Map<string, string>();
  const rangeOfTitle = new Map<string, string>();
  const moments = out.moments.map((m) => {
    const range = rangeKey(m.id);
    let title = titleOfRange.get(range);
    if (title === undefined) {
      const owner = rangeOfTitle.get(m.title);
      title = owner === undefined ? m.title : unused(m.title, m.id, (t) => rangeOfTitle.has(t));
      titleOfRange.set(range, title);
      rangeOfTitle.set(title, range);
    }
    return { ...m, title };
  });

  const original = new Map(out.moments.map((m) => [m.id, m.title]));
  const settled = new Map(moments.map((m) => [m.id, m.title]));
  const momentOfShort = new Map(input.shorts.map((s) => [s.index, s.moment_id]));
  const seen = new Set<string>();
  const shorts = out.shorts.map((s) => {
    const id = momentOfShort.get(s.index) ?? "";
    // A short titled like its moment follows the moment's settled title.
    let title = original.get(id) === s.title ? settled.get(id)! : s.title;
    if (seen.has(title)) title = unused(title, id, (t) => seen.has(t));
    seen.add(title);
    return { ...s, title };
  });
  return { ...out, moments, shorts };
}
