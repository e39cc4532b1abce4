import { Container } from "@cloudflare/containers";

/**
 * One renderer container instance per job in production (Cloudflare Containers). The class is a Durable
 * Object; `max_instances` in wrangler.toml bounds how many render at once. Locally and in tests the renderer
 * runs as a plain process reached at RENDER_URL instead, because containers need Docker.
 */
export class RenderContainer extends Container {
  defaultPort = 8080;
  // A job reports progress at least every few seconds; an idle container is a finished one.
  sleepAfter = "5m";
}
