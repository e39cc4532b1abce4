import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../../worker/src/env";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** Webhook receiver of dispatch-fixtures.node.ts. */
      TEST_HOOKS_URL: string;
    }
    interface GlobalProps {
      mainModule: typeof import("../../worker/src/index");
      durableNamespaces: "JobState" | "RateLimiter";
    }
  }
}
