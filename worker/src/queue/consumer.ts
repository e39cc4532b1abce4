import type { Env } from "../env";

/** Placeholder until dispatch lands (issue 4): messages are retried, never dropped. */
export async function handleQueue(batch: MessageBatch<unknown>, _env: Env, _ctx: ExecutionContext): Promise<void> {
  for (const message of batch.messages) message.retry({ delaySeconds: 30 });
}
