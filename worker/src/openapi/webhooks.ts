import type { JsonSchema } from "./json-schema";
export function webhookPathItems(): Record<string, JsonSchema> { return {}; }
export function webhookComponentSchemas(): Record<string, JsonSchema> { return {}; }
