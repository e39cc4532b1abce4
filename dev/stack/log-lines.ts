import { readFile } from "node:fs/promises";

/** One JSON log line of a local-stack process (the Worker under wrangler dev, a renderer). */
export type LogLine = Record<string, unknown> & { msg?: string };

/**
 * The JSON lines of a log file, for the e2e tests and the chaos run; wrangler may put text before a Worker's JSON,
 * so each line is read from its first "{". A missing file is an empty log.
 */
export async function jsonLines(file: string): Promise<LogLine[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text.split("\n").flatMap((l) => {
    const at = l.indexOf("{");
    if (at < 0) return [];
    try {
      return [JSON.parse(l.slice(at)) as LogLine];
    } catch {
      return [];
    }
  });
}
