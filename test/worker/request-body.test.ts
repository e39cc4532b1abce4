import { beforeAll, describe, expect, it } from "vitest";
import type { JobList } from "../../common/contract";
import { MAX_DETAIL_ITEMS } from "../../worker/src/lib/api-error";
import { MAX_JSON_DEPTH } from "../../worker/src/lib/json-text";
import { accountCredits, call, createAccount, expect422, expectError, get, minimalJob, nextIp, type TestAccount } from "./helpers";

/**
 * How a JSON body is read (worker/src/middleware/json-body.ts), found by probing the running API as a careless
 * client and an attacker: compressed bodies, duplicate member names, deep nesting, bytes that are not UTF-8, and
 * what a 400 says about a body that is not JSON.
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 10_000, purchase: true });
});

const send = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  call(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-API-Key": acct.api_key, "CF-Connecting-IP": nextIp(), ...headers },
    body,
  });

const compress = async (text: string, format: "gzip" | "deflate") =>
  new Uint8Array(await new Response(new Response(text).body!.pipeThrough(new CompressionStream(format))).arrayBuffer());

const jobCount = async () => ((await (await get(acct.api_key, "/jobs")).json()) as JobList).total;

describe("Content-Encoding of a request body", () => {
  it("inflates gzip and deflate bodies (the gzip bytes used to be parsed as JSON and echoed in the 400)", async () => {
    const body = JSON.stringify(minimalJob({ num_shorts: 2 }));
    for (const format of ["gzip", "deflate"] as const) {
      const res = await send("/jobs/estimate", await compress(body, format), { "Content-Encoding": format });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(((await res.json()) as { request: { num_shorts: number } }).request.num_shorts).toBe(2);
    }
  });

  it("bounds the inflated size: a small gzip of 1 MB of spaces is 413 and creates nothing", async () => {
    const before = [await jobCount(), await accountCredits(acct.account_id)];
    const bomb = await compress(`{"vod_url":"x",${" ".repeat(1_000_000)}"a":1}`, "gzip");
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const err = await expectError(await send("/jobs", bomb, { "Content-Encoding": "gzip" }), 413, "payload_too_large");
    expect(err.message).toBe("The request body is larger than 65536 bytes once decompressed.");
    expect([await jobCount(), await accountCredits(acct.account_id)]).toEqual(before);
  });

  it("answers data that is not what its Content-Encoding says with a 400 naming the coding", async () => {
    const err = await expectError(await send("/jobs/estimate", JSON.stringify(minimalJob()), { "Content-Encoding": "gzip" }), 400, "invalid_json");
    expect(err.message).toBe("The request body is not valid JSON: it is declared as gzip (Content-Encoding) but is not valid gzip data.");
  });

  it("refuses other codings with 415 and Accept-Encoding (the body used to be read as if uncompressed)", async () => {
    for (const coding of ["br", "zstd", "gzip, gzip"]) {
      const res = await send("/jobs/estimate", JSON.stringify(minimalJob()), { "Content-Encoding": coding });
      expect(res.headers.get("Accept-Encoding")).toBe("gzip, deflate");
      const err = await expectError(res, 415, "unsupported_media_type");
      expect(err.message).toContain(`Content-Encoding ${coding} is not supported`);
    }
    expect((await send("/jobs/estimate", JSON.stringify(minimalJob()), { "Content-Encoding": "identity" })).status).toBe(200);
  });
});

describe("JSON text", () => {
  it("says where a body stops being JSON, without quoting it back", async () => {
    const cases: [string, string][] = [
      ["", "the body is empty"],
      ['{"vod_url": ', "it ends before the JSON text is complete"],
      ['{"num_shorts": NaN}', "an unexpected character at line 1, column 16"],
      ['{"a": 1}\n{"b": 2}', "more text after the JSON value at line 2, column 1"],
      ['{"a": "\u0001"}', "a control character in a string (escape it) at line 1, column 8"],
      ['{"a": "\\x"}', "an invalid escape sequence in a string at line 1, column 8"],
      ["{'a': 1}", "a member name that is not a double-quoted string at line 1, column 2"],
    ];
    for (const [body, reason] of cases) {
      const err = await expectError(await send("/jobs/estimate", body), 400, "invalid_json");
      expect(err.message).toBe(`The request body is not valid JSON: ${reason}.`);
    }
  });

  it("refuses bytes that are not UTF-8 instead of storing replacement characters", async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(minimalJob({ streamer_name: "Zoe" })));
    const latin1 = bytes.map((b) => b); // "Zoe" -> "Zo\xEB": ë in Latin-1, not UTF-8
    latin1[bytes.indexOf(0x65, bytes.indexOf(0x5a))] = 0xeb;
    const err = await expectError(await send("/jobs/estimate", latin1), 400, "invalid_json");
    expect(err.message).toBe("The request body is not valid JSON: it is not UTF-8 text.");
  });

  it("refuses a member given twice, at any level, naming it (JSON.parse silently kept the last one)", async () => {
    const vod = JSON.stringify(minimalJob().vod_url);
    const cases: [string, string][] = [
      [`{"vod_url":"https://evil.example/","vod_url":${vod}}`, "vod_url"],
      [`{"vod_url":${vod},"num_shorts":1,"num_shorts":10}`, "num_shorts"],
      [`{"vod_url":${vod},"parameters":{"shorts_crop_mode":"fit","shorts_crop_mode":"split"}}`, "parameters.shorts_crop_mode"],
      [`{"vod_url":${vod},"num_shorts":2,"manual_highlights":[{"start_seconds":0,"end_seconds":30},{"start_seconds":100,"end_seconds":130,"label":"a","label":"b"}]}`, "manual_highlights[1].label"],
      // Names are compared decoded: \u0061 is "a".
      [`{"vod_url":${vod},"x":{"a":1,"\\u0061":2}}`, "x.a"],
    ];
    for (const [body, field] of cases) {
      const detail = await expect422(await send("/jobs/estimate", body));
      expect(Object.fromEntries(detail)).toEqual({ [field]: ["is given more than once"] });
    }
    // The same name in two different objects is no duplicate.
    const ok = `{"vod_url":${vod},"vod_length_hours":1,"parameters":{"vod_url":1},"run_overrides":{"balanced":{"audience_weight":0.4}}}`;
    expect((await send("/jobs/estimate", ok)).status).toBe(200);
  });

  it(`bounds nesting at ${MAX_JSON_DEPTH} levels; an Idempotency-Key body nested 5,000 deep used to answer 500`, async () => {
    const before = [await jobCount(), await accountCredits(acct.account_id)];
    const deep = (n: number) => JSON.stringify(minimalJob()).replace(/}$/, `,"extra":${"[".repeat(n)}${"]".repeat(n)}}`);
    const res = await send("/jobs", deep(5000), { "Idempotency-Key": "deep-body-1" });
    const detail = await expect422(res);
    expect(Object.fromEntries(detail)).toEqual({ extra: [`nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`] });
    expect([await jobCount(), await accountCredits(acct.account_id)]).toEqual(before);
    // The deepest allowed body is accepted (the body object is level 1).
    expect((await send("/jobs/estimate", deep(MAX_JSON_DEPTH - 1))).status).toBe(200);
    await expect422(await send("/jobs/estimate", deep(MAX_JSON_DEPTH)));
    // A body that is itself a deep array is named `body` (it used to be `[0]`).
    const arrays = await expect422(await send("/jobs/estimate", `${"[".repeat(40)}${"]".repeat(40)}`));
    expect(Object.fromEntries(arrays)).toEqual({ body: [`nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`] });
  });
});

describe("the 422 envelope", () => {
  it("repeats error.detail as a top-level detail, the spec's 'detail field' wherever a client looks for it", async () => {
    const res = await send("/jobs", JSON.stringify({ vod_url: "https://www.youtube.com/watch?v=x", num_shorts: 11 }));
    const body = (await res.json()) as { error: { code: string; detail: unknown[] }; detail: unknown[] };
    expect(res.status).toBe(422);
    expect(body.detail).toEqual([
      { field: "vod_url", message: "is not a Twitch URL; only Twitch VODs are accepted, such as https://www.twitch.tv/videos/123456789" },
      { field: "num_shorts", message: "must be between 0 and 10" },
    ]);
    expect(body.error.detail).toEqual(body.detail);
    // Only a 422 has one.
    const notFound = (await (await get(acct.api_key, "/jobs/job_00000000000000000000000000")).json()) as Record<string, unknown>;
    expect(Object.keys(notFound)).toEqual(["error"]);
  });
});

describe("the 422 of a body with very many problems", () => {
  it(`lists the first ${MAX_DETAIL_ITEMS} and counts them all (10,000 wrong entries of 20 KB used to answer nearly 1 MB)`, async () => {
    const res = await send("/jobs/estimate", JSON.stringify({ ...minimalJob(), run_profiles: new Array(10_000).fill(1) }));
    const text = await res.clone().text();
    const err = await expectError(res, 422, "validation_failed");
    expect(err.message).toBe(`Invalid request: 10000 problems; detail lists the first ${MAX_DETAIL_ITEMS}.`);
    expect(err.detail).toHaveLength(MAX_DETAIL_ITEMS);
    expect(err.detail![0]).toEqual({ field: "run_profiles[0]", message: 'must be one of "balanced", "audience", "streamer"' });
    expect(text.length).toBeLessThan(16 * 1024);
  });
});
