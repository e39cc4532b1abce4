/**
 * A wrong option or value on the evaluation's command line: the CLI prints its one sentence and exits 1, without
 * the stack trace a fault inside the evaluation gets.
 */
export class UsageError extends Error {}

/** A usage error: ours, or one node:util's parseArgs throws for an unknown option or a missing value. */
export function isUsageError(error: unknown): error is Error {
  return error instanceof UsageError || (error instanceof Error && String((error as { code?: unknown }).code ?? "").startsWith("ERR_PARSE_ARGS"));
}
