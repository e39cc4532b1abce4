import { app } from "./app";
import { handleScheduled } from "./cron/scheduled";
import type { Env } from "./env";
import { handleQueue } from "./queue/consumer";

export { JobState } from "./orchestration/job-state";
export { RateLimiter } from "./durable/rate-limiter";
export { RenderContainer } from "./durable/render-container";
export { RecutContainer } from "./durable/recut-container";

export default {
  fetch: app.fetch,
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
