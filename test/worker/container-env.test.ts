import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/src/env";
import { containerEnv } from "../../worker/src/durable/render-container";
import { recutContainerEnv } from "../../worker/src/durable/recut-container";

/**
 * What a renderer container's environment holds (issue 23, point 6): the container parses media from the internet,
 * so it gets the renderer's own settings and nothing of the Worker's secrets. (The Container class itself needs a
 * container runtime to be constructed; its constructor sets exactly this as envVars.)
 */
describe("a renderer container's environment", () => {
  const WORKER_ONLY = {
    LINK_SIGNING_KEY: "link-key-7d1f",
    LINK_SIGNING_KEY_PREVIOUS: "link-key-previous-2b9e",
    ADMIN_TOKEN: "admin-token-41c0",
    R2_ACCOUNT_ID: "r2-account-88aa",
    R2_ACCESS_KEY_ID: "AKID-c3f1",
    R2_SECRET_ACCESS_KEY: "r2-secret-5e6d",
  };
  const RENDERER = { RENDERER_TOKEN: "renderer-token-0a0a", TRANSCRIBE_API_URL: "https://stt.example/v1", TRANSCRIBE_API_KEY: "stt-key", METADATA_API_URL: "https://llm.example/v1", METADATA_API_KEY: "llm-key" };

  it("holds the renderer's settings and none of the Worker's secrets, by name or by value", () => {
    const vars = containerEnv({ ...env, ...WORKER_ONLY, ...RENDERER } as Env);
    expect(vars).toMatchObject({ HOST: "0.0.0.0", MAX_TASKS: "1", ...RENDERER });
    for (const [name, value] of Object.entries(WORKER_ONLY)) {
      expect(vars, name).not.toHaveProperty(name);
      expect(Object.values(vars), name).not.toContain(value);
    }
  });

  it("leaves out settings that are not set", () => {
    expect(containerEnv({ ...env, TRANSCRIBE_API_KEY: "" } as Env)).not.toHaveProperty("TRANSCRIBE_API_KEY");
  });

  it("a re-cut instance's is the same, and hears a short nothing heard before in halves (its 4 vCPU)", () => {
    const worker = { ...env, ...WORKER_ONLY, ...RENDERER } as Env;
    expect(recutContainerEnv(worker)).toEqual({ ...containerEnv(worker), RECUT_HEAR_IN_HALVES: "1" });
    expect(containerEnv(worker)).not.toHaveProperty("RECUT_HEAR_IN_HALVES");
  });
});
