import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../worker/src/app";
import type { Env } from "../../worker/src/env";
import { BASE, createAccount, FIXTURE_VODS, minimalJob, postJob, type TestAccount } from "./helpers";

/**
 * Generated input against the request-handling endpoints (issue 15): whatever arrives, the answer is never a 5xx
 * and every error is the documented envelope. Deterministic (fixed seeds), so a failure reproduces; the failing
 * input is in the assertion message.
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
  // A job to search through: the database evaluates a search only against rows of the account.
  expect((await postJob(acct.api_key, minimalJob({ streamer_name: "Fuzz target" }))).status).toBe(202);
});

/**
 * The Worker's app with the real bindings, called directly: thousands of requests through the pool's
 * `exports.default.fetch` get slower with every call (measured: request 700 takes ~40x request 1), which would
 * make the run time grow with the square of the count; the app itself answers in constant time.
 */
const background: Promise<unknown>[] = [];
const ctx = { waitUntil: (p: Promise<unknown>) => void background.push(p.catch(() => undefined)), passThroughOnException: () => undefined, props: {} } as unknown as ExecutionContext;
const call = async (path: string, init: RequestInit = {}): Promise<Response> => app.fetch(new Request(`${BASE}${path}`, init), env as Env, ctx);

/** xorshift32: small, seedable, the same sequence everywhere. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof rng>;

const FIELDS = [
  "vod_url", "streamer_name", "game_name", "streamer_twitch_url", "streamer_twitter_url", "streamer_pronouns", "webhook_url",
  "vod_length_hours", "final_video_length_minutes", "compilation_enabled", "num_shorts", "burn_captions", "manual_highlights",
  "model_preset", "stream_language", "metadata_language", "run_profiles", "run_overrides", "parameters", "__proto__", "constructor",
];
const STRINGS = [
  "", " ", "balanced", "audience", "streamer", "auto_balance", "director_finish", "en", "DE", "zz", "crop", "split",
  `https://www.twitch.tv/videos/${FIXTURE_VODS.hour}`, `https://twitch.tv/videos/${FIXTURE_VODS.public}?t=1h`,
  `https://www.twitch.tv/videos/${FIXTURE_VODS.deleted}`, `https://www.twitch.tv/videos/${FIXTURE_VODS.tooLong}`,
  "https://www.twitch.tv/videos/99999999999999999999999", "https://www.twitch.tv/videos/-1", "http://127.1/", "http://[::1]/",
  "http://0x7f000001/", "https://[2606:4700::1111]/h", "http://[fe80::1%25eth0]/", "http://a@b/", "javascript:alert(1)",
  "https://hooks.example.com/h", "http://169.254.169.254/", "http://[::ffff:10.0.0.1]/", "http://exa mple.com/",
  "東京の夜", "😀".repeat(60), "x".repeat(2100), "\u0000\u001f", "%00", "' OR 1=1 --", "<script>", "NaN", "1e309",
];
const NUMBERS = [0, -0, 1, -1, 0.5, 1.5, 2, 10, 11, 20, 30, 31, 180, 3600, 1e21, -1e21, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, 5e-324, 461168601842738790];

function value(r: Rng, depth: number): unknown {
  const k = r.int(depth > 2 ? 5 : 8);
  switch (k) {
    case 0: return r.pick(STRINGS);
    case 1: return r.pick(NUMBERS) * (r.next() < 0.2 ? r.next() * 100 : 1);
    case 2: return r.next() < 0.5;
    case 3: return null;
    case 4: return r.int(40) - 5;
    case 5: return Array.from({ length: r.int(12) }, () => value(r, depth + 1));
    case 6: return manualHighlight(r);
    default: return object(r, depth + 1);
  }
}

function manualHighlight(r: Rng): unknown {
  const start = r.pick([0, 10, 100, 590, 3590, 7190, -5, 1e9]);
  return { start_seconds: start, end_seconds: start + r.pick([5, 20, 30, 180, 181, -10]), label: r.next() < 0.5 ? r.pick(STRINGS) : undefined, run_profiles: r.next() < 0.3 ? value(r, 3) : undefined };
}

function object(r: Rng, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = r.int(depth > 1 ? 4 : 9);
  for (let i = 0; i < n; i++) out[r.next() < 0.85 ? r.pick(FIELDS) : r.pick(STRINGS).slice(0, 20)] = value(r, depth);
  return out;
}

/** Values each field accepts, so some bodies get through validation and are priced. */
const VALID: Record<string, readonly unknown[]> = {
  num_shorts: [0, 1, 3, 10],
  model_preset: ["rapid_sprint", "director_finish", "auto_balance"],
  run_profiles: [["balanced"], ["audience", "streamer"], ["balanced", "audience", "streamer"]],
  final_video_length_minutes: [1, 5, 30],
  stream_language: ["en", "DE", "ja"],
  burn_captions: [true, false],
  webhook_url: ["https://hooks.example.com/h", "https://[2606:4700::1111]/h", "http://8.8.8.8/x"],
  streamer_name: ["Zoë", "東京", ""],
  parameters: [{ shorts_crop_mode: "split", cold_open_enabled: true }, { min_highlight_duration: 500 }],
};

/** A job body: a third valid with varied options, most near-valid (deeper rules and the probe run), some anything. */
function body(r: Rng): string {
  const roll = r.next();
  if (roll > 0.67) {
    const job: Record<string, unknown> = { vod_url: r.pick(STRINGS.slice(12, 14)) };
    if (r.next() < 0.5) job.vod_length_hours = r.pick([0.5, 1, 2, 0.0001, 24]);
    for (const [field, values] of Object.entries(VALID)) if (r.next() < 0.3) job[field] = r.pick(values);
    return JSON.stringify(job);
  }
  if (roll < 0.04) return r.pick(["", "{", "[]", "null", "42", '"text"', "{\"vod_url\":}", "\u0000", "{".repeat(500) + "}".repeat(500)]);
  if (roll < 0.1) return JSON.stringify(value(r, 0));
  const job: Record<string, unknown> = { vod_url: r.next() < 0.8 ? r.pick(STRINGS.slice(12, 18)) : value(r, 2) };
  if (r.next() < 0.6) job.vod_length_hours = r.next() < 0.7 ? r.pick([0.5, 1, 2, 24, 24.01, 0.0001]) : value(r, 2);
  Object.assign(job, object(r, 0));
  if (r.next() < 0.3) job.manual_highlights = Array.from({ length: r.int(12) }, () => manualHighlight(r));
  if (r.next() < 0.3) job.run_overrides = { [r.pick(["balanced", "audience", "streamer", "other"])]: object(r, 1) };
  if (r.next() < 0.3) job.parameters = object(r, 1);
  return JSON.stringify(job);
}

const QUERY_VALUES = [
  "", "0", "1", "2", "100", "101", "100000", "100001", "-1", "1.5", "1e3", "0x10", "abc", "%", "%25", "%00", "_", "\u0000",
  "461168601842738790", "9".repeat(400), "pending", "running", "completed", "failed", "cancelled", "東京".repeat(70), "x".repeat(201),
  "'", "\"", "\\", " ", "+", "&", "=", "😀",
];

function jobsQuery(r: Rng): string {
  const parts: string[] = [];
  for (let i = r.int(6); i > 0; i--) {
    const name = r.pick(["page", "page_size", "status", "search", "search", "page", "other"]);
    const raw = r.next() < 0.5 ? r.pick(QUERY_VALUES) : r.pick(STRINGS);
    parts.push(`${name}=${r.next() < 0.9 ? encodeURIComponent(raw) : raw.replace(/[#?&\s]/g, "")}`);
  }
  return parts.join("&");
}

function metadataQuery(r: Rng): string {
  const raw = r.next() < 0.5 ? r.pick(STRINGS) : `https://www.twitch.tv/videos/${r.pick(["1001", "1002", "1003", "1999", "0", "1".repeat(40), "", "%2e%2e", "1001/../1002"])}`;
  return r.next() < 0.1 ? "" : `vod_url=${encodeURIComponent(raw)}${r.next() < 0.1 ? "&vod_url=x" : ""}`;
}

interface Outcome {
  input: string;
  status: number;
  text: string;
}

async function expectNo5xx(outcomes: Outcome[]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  for (const o of outcomes) {
    statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    expect(o.status, `${o.status} for ${o.input.slice(0, 300)}: ${o.text.slice(0, 300)}`).toBeLessThan(500);
    if (o.status >= 400) {
      const error = (JSON.parse(o.text) as { error: { code: string; message: string; detail?: { field: string; message: string }[] } }).error;
      expect(typeof error.code === "string" && error.message.length > 0, o.input.slice(0, 300)).toBe(true);
      if (o.status === 422) expectCleanWording(error, o.input);
    }
  }
  return statuses;
}

/**
 * Every 422 reads as one sentence: the field, then a message in lower case that neither starts with zod's
 * "Invalid input" nor names its own field again ("page page must ..."), with no second sentence inside it.
 */
function expectCleanWording(error: { message: string; detail?: { field: string; message: string }[] }, input: string): void {
  const where = `${error.message} <- ${input.slice(0, 200)}`;
  expect(error.message, where).toMatch(/^[A-Z][^]*\.$/);
  expect(error.message.slice(0, -1), where).not.toMatch(/[.!?]\s/);
  for (const d of error.detail ?? []) {
    const sentence = `${d.field} ${d.message} <- ${input.slice(0, 200)}`;
    const own = d.field.split(".").at(-1)!.replace(/\[\d+\]$/, "");
    expect(d.message, sentence).toMatch(/^[a-z]/);
    expect(d.message, sentence).not.toMatch(/^invalid input/i);
    expect(d.message, sentence).not.toMatch(/[.!?](\s|$)/);
    expect(d.message.startsWith(d.field) || new RegExp(`\\b${own.replace(/[^\w]/g, "\\$&")}\\b`).test(d.message), sentence).toBe(false);
  }
}

/** Runs `count` requests, `parallel` at a time. */
async function run(count: number, make: (i: number) => { input: string; request: () => Promise<Response> }, parallel = 16): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, j) => make(start + j));
    outcomes.push(...(await Promise.all(batch.map(async (b) => {
      const res = await b.request();
      return { input: b.input, status: res.status, text: await res.text() };
    }))));
  }
  return outcomes;
}

describe("fuzz: no generated input gets a 5xx", () => {
  it("2,000 generated bodies against POST /jobs/estimate", async () => {
    const r = rng(0x15_2026);
    const outcomes = await run(2000, () => {
      const input = body(r);
      return { input, request: () => call("/jobs/estimate", { method: "POST", headers: { "Content-Type": "application/json", "X-API-Key": acct.api_key }, body: input }) };
    });
    const statuses = await expectNo5xx(outcomes);
    // The generator reaches past validation too: some bodies are priced, many are refused.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(150);
    expect(statuses.get(422) ?? 0).toBeGreaterThan(800);
  }, 300_000);

  it("1,000 generated query strings against GET /jobs", async () => {
    const r = rng(0x15_0001);
    // The first queries are the ones that used to answer 500; the rest are generated.
    const seeds = [`search=${"x".repeat(60)}`, `search=${encodeURIComponent("東京".repeat(70))}`, "page=461168601842738790", `search=${encodeURIComponent("😀".repeat(200))}&page=2`];
    const statuses = await expectNo5xx(await run(1000, (i) => {
      const input = seeds[i] ?? jobsQuery(r);
      return { input, request: () => call(`/jobs?${input}`, { headers: { "X-API-Key": acct.api_key } }) };
    }));
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(422) ?? 0).toBeGreaterThan(50);
  }, 120_000);

  it("500 generated query strings against GET /videos/metadata", async () => {
    const r = rng(0x15_0002);
    const statuses = await expectNo5xx(await run(500, () => {
      const input = metadataQuery(r);
      return { input, request: () => call(`/videos/metadata?${input}`, { headers: { "X-API-Key": acct.api_key } }) };
    }));
    expect(statuses.get(200) ?? 0).toBeGreaterThan(20);
    expect(statuses.get(422) ?? 0).toBeGreaterThan(20);
  }, 120_000);
});
