/** Structured JSON logs, one object per line, so container logs can be filtered by job_id. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export function createLogger(base: LogFields = {}, write: (line: string) => void = (l) => process.stdout.write(l + "\n")): Logger {
  const emit = (level: string, msg: string, fields?: LogFields) =>
    write(JSON.stringify({ ts: new Date().toISOString(), level, service: "renderer", msg, ...base, ...fields }));
  return {
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (fields) => createLogger({ ...base, ...fields }, write),
  };
}

export const silentLogger: Logger = createLogger({}, () => {});
