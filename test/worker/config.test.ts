import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, workerConfig, type ConfigInput } from "../../worker/src/config";
import { createAccount, type TestAccount } from "./helpers";
import { createJob, deliver, record, rendererAnswers, rendererLog } from "./job-steps";

/** The Worker's vars are parsed by one schema (worker/src/config.ts): defaults, normalisation, refusals. */

const refusal = (vars: ConfigInput): string => {
  try {
    workerConfig(vars);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(vars)}`);
};

describe("the Worker's vars", () => {
  it("default every setting when unset or empty", () => {
    const defaults = {
      twitchGqlUrl: "https://gql.twitch.tv/gql",
      twitchUsherUrl: "https://usher.ttvnw.net",
      publicBaseUrl: null,
      rendererUrls: [],
      recutRendererUrls: [],
      r2BucketName: "highlight-artifacts",
      watchdogSeconds: 600,
      webhookRetryBaseSeconds: 30,
      webhookAllowLoopback: false,
      linkTtlSeconds: 86400,
      uploadPartBytes: 64 * 1024 * 1024,
      workersAi: true,
      workersAiTextModel: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
      r2S3Endpoint: null,
      analysisReuseHours: 168,
    };
    expect(workerConfig({})).toEqual(defaults);
    const empty = Object.fromEntries(Object.keys({ ...env }).map((k) => [k, ""])) as ConfigInput;
    expect(workerConfig({ ...empty, RENDER_URL: " , ", WATCHDOG_SECONDS: "  " })).toEqual(defaults);
  });

  it("read the test deployment's values (wrangler.toml plus vitest.config.ts)", () => {
    expect(workerConfig(env)).toMatchObject({
      publicBaseUrl: "https://api.test",
      rendererUrls: [env.RENDER_URL.replace(/\/+$/, "")],
      watchdogSeconds: 600,
      webhookRetryBaseSeconds: 0.1,
      webhookAllowLoopback: true,
      linkTtlSeconds: 86400,
      uploadPartBytes: 5 * 1024 * 1024,
    });
  });

  it("normalise what they accept: URLs without trailing slashes, a renderer pool as a list, flags in any case", () => {
    const c = workerConfig({
      PUBLIC_BASE_URL: " https://api.example.com/ ",
      RENDER_URL: "http://10.0.0.1:8080/, http://10.0.0.2:8080",
      RECUT_RENDER_URL: " http://10.0.0.3:8080/ ",
      R2_S3_ENDPOINT: "http://127.0.0.1:9000/",
      WEBHOOK_ALLOW_LOOPBACK: "TRUE",
      WORKERS_AI: "Off",
      WATCHDOG_SECONDS: "42.5",
    });
    expect(c).toMatchObject({
      publicBaseUrl: "https://api.example.com",
      rendererUrls: ["http://10.0.0.1:8080", "http://10.0.0.2:8080"],
      recutRendererUrls: ["http://10.0.0.3:8080"],
      r2S3Endpoint: "http://127.0.0.1:9000",
      webhookAllowLoopback: true,
      workersAi: false,
      watchdogSeconds: 42.5,
    });
  });

  it("refuse malformed values, naming the setting and what it got", () => {
    expect(refusal({ WATCHDOG_SECONDS: "ten minutes" })).toMatch(/WATCHDOG_SECONDS must be a number of seconds \(got "ten minutes"\)/);
    expect(refusal({ WATCHDOG_SECONDS: "0" })).toMatch(/WATCHDOG_SECONDS must be greater than 0/);
    expect(refusal({ WEBHOOK_RETRY_BASE_SECONDS: "-1" })).toMatch(/WEBHOOK_RETRY_BASE_SECONDS must be greater than 0/);
    expect(refusal({ LINK_TTL_SECONDS: "1.5" })).toMatch(/LINK_TTL_SECONDS must be a whole number of seconds/);
    expect(refusal({ ANALYSIS_REUSE_HOURS: "-1" })).toMatch(/ANALYSIS_REUSE_HOURS must be 0 \(off\) or more/);
    expect(refusal({ ANALYSIS_REUSE_HOURS: "721" })).toMatch(/ANALYSIS_REUSE_HOURS must be at most 720/);
    expect(refusal({ UPLOAD_PART_BYTES: "1048576" })).toMatch(/UPLOAD_PART_BYTES must be at least 5242880 \(R2's smallest part\)/);
    expect(refusal({ UPLOAD_PART_BYTES: String(128 * 1024 * 1024) })).toMatch(/UPLOAD_PART_BYTES must be at most 100000000/);
    expect(refusal({ PUBLIC_BASE_URL: "api.example.com" })).toMatch(/PUBLIC_BASE_URL must be an http\(s\) URL/);
    expect(refusal({ RENDER_URL: "http://10.0.0.1:8080,ftp://x" })).toMatch(/RENDER_URL must be an http\(s\) URL/);
    expect(refusal({ WEBHOOK_ALLOW_LOOPBACK: "yes" })).toMatch(/WEBHOOK_ALLOW_LOOPBACK must be "true" or "false"/);
    expect(refusal({ WORKERS_AI: "disabled" })).toMatch(/WORKERS_AI must be "on" or "off"/);
    // Every malformed setting is named at once.
    expect(refusal({ WATCHDOG_SECONDS: "x", WORKERS_AI: "x" })).toMatch(/WATCHDOG_SECONDS .*; WORKERS_AI /);
  });

  it("are parsed once per env object", () => {
    const vars = { WATCHDOG_SECONDS: "42" };
    const first = workerConfig(vars);
    expect(workerConfig(vars)).toBe(first);
    // Another object is another deployment's (or a test's) env: parsed on its own.
    expect(workerConfig({ ...vars, WATCHDOG_SECONDS: "43" }).watchdogSeconds).toBe(43);
  });
});

describe("a malformed var where it is used", { timeout: 30_000 }, () => {
  let acct: TestAccount;
  beforeAll(async () => {
    acct = await createAccount({ plan: "pro", credits: 10_000, purchase: true });
  });

  it("fails the dispatch clearly, refunding everything, instead of rendering with a guessed setting", async () => {
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 202);
    const result = await deliver(message, { env: { WATCHDOG_SECONDS: "ten minutes" } });
    expect(result.explicitAcks).toHaveLength(1);
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "dispatch_failed" } });
    expect(rec.error?.message).toContain("WATCHDOG_SECONDS must be a number of seconds");
    expect((await rendererLog(ack.id)).starts).toHaveLength(0);
  });
});
