import { describe, expect, it } from "vitest";
import { z } from "zod";
import { boundedIntString, FeedbackInput } from "../../common/contract";
import { onError } from "../../worker/src/middleware/errors";
import { ApiRouter } from "../../worker/src/openapi/api-router";
import { declareRoute } from "../../worker/src/openapi/declare-route";
import { buildOpenApiDocument } from "../../worker/src/openapi/document";
import { appRouteKeys, documentedRouteKeys } from "./openapi-helpers";

/**
 * The mechanism behind "one declaration per route" (worker/src/openapi/declare-route.ts, api-router.ts): what a
 * route declares is what it checks and what the document shows. The real routes are covered end to end by
 * openapi.test.ts; these build a small app of their own so each rule is seen in isolation.
 */

const ThingQuery = z.object({ n: boundedIntString(10).meta({ description: "A number, 1-10." }) });
const Thing = z.object({ id: z.string(), n: z.number() });
const ThingParams = z.object({ id: z.string().meta({ description: "Thing id." }) });

function thingApp() {
  const things = new ApiRouter();
  things.openapi(
    declareRoute({
      method: "get",
      path: "/{id}",
      operationId: "getThing",
      tag: "jobs",
      summary: "One thing",
      auth: "public",
      params: ThingParams,
      query: ThingQuery,
      success: { status: 200, description: "The thing.", schema: Thing },
      errors: [],
    }),
    (c) => c.json({ id: c.req.valid("param").id, n: c.req.valid("query").n }, 200),
  );
  things.openapi(
    declareRoute({
      method: "post",
      path: "/{id}/feedback",
      operationId: "rateThing",
      tag: "jobs",
      summary: "Rate a thing",
      auth: "public",
      params: ThingParams,
      body: { schema: FeedbackInput, examples: { up: { summary: "Thumbs up", value: { positive: true } } } },
      success: { status: 204, description: "Stored." },
      errors: [],
    }),
    (c) => c.body(null, 204),
  );
  const app = new ApiRouter();
  app.route("/things", things);
  app.onError(onError);
  return app;
}

const json = (body: string, contentType = "application/json") => ({ method: "POST", body, headers: { "Content-Type": contentType } });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; detail?: unknown } }).error;

describe("a declared route", () => {
  it("is in the document with its parameters, answers and the errors its checks can give", () => {
    const doc = buildOpenApiDocument(thingApp().openAPIRegistry.definitions);
    expect(Object.keys(doc.paths)).toEqual(["/things/{id}", "/things/{id}/feedback"]);
    const get = doc.paths["/things/{id}"]!.get as { parameters: unknown[]; responses: Record<string, { description: string; content?: unknown }> };
    expect(get.parameters).toEqual([
      { name: "id", in: "path", required: true, description: "Thing id.", schema: { type: "string" } },
      { name: "n", in: "query", required: true, description: "A number, 1-10.", schema: { type: "string", pattern: "^\\d+$" } },
    ]);
    expect(Object.keys(get.responses)).toEqual(["200", "422", "500"]);
    // A schema of the contract's published ones would be a $ref (the body below); any other is inlined.
    expect(get.responses["200"]!.content).toEqual({
      "application/json": { schema: { type: "object", properties: { id: { type: "string" }, n: { type: "number" } }, required: ["id", "n"] } },
    });

    const post = doc.paths["/things/{id}/feedback"]!.post as { requestBody: unknown; responses: Record<string, { description: string }> };
    expect(post.requestBody).toEqual({
      required: true,
      content: {
        "application/json": { schema: { $ref: "#/components/schemas/FeedbackRequest" }, examples: { up: { summary: "Thumbs up", value: { positive: true } } } },
      },
    });
    // The body's checks (size, type, JSON, validation) come with the declaration, and so do their codes.
    expect(Object.keys(post.responses)).toEqual(["204", "400", "413", "415", "422", "500"]);
  });

  it("validates its query with the API's 422: client messages, every field, a repeated parameter named", async () => {
    const app = thingApp();
    const ok = await app.request("/things/t1?n=3");
    expect([ok.status, await ok.json()]).toEqual([200, { id: "t1", n: 3 }]);

    const bad = await app.request("/things/t1?n=99");
    expect(bad.status).toBe(422);
    expect(await errorOf(bad)).toEqual({
      code: "validation_failed",
      message: "Invalid request: n must be between 1 and 10.",
      detail: [{ field: "n", message: "must be between 1 and 10" }],
    });
    const missing = await app.request("/things/t1");
    expect((await errorOf(missing)).detail).toEqual([{ field: "n", message: "is required" }]);
    const repeated = await app.request("/things/t1?n=1&n=2");
    expect([repeated.status, (await errorOf(repeated)).detail]).toEqual([422, [{ field: "n", message: "must be given once" }]]);
    // Also a parameter the schema does not know: the rule is about the query, not about one schema.
    const unknown = await app.request("/things/t1?n=1&x=1&x=2");
    expect([unknown.status, (await errorOf(unknown)).detail]).toEqual([422, [{ field: "x", message: "must be given once" }]]);
  });

  it("checks its JSON body in the API's order: size, type, JSON, then the schema", async () => {
    const app = thingApp();
    const post = (init: RequestInit) => app.request("/things/t1/feedback", init);
    expect((await post(json('{"positive":true}'))).status).toBe(204);
    expect(await errorOf(await post(json("x".repeat(70_000))))).toMatchObject({ code: "payload_too_large" });
    expect(await errorOf(await post(json("{}", "text/plain")))).toMatchObject({ code: "unsupported_media_type" });
    expect(await errorOf(await post(json("{")))).toMatchObject({ code: "invalid_json" });
    const invalid = await post(json('{"positive":"yes","notes":7}'));
    expect(invalid.status).toBe(422);
    expect((await errorOf(invalid)).detail).toEqual([
      { field: "positive", message: "must be true or false" },
      { field: "notes", message: "must be a string" },
    ]);
    // A media type requireJson accepts but the library's own check does not (a bare trailing `;`) is the same 415
    // envelope, never the library's plain-text answer.
    const odd = await post(json('{"positive":true}', "application/json;"));
    expect([odd.status, (await errorOf(odd)).code]).toEqual([415, "unsupported_media_type"]);
  });
});

describe("a route without a declaration", () => {
  it("is served but not documented, which the route coverage check of openapi.test.ts sees", async () => {
    const app = thingApp();
    app.get("/things/:id/secret", (c) => c.text("undocumented"));
    expect((await app.request("/things/t1/secret")).status).toBe(200);
    const doc = buildOpenApiDocument(app.openAPIRegistry.definitions);
    const served = appRouteKeys(app.routes);
    expect(served.filter((key) => !documentedRouteKeys(doc).includes(key))).toEqual(["GET /things/{id}/secret"]);
  });
});

describe("a declaration that cannot be right is refused", () => {
  it("path parameters that differ from the path's {names}", () => {
    const declare = (params?: z.ZodObject) =>
      declareRoute({ method: "get", path: "/x/{id}", operationId: "x", tag: "jobs", summary: "x", auth: "public", params, success: { status: 204, description: "-" }, errors: [] });
    expect(() => declare()).toThrow("GET /x/{id} declares path parameters [], its path has [id]");
    expect(() => declare(z.object({ job: z.string() }))).toThrow("declares path parameters [job], its path has [id]");
    expect(() => declare(z.object({ id: z.string() }))).not.toThrow();
  });

  it("the same method and path twice", () => {
    const router = new ApiRouter();
    const route = declareRoute({ method: "get", path: "/x", operationId: "x", tag: "jobs", summary: "x", auth: "public", success: { status: 204, description: "-" }, errors: [] });
    router.openapi(route, (c) => c.body(null, 204));
    router.openapi(route, (c) => c.body(null, 204));
    expect(() => buildOpenApiDocument(router.openAPIRegistry.definitions)).toThrow(/GET \/x is declared twice/);
  });

  it("a body the handler validates that is not a published schema", () => {
    expect(() =>
      declareRoute({
        method: "post",
        path: "/x",
        operationId: "x",
        tag: "jobs",
        summary: "x",
        auth: "public",
        handlerBody: { schema: z.object({ a: z.string() }), examples: {} },
        success: { status: 204, description: "-" },
        errors: [],
      }),
    ).toThrow(/named request schema/);
  });
});
