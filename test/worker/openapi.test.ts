import { beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../common/client";
import type { JobAck, JobResults, WebhookDeliveryList } from "../../common/contract";
import { app } from "../../worker/src/app";
import { ERROR_CODES } from "../../worker/src/openapi/error-catalog";
import { REFERENCE_SCRIPT_PATH, REFERENCE_STYLESHEET_PATH } from "../../worker/src/openapi/reference-page";
import { SWAGGER_UI_VERSION } from "../../worker/src/openapi/reference-assets";
import { ADMIN_TOKEN, admin, call, createAccount, jsonInit, minimalJob, nextIp, postJob, type TestAccount } from "./helpers";
import { ACCEPTED } from "./drive-job";
import { eventually, webhookBox } from "./job-steps";
import {
  appRouteKeys,
  completeWithFiles,
  declaredOperations,
  documentedRouteKeys,
  expectDocumented,
  operationOf,
  servedDocument,
  validateDocument,
  validateInstance,
  type DeclaredOperation,
} from "./openapi-helpers";

/** Every route the app declared (routes/*.routes.ts), read from its registry: the same records the document is made of. */
const OPERATIONS = declaredOperations(app.openAPIRegistry.definitions, ERROR_CODES.validation_failed.example);

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 1_000_000, purchase: true });
});

async function newJob(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await postJob(acct.api_key, minimalJob(extra));
  expect(res.status).toBe(202);
  return ((await res.json()) as JobAck).id;
}

describe("GET /openapi.json", () => {
  it("is public and cacheable: ETag, Cache-Control, 304 on a matching If-None-Match", async () => {
    const res = await call("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const etag = res.headers.get("ETag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const text = await res.text();

    const again = await call("/openapi.json", { headers: { "If-None-Match": `W/"other", ${etag}` } });
    expect(again.status).toBe(304);
    // Documented like every status a route answers (it was not listed).
    const doc = JSON.parse(text) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const path of ["/openapi.json", REFERENCE_SCRIPT_PATH, REFERENCE_STYLESHEET_PATH]) {
      expect(Object.keys(doc.paths[path]!.get!.responses), path).toContain("304");
    }
    expect(again.headers.get("ETag")).toBe(etag);
    expect(await again.text()).toBe("");

    const stale = await call("/openapi.json", { headers: { "If-None-Match": '"0000"' } });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(text);
  });

  it("validates against the OpenAPI 3.1 schema", async () => {
    const doc = await servedDocument();
    expect(doc.openapi).toMatch(/^3\.1\./);
    const answer = await validateDocument(doc);
    expect(answer.errors).toBeNull();
    expect(answer.valid).toBe(true);
  });

  it("fails the validator when broken, so the check above can fail", async () => {
    const doc = structuredClone(await servedDocument());
    (doc.paths["/jobs"]!.post as Record<string, unknown>).responses = "none";
    expect((await validateDocument(doc)).valid).toBe(false);
  });

  it("documents the chat overlay's parameters, generated from the request schema", async () => {
    const text = JSON.stringify(await servedDocument());
    // Wherever the generator puts the parameters' schema, both fields are there with their values and descriptions.
    expect(text).toMatch(/"chat_overlay":\{[^}]*"enum":\["off","panel","bubbles"\]/);
    expect(text).toMatch(/"chat_overlay":\{[^}]*"description":"Chat replay drawn into each short/);
    expect(text).toMatch(/"reel_chat_overlay":\{[^}]*"description":"Also draw the chat replay/);
  });

  it("declares the three security schemes and uses only those", async () => {
    const doc = await servedDocument();
    const schemes = (doc.components as { securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }> }).securitySchemes;
    expect(schemes).toEqual({
      ApiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" }),
      AdminBearer: expect.objectContaining({ type: "http", scheme: "bearer" }),
      ZipToken: expect.objectContaining({ type: "apiKey", in: "query", name: "token" }),
    });
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item) as Array<{ security?: Array<Record<string, unknown>> }>) {
        for (const requirement of op.security ?? []) for (const name of Object.keys(requirement)) expect(Object.keys(schemes)).toContain(name);
      }
    }
  });
});

describe("route coverage", () => {
  it("documents every route the app serves, and only those; /internal/ is the one deliberate exception", async () => {
    // By construction a declared route is documented; this catches a route added with router.get() or a plain Hono
    // router instead of a declaration.
    const doc = await servedDocument();
    const served = appRouteKeys(app.routes);
    const publicRoutes = served.filter((key) => !key.split(" ")[1]!.startsWith("/internal/"));
    expect(OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort()).toEqual(publicRoutes);
    expect(documentedRouteKeys(doc)).toEqual(publicRoutes);
    // The exception hides renderer routes and nothing else.
    for (const key of served.filter((k) => !publicRoutes.includes(k))) expect(key).toMatch(/^(POST|PUT|GET|PATCH|DELETE) \/internal\//);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/internal/"))).toEqual([]);
  });

  it("reads Hono paths the way OpenAPI writes them", () => {
    expect(appRouteKeys([{ method: "GET", path: "/jobs/:id/webhooks/:delivery_id" }, { method: "ALL", path: "/admin/*" }])).toEqual([
      "GET /jobs/{id}/webhooks/{delivery_id}",
    ]);
  });
});

/** A concrete URL for an operation, filling path parameters with ids that exist for `acct` where it matters. */
function concretePath(op: DeclaredOperation, ids: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? `unknown_${name}`);
}

describe("documented authentication matches the app", () => {
  it.each(OPERATIONS.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))("%s", async (_, op) => {
    const doc = await servedDocument();
    // No credentials at all; a fresh client IP so the POST /jobs rate limit cannot answer first.
    const res = await call(concretePath(op, {}), { method: op.method.toUpperCase(), headers: { "CF-Connecting-IP": nextIp() } });
    const body = (await res.clone().json().catch(() => null)) as { error?: { code: string } } | null;
    switch (op.auth) {
      case "apiKey":
        expect([res.status, body?.error?.code]).toEqual([401, "missing_api_key"]);
        break;
      case "admin":
        expect([res.status, body?.error?.code]).toEqual([401, "unauthorized"]);
        break;
      case "zipTokenOrApiKey":
        expect([res.status, body?.error?.code]).toEqual([401, "missing_api_key"]);
        break;
      case "signedLink":
        expect([res.status, body?.error?.code]).toEqual([403, "invalid_link"]);
        break;
      case "public":
        expect(res.status).toBe(200);
        break;
    }
    await expectDocumented(doc, op.method, op.path, res);
  });
});

// Completing a job through the task path waits for the real queue to start its tasks (batches wait up to 1 s).
describe("example request bodies", { timeout: 30_000 }, () => {
  const withExamples = OPERATIONS.filter((op) => op.bodyExamples);

  it("covers every operation that takes a body", async () => {
    const doc = await servedDocument();
    const withBody = OPERATIONS.filter((op) => operationOf(doc, op.method, op.path).requestBody);
    expect(withBody.length).toBeGreaterThan(0);
    expect(withExamples.map((op) => op.operationId)).toEqual(withBody.map((op) => op.operationId));
  });

  it("validate against the document's own request schemas", async () => {
    const doc = await servedDocument();
    for (const op of withExamples) {
      const body = operationOf(doc, op.method, op.path).requestBody as { content: Record<string, { schema: { $ref: string } }> };
      const schema = body.content["application/json"]!.schema.$ref.replace("#/components/schemas/", "");
      for (const [name, example] of Object.entries(op.bodyExamples!)) {
        const answer = await validateInstance(doc, schema, example.value);
        expect(answer.errors, `${op.operationId} example ${name}`).toBeNull();
      }
    }
  });

  it.each(withExamples.flatMap((op) => Object.keys(op.bodyExamples!).map((name) => [op.operationId, name, op] as const)))(
    "%s example %s passes the real validation",
    async (_, name, op) => {
      const doc = await servedDocument();
      const ids: Record<string, string> = {};
      const headers: Record<string, string> = { "CF-Connecting-IP": nextIp() };
      if (op.auth === "apiKey") headers["X-API-Key"] = acct.api_key;
      if (op.auth === "admin") {
        headers.Authorization = `Bearer ${ADMIN_TOKEN}`;
        ids.id = (await createAccount({ credits: 100 })).account_id;
      }
      if (op.operationId === "sendFeedback") {
        ids.id = await newJob(ACCEPTED);
        await completeWithFiles(ids.id);
      }
      const res = await call(concretePath(op, ids), jsonInit(op.method.toUpperCase(), op.bodyExamples![name]!.value, headers));
      if (res.status !== op.successStatus) throw new Error(`${res.status}: ${await res.text()}`);
      await expectDocumented(doc, op.method, op.path, res);
    },
  );
});

describe("real answers match the documented schemas", { timeout: 30_000 }, () => {
  it("jobs: create, read, list, estimate, cancel, results and their errors", async () => {
    const doc = await servedDocument();
    const key = { "X-API-Key": acct.api_key };
    const created = (await expectDocumented(doc, "post", "/jobs", await postJob(acct.api_key, minimalJob({ num_shorts: 2 })))) as JobAck;
    await expectDocumented(doc, "get", "/jobs/{id}", await call(`/jobs/${created.id}`, { headers: key }));
    await expectDocumented(doc, "get", "/jobs", await call("/jobs?page_size=3", { headers: key }));
    await expectDocumented(doc, "get", "/jobs", await call("/jobs?page_size=500", { headers: key }));
    await expectDocumented(doc, "post", "/jobs/estimate", await call("/jobs/estimate", jsonInit("POST", minimalJob(), key)));
    await expectDocumented(doc, "get", "/jobs/{id}/results", await call(`/jobs/${created.id}/results`, { headers: key }));
    await expectDocumented(doc, "post", "/jobs/{id}/cancel", await call(`/jobs/${created.id}/cancel`, { method: "POST", headers: key }));
    await expectDocumented(doc, "post", "/jobs/{id}/cancel", await call(`/jobs/${created.id}/cancel`, { method: "POST", headers: key }));
    await expectDocumented(doc, "get", "/jobs/{id}", await call("/jobs/job_nope", { headers: key }));

    const done = await newJob(ACCEPTED);
    await completeWithFiles(done);
    await expectDocumented(doc, "get", "/jobs/{id}/results", await call(`/jobs/${done}/results`, { headers: key }));
    await expectDocumented(doc, "get", "/jobs/{id}", await call(`/jobs/${done}`, { headers: key }));
  });

  it("POST /jobs errors: 400, 402, 413, 415, 422 and 429 are documented with the envelope", async () => {
    const doc = await servedDocument();
    const poor = await createAccount({ credits: 1, purchase: true });
    const ip = nextIp();
    const post = (body: string, headers: Record<string, string> = {}, key = acct.api_key) =>
      call("/jobs", { method: "POST", body, headers: { "Content-Type": "application/json", "X-API-Key": key, "CF-Connecting-IP": ip, ...headers } });
    await expectDocumented(doc, "post", "/jobs", await post("{"));
    await expectDocumented(doc, "post", "/jobs", await post(JSON.stringify(minimalJob()), {}, poor.api_key));
    await expectDocumented(doc, "post", "/jobs", await post(JSON.stringify({ pad: "x".repeat(70_000) })));
    await expectDocumented(doc, "post", "/jobs", await post("{}", { "Content-Type": "text/plain" }));
    await expectDocumented(doc, "post", "/jobs", await post(JSON.stringify({ vod_url: "nope", num_shorts: 99 })));
    for (let i = 0; i < 6; i++) await (await post("{")).body?.cancel();
    const limited = await post("{}");
    expect(limited.status).toBe(429);
    await expectDocumented(doc, "post", "/jobs", limited);
  });

  it("the 422 examples are what the API really answers", async () => {
    const body = minimalJob({ final_video_length_minutes: 0, num_shorts: 1, manual_highlights: [{ start_seconds: 0, end_seconds: 10 }] });
    const res = await postJob(acct.api_key, body);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: unknown }).error).toEqual(ERROR_CODES.validation_failed.example);

    const key = { "X-API-Key": acct.api_key };
    const triggers: Record<string, string> = { listJobs: "/jobs?status=done", getVideoMetadata: "/videos/metadata?vod_url=https://example.com/x" };
    const withOwn = OPERATIONS.filter((op) => op.validationExample);
    expect(withOwn.map((op) => op.operationId).sort()).toEqual(Object.keys(triggers).sort());
    for (const op of withOwn) {
      const answer = await call(triggers[op.operationId]!, { headers: key });
      expect(answer.status).toBe(422);
      expect(((await answer.json()) as { error: unknown }).error).toEqual(op.validationExample);
    }
  });

  it("videos, pricing and the operator API", async () => {
    const doc = await servedDocument();
    const key = { "X-API-Key": acct.api_key };
    await expectDocumented(doc, "get", "/videos/metadata", await call("/videos/metadata?vod_url=https://www.twitch.tv/videos/1001", { headers: key }));
    await expectDocumented(doc, "get", "/videos/metadata", await call("/videos/metadata?vod_url=https://www.twitch.tv/videos/1004", { headers: key }));
    await expectDocumented(doc, "get", "/videos/metadata", await call("/videos/metadata?vod_url=https://example.com/x", { headers: key }));
    await expectDocumented(doc, "get", "/pricing", await call("/pricing"));

    const created = (await expectDocumented(doc, "post", "/admin/accounts", await admin("POST", "/accounts", { name: "Doc check", credits: 5 }))) as {
      account_id: string;
      key_id: string;
    };
    const id = created.account_id;
    await expectDocumented(doc, "get", "/admin/accounts", await admin("GET", "/accounts?page_size=2"));
    await expectDocumented(doc, "get", "/admin/accounts/{id}", await admin("GET", `/accounts/${id}?ledger_limit=5`));
    await expectDocumented(doc, "get", "/admin/accounts/{id}", await admin("GET", "/accounts/acct_nope"));
    await expectDocumented(doc, "get", "/admin/accounts/{id}", await admin("GET", `/accounts/${id}?ledger_limit=0`));
    await expectDocumented(doc, "patch", "/admin/accounts/{id}", await admin("PATCH", `/accounts/${id}`, { plan: "studio" }));
    await expectDocumented(doc, "post", "/admin/accounts/{id}/keys", await admin("POST", `/accounts/${id}/keys`));
    await expectDocumented(doc, "delete", "/admin/accounts/{id}/keys/{keyId}", await admin("DELETE", `/accounts/${id}/keys/${created.key_id}`));
    await expectDocumented(doc, "delete", "/admin/accounts/{id}/keys/{keyId}", await admin("DELETE", `/accounts/${id}/keys/key_nope`));
    await expectDocumented(doc, "post", "/admin/accounts/{id}/credits", await admin("POST", `/accounts/${id}/credits`, { amount: 7 }));
    await expectDocumented(doc, "post", "/admin/accounts/{id}/credits", await admin("POST", `/accounts/${id}/credits`, { amount: -100 }));
  });

  it("the validator notices a response that does not match", async () => {
    const doc = await servedDocument();
    const answer = await validateInstance(doc, "JobAck", { id: "job_x", status: "running" });
    expect(answer.valid).toBe(false);
  });

  it("every error example of every operation is a valid envelope", async () => {
    const doc = await servedDocument();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operationOf(doc, method, path).responses)) {
          if (Number(status) < 400) continue;
          const examples = (response as { content: Record<string, { examples: Record<string, { value: unknown }> }> }).content["application/json"]!.examples;
          for (const [code, example] of Object.entries(examples)) {
            expect((example.value as { error: { code: string } }).error.code).toBe(code);
            expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status, `${method} ${path} ${code}`).toBe(Number(status));
            expect((await validateInstance(doc, "ErrorEnvelope", example.value)).errors).toBeNull();
          }
        }
        expect(op).toBeDefined();
      }
    }
  });
});

describe("downloads, files and webhooks", { timeout: 30_000 }, () => {
  it("download-all and file links answer as documented", async () => {
    const doc = await servedDocument();
    const key = { "X-API-Key": acct.api_key };
    const id = await newJob(ACCEPTED);
    await expectDocumented(doc, "get", "/jobs/{id}/download-all", await call(`/jobs/${id}/download-all`, { headers: key }));
    await completeWithFiles(id);
    const results = (await expectDocumented(doc, "get", "/jobs/{id}/results", await call(`/jobs/${id}/results`, { headers: key }))) as JobResults;

    const zip = new URL(results.zip_url);
    const byToken = await call(zip.pathname + zip.search);
    expect(byToken.status).toBe(200);
    await expectDocumented(doc, "get", "/jobs/{id}/download-all", byToken);
    // Resuming with a Range is documented too (its 206 was not listed).
    const resumed = await call(zip.pathname + zip.search, { headers: { Range: "bytes=4-" } });
    expect(resumed.status).toBe(206);
    await expectDocumented(doc, "get", "/jobs/{id}/download-all", resumed);
    await expectDocumented(doc, "get", "/jobs/{id}/download-all", await call(`/jobs/${id}/download-all`, { headers: key }));
    await expectDocumented(doc, "get", "/jobs/{id}/download-all", await call(`/jobs/${id}/download-all?token=1.forged`));
    await expectDocumented(doc, "get", "/jobs/{id}/download-all", await call(`/jobs/${id}/download-all`, { headers: { "X-API-Key": "hk_live_nope" } }));

    const reel = new URL(results.deliverables.find((d) => d.type === "reel")!.url);
    const whole = await call(reel.pathname + reel.search);
    expect(whole.status).toBe(200);
    await expectDocumented(doc, "get", "/files/{job_id}/{name}", whole);
    const part = await call(reel.pathname + reel.search, { headers: { Range: "bytes=0-3" } });
    expect(part.status).toBe(206);
    await expectDocumented(doc, "get", "/files/{job_id}/{name}", part);
    await expectDocumented(doc, "get", "/files/{job_id}/{name}", await call(`${reel.pathname}${reel.search.replace("sig=", "sig=x")}`));
  });

  it("deliveries carry the documented headers and bodies of the documented event schemas", async () => {
    const doc = await servedDocument();
    const key = { "X-API-Key": acct.api_key };
    const box = await webhookBox();
    const completed = (await (await postJob(acct.api_key, minimalJob({ webhook_url: box.url, ...ACCEPTED }))).json()) as JobAck;
    await completeWithFiles(completed.id);
    const cancelled = (await (await postJob(acct.api_key, minimalJob({ webhook_url: box.url }))).json()) as JobAck;
    expect((await call(`/jobs/${cancelled.id}/cancel`, { method: "POST", headers: key })).status).toBe(200);

    const received = await eventually(async () => {
      const all = await box.received();
      return all.length >= 3 && all;
    }, 10_000, "three webhook deliveries");
    expect(received.map((d) => d.headers["x-service-event"]).sort()).toEqual(["job.completed", "job.failed", "job.running"]);

    const hooks = doc.webhooks as Record<string, { post: { parameters: Array<{ name: string; required: boolean; schema: { pattern?: string } }>; requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
    for (const delivery of received) {
      const event = delivery.headers["x-service-event"]!;
      const documented = hooks[event]!.post;
      for (const header of documented.parameters) {
        const value = delivery.headers[header.name.toLowerCase()];
        if (header.required) expect(value, `${event} ${header.name}`).toBeDefined();
        if (value !== undefined && header.schema.pattern) expect(value).toMatch(new RegExp(header.schema.pattern));
      }
      const ref = documented.requestBody.content["application/json"]!.schema.$ref.replace("#/components/schemas/", "");
      expect((await validateInstance(doc, ref, JSON.parse(delivery.body))).errors, `${event} body vs ${ref}`).toBeNull();
      const verdict = await verifyWebhook({
        rawBody: delivery.body,
        secret: acct.webhook_signing_secret,
        signature: delivery.headers["x-service-signature"],
        timestamp: delivery.headers["x-service-timestamp"],
        timestampedSignature: delivery.headers["x-service-signature-timestamped"],
      });
      expect(verdict.ok, event).toBe(true);
    }

    const log = (await expectDocumented(doc, "get", "/jobs/{id}/webhooks", await call(`/jobs/${completed.id}/webhooks`, { headers: key }))) as WebhookDeliveryList;
    expect(log.deliveries.map((d) => d.event)).toEqual(["job.running", "job.completed"]);
    const again = await call(`/jobs/${completed.id}/webhooks/${log.deliveries[0]!.id}/redeliver`, { method: "POST", headers: key });
    expect(again.status).toBe(202);
    await expectDocumented(doc, "post", "/jobs/{id}/webhooks/{delivery_id}/redeliver", again);
    await expectDocumented(doc, "post", "/jobs/{id}/webhooks/{delivery_id}/redeliver", await call(`/jobs/${completed.id}/webhooks/dlv_nope/redeliver`, { method: "POST", headers: key }));
    await expectDocumented(doc, "get", "/jobs/{id}/webhooks", await call("/jobs/job_nope/webhooks", { headers: key }));
  });
});

/** Every http(s) origin a text names, as "host" (scheme left out), with how often. */
function origins(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const m of text.matchAll(/https?:\/\/([a-z0-9.-]+)/gi)) found.set(m[1]!.toLowerCase(), (found.get(m[1]!.toLowerCase()) ?? 0) + 1);
  return found;
}

/**
 * Origins swagger-ui-dist's bundle names without ever fetching them, each checked by reading the code around it.
 * A new version naming another origin fails the test until someone has looked at what it does with it.
 */
const NAMED_NOT_FETCHED: Record<string, string> = {
  "www.w3.org": "XML namespaces of SVG, XHTML, XLink and MathML elements",
  "json-schema.org": "JSON Schema dialect identifiers ($schema values)",
  "spec.openapis.org": "OpenAPI dialect and schema identifiers",
  "datatracker.ietf.org": "RFC references in grammar comments and error messages",
  "www.rfc-editor.org": "RFC references in grammar comments",
  "github.com": "links in deprecation messages and license comments",
  "reactjs.org": "link in React's minified-error message",
  "redux.js.org": "link in Redux's minified-error message",
  "fb.me": "link in a prop-types error message",
  "spdx.org": "link shown for a license identifier of a document (ours has none)",
  "swagger.io": "base URI for resolving relative $refs (this document has none)",
  "vladimirgorej.com": "dummy base for checking that a server URL parses",
  "example.com": "sample values of generated examples (hostname, email)",
  "twitter.com": "link targets the Markdown autolinker could make of @mentions and #hashtags (turned off in Swagger UI)",
  "www.facebook.com": "autolinker hashtag target (as above)",
  "instagram.com": "autolinker mention and hashtag targets (as above)",
  "soundcloud.com": "autolinker mention target (as above)",
  "www.tiktok.com": "autolinker mention and hashtag targets (as above)",
  // Fetched only by the online validator badge, which the page turns off (validatorUrl "none").
  "validator.swagger.io": "the validator badge, off",
  // `new URL(x, "http://base")`-style placeholder.
  base: "placeholder base URL",
};

describe("answers that only a retry or a repeat produces", { timeout: 30_000 }, () => {
  type Documented = { parameters?: { name: string; in: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> };
  const documentedOp = async (method: string, template: string) => operationOf(await servedDocument(), method, template) as unknown as Documented;

  it("a replayed POST /jobs (same Idempotency-Key) is a documented 202 with its Idempotent-Replayed header", async () => {
    const doc = await servedDocument();
    const op = await documentedOp("post", "/jobs");
    expect(op.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key")).toBe(true);
    expect(op.responses["202"]!.headers).toHaveProperty("Idempotent-Replayed");
    const key = crypto.randomUUID();
    const send = () => call("/jobs", jsonInit("POST", minimalJob(), { "X-API-Key": acct.api_key, "CF-Connecting-IP": nextIp(), "Idempotency-Key": key }));
    const first = await send();
    const firstBody = (await expectDocumented(doc, "post", "/jobs", first)) as JobAck;
    const replay = await send();
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(((await expectDocumented(doc, "post", "/jobs", replay)) as JobAck).id).toBe(firstBody.id);
  });

  it("a redelivery beyond the limit is a documented 429 with Retry-After", async () => {
    const doc = await servedDocument();
    const op = await documentedOp("post", "/jobs/{id}/webhooks/{delivery_id}/redeliver");
    expect(op.responses["429"]!.headers).toHaveProperty("Retry-After");
    const key = { "X-API-Key": acct.api_key };
    const box = await webhookBox();
    const job = (await (await postJob(acct.api_key, minimalJob({ webhook_url: box.url, ...ACCEPTED }))).json()) as JobAck;
    await completeWithFiles(job.id);
    const log = await eventually(async () => {
      const list = (await (await call(`/jobs/${job.id}/webhooks`, { headers: key })).json()) as WebhookDeliveryList;
      return list.deliveries.length > 0 && list;
    }, 10_000, "a webhook delivery");
    const redeliver = () => call(`/jobs/${job.id}/webhooks/${log.deliveries[0]!.id}/redeliver`, { method: "POST", headers: key });
    let res = await redeliver();
    for (let i = 0; i < 20 && res.status === 202; i++) {
      await res.body?.cancel();
      res = await redeliver();
    }
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    await expectDocumented(doc, "post", "/jobs/{id}/webhooks/{delivery_id}/redeliver", res);
  });
});

describe("GET /docs", () => {
  it("serves the interactive reference with a server-rendered list of every endpoint and webhook", async () => {
    const doc = await servedDocument();
    const res = await call("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain(`<link rel="stylesheet" href="${REFERENCE_STYLESHEET_PATH}">`);
    expect(html).toContain(`<script src="${REFERENCE_SCRIPT_PATH}" onload="startReference()" onerror="showStaticReference()"></script>`);
    const options = JSON.parse(/SwaggerUIBundle\((\{.*?\})\);/.exec(html)![1]!) as Record<string, unknown>;
    expect(options).toMatchObject({ url: "/openapi.json", dom_id: "#app", validatorUrl: "none" });

    const fallback = html.slice(html.indexOf("<noscript"), html.indexOf("</noscript>"));
    for (const key of documentedRouteKeys(doc)) {
      const [method, path] = key.split(" ");
      expect(fallback).toContain(`<td><code>${method}</code></td><td><code>${path}</code></td>`);
    }
    for (const event of Object.keys(doc.webhooks as object)) expect(fallback).toContain(`<td><code>${event}</code></td>`);
    expect(fallback.match(/<tr><td><code>[A-Z]+<\/code><\/td>/g)).toHaveLength(documentedRouteKeys(doc).length);
    expect(fallback).not.toMatch(/<script/i);
  });

  it("loads nothing from another origin: the page names none, and its assets come from this Worker", async () => {
    const html = await (await call("/docs")).text();
    // Not one absolute URL in the page; every src and href is a path on this Worker.
    expect([...origins(html).keys()]).toEqual([]);
    const refs = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.sort()).toEqual(["/openapi.json", REFERENCE_STYLESHEET_PATH, REFERENCE_SCRIPT_PATH].sort());

    const css = await call(REFERENCE_STYLESHEET_PATH);
    expect(css.status).toBe(200);
    expect(css.headers.get("Content-Type")).toBe("text/css; charset=utf-8");
    const stylesheet = await css.text();
    expect(stylesheet).toContain(".swagger-ui");
    // The stylesheet loads only inline data: images (the SVG in them names its XML namespace), no font, no import.
    expect(stylesheet).not.toMatch(/@import|@font-face/);
    const urls = [...stylesheet.matchAll(/url\(\s*["']?([^"')]*)/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(u.startsWith("data:"), u.slice(0, 40)).toBe(true);

    const js = await call(REFERENCE_SCRIPT_PATH);
    expect(js.status).toBe(200);
    expect(js.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    const script = await js.text();
    expect(script).toContain("SwaggerUIBundle");
    expect(script.length).toBeGreaterThan(1_000_000);
    const named = [...origins(script).keys()].sort();
    expect(named.filter((o) => !(o in NAMED_NOT_FETCHED))).toEqual([]);
    // The one origin Swagger UI would fetch by default is its validator: the page turns it off (first test).
    expect(named).toContain("validator.swagger.io");
  });

  it("lets caches keep the assets and revalidate them by the package version", async () => {
    const first = await call(REFERENCE_SCRIPT_PATH);
    await first.arrayBuffer();
    expect(first.headers.get("ETag")).toBe(`"swagger-ui-${SWAGGER_UI_VERSION}"`);
    expect(first.headers.get("Cache-Control")).toBe("public, max-age=86400");
    const again = await call(REFERENCE_STYLESHEET_PATH, { headers: { "If-None-Match": `"swagger-ui-${SWAGGER_UI_VERSION}"` } });
    expect(again.status).toBe(304);
    expect(SWAGGER_UI_VERSION).toMatch(/^5\.\d+\.\d+$/);
  });
});
