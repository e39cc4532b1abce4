import { Container } from "@cloudflare/containers";
import type { Env } from "../env";

/** Renderer settings forwarded from the Worker's vars/secrets into the container's environment. */
const FORWARDED_ENV = [
  "RENDERER_TOKEN",
  "TRANSCRIBE_API_URL",
  "TRANSCRIBE_API_KEY",
  "TRANSCRIBE_MODEL",
  "METADATA_API_URL",
  "METADATA_API_KEY",
  "METADATA_MODEL",
  "DOWNLOAD_CONCURRENCY",
  "ENCODE_CONCURRENCY",
] as const;

/**
 * One renderer container instance per job in production (Cloudflare Containers). The class is a Durable
 * Object; `max_instances` in wrangler.toml bounds how many render at once. Locally and in tests the renderer
 * runs as a plain process reached at RENDER_URL instead, because containers need Docker.
 */
export class RenderContainer extends Container<Env> {
  defaultPort = 8080;
  // A job reports progress at least every few seconds; an idle container is a finished one.
  sleepAfter = "10m";
  pingEndpoint = "container/health";

  constructor(ctx: DurableObjectState<{}>, env: Env) {
    super(ctx, env);
    const vars: Record<string, string> = {};
    for (const name of FORWARDED_ENV) {
      const value = (env as unknown as Record<string, unknown>)[name];
      if (typeof value === "string" && value) vars[name] = value;
    }
    this.envVars = vars;
  }
}
