import type { Env } from "./env";
import type { AccountRow } from "./storage/schema";

/** Per-request values set by middleware. */
export interface AppVariables {
  requestId: string;
  /** The account of the X-API-Key (set by apiKeyAuth). */
  account: AccountRow;
  apiKeyId: string;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
