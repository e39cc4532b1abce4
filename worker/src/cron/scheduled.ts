import type { Env } from "../env";

export async function handleScheduled(_controller: ScheduledController, _env: Env, _ctx: ExecutionContext): Promise<void> {
  // Retention sweep lands with issue 4.
}
