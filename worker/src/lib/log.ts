/**
 * Structured logs: one JSON object per line (Workers Logs and `wrangler tail` index the fields), always with
 * the request id and, where there is one, the job id.
 */
export type LogLevel = "info" | "warn" | "error";

export function logEvent(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ ts: new Date().toISOString(), level, service: "worker", msg, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** The job a request is about, from paths like /jobs/{id}/..., /files/{id}/... or /internal/jobs/{id}/... */
export function jobIdOfPath(path: string): string | undefined {
  return /\/(?:jobs|files)\/(job_[0-9A-Za-z]+)/.exec(path)?.[1];
}
