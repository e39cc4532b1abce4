import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { TestProject } from "vitest/node";

/**
 * Global setup of the "worker" project (runs in Node): the OpenAPI tooling reads files and compiles code, which
 * workerd does not allow, so it runs here behind a small HTTP service the Workers-pool tests call.
 *   POST /document  {document}                  -> {valid, errors}: the whole document against the OpenAPI 3.1 schema
 *   POST /instance  {document, schema, value}   -> {valid, errors}: a value against #/components/schemas/<schema>
 *                                                  of that document (JSON Schema 2020-12, as the document says)
 */

declare module "vitest" {
  export interface ProvidedContext {
    openapiValidatorUrl: string;
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** One compiled Ajv per document text: the tests send the same document many times. */
const compiled = new Map<string, { ajv: Ajv2020; validators: Map<string, ValidateFunction> }>();

function instanceValidator(document: { components?: unknown }, schema: string): ValidateFunction {
  const key = JSON.stringify(document.components);
  let entry = compiled.get(key);
  if (!entry) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    // `#/components/schemas/X` refs resolve against this root, exactly as inside the OpenAPI document.
    ajv.addSchema({ $id: "https://openapi.test/document", components: document.components }, "document");
    entry = { ajv, validators: new Map() };
    compiled.set(key, entry);
  }
  let validate = entry.validators.get(schema);
  if (!validate) {
    validate = entry.ajv.compile({ $ref: `https://openapi.test/document#/components/schemas/${schema}` });
    entry.validators.set(schema, validate);
  }
  return validate;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const body = (await readJson(req)) as { document: Record<string, unknown>; schema?: string; value?: unknown };
        if (req.url === "/document") {
          const result = await new Validator().validate(body.document);
          return send(res, 200, { valid: result.valid, errors: result.errors ?? null });
        }
        if (req.url === "/instance" && body.schema) {
          const validate = instanceValidator(body.document, body.schema);
          const valid = validate(body.value) as boolean;
          return send(res, 200, { valid, errors: valid ? null : validate.errors });
        }
        send(res, 404, { error: "unknown" });
      } catch (error) {
        send(res, 500, { error: String(error) });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("openapiValidatorUrl", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
