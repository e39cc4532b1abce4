import os from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Two kinds of tests: the Worker runs inside workerd with real (Miniflare) bindings;
// the renderer, the Twitch protocol code and the dev tooling run in plain Node with real FFmpeg.
export default defineConfig({
  test: {
    // Vitest's default in a run is one worker fewer than the cores: on CI's 2 cores that is one, and every file ran
    // after the other although most wait on child processes (FFmpeg, the recogniser, a renderer, workerd) much of
    // their time. Two at least; the generated media they share is built once however many ask (dev/synth-vod).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Logs of passing tests are noise (every request writes a JSON access-log line); failures keep theirs.
    silent: "passed-only",
    projects: [
      {
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            // wrangler.toml's [ai] binding would start a remote proxy session, which needs a Cloudflare login. Without
            // it env.AI exists but every call fails ("needs to be run remotely"): the AI route tests hand the app a
            // stand-in binding instead (test/worker/workers-ai-standin.ts).
            remoteBindings: false,
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, "migrations")),
                ADMIN_TOKEN: "test-admin-token",
                LINK_SIGNING_KEY: "test-link-signing-key",
                // The local Twitch-compatible server started by the global setup.
                TWITCH_GQL_URL: inject("twitchGqlUrl"),
                TWITCH_USHER_URL: inject("twitchUsherUrl"),
                // Renderer double and webhook receiver of dispatch-fixtures.node.ts; short webhook backoff.
                PUBLIC_BASE_URL: "https://api.test",
                RENDER_URL: inject("rendererUrl"),
                RENDERER_TOKEN: "test-renderer-token",
                WEBHOOK_RETRY_BASE_SECONDS: "0.1",
                // Multipart uploads through the Worker in parts of R2's smallest size (5 MiB) instead of 64 MiB.
                UPLOAD_PART_BYTES: String(5 * 1024 * 1024),
                // The webhook receiver listens on 127.0.0.1; deployments never set this (see docs/PRICING-AND-RULES.md, "What is refused").
                WEBHOOK_ALLOW_LOOPBACK: "true",
                TEST_HOOKS_URL: inject("hooksUrl"),
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          globalSetup: ["./test/worker/twitch-fixtures.node.ts", "./test/worker/openapi-validator.node.ts", "./test/worker/dispatch-fixtures.node.ts", "./test/worker/fake-s3-fixture.node.ts"],
          setupFiles: ["./test/worker/apply-migrations.ts"],
        },
      },
      {
        test: {
          name: "node",
          environment: "node",
          include: ["test/renderer/**/*.test.ts", "test/common/**/*.test.ts", "test/dev/**/*.test.ts", "test/e2e/**/*.test.ts"],
          // x264's fastest preset for every encode of the node tests, in process and in the renderers they start
          // (children inherit it): the same FFmpeg command but for `-preset`, a third of veryfast's CPU (a 20 s
          // 1080x1920 short: 6.5 against 17.5 CPU seconds). No test's property depends on the preset (sizes,
          // frames, lengths, pixels are checked against their own bounds); production, the benchmarks and a test
          // that names its own preset (shutdown.test.ts) keep veryfast; `X264_PRESET=veryfast npm test` runs the
          // suite at production's. docs/DEVELOPMENT.md, "Tests".
          env: { X264_PRESET: process.env.X264_PRESET ?? "ultrafast" },
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
