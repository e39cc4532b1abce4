import type { OpenApiDocument } from "./document";

/**
 * The /docs page. Swagger UI (the swagger-ui-dist npm package, served by this Worker from /docs/swagger-ui.js and
 * /docs/swagger-ui.css: no CDN) renders /openapi.json interactively, with its online validator badge off so the
 * page fetches nothing from anywhere else. The same page carries a plain list of every endpoint and webhook
 * rendered here from the document: shown by <noscript> without JavaScript, and put in place by the script's
 * onerror handler when the script cannot load, so the page is never empty.
 */
export const REFERENCE_SCRIPT_PATH = "/docs/swagger-ui.js";
export const REFERENCE_STYLESHEET_PATH = "/docs/swagger-ui.css";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

interface OperationView {
  summary?: string;
  description?: string;
  security?: Array<Record<string, unknown>>;
  tags?: string[];
  responses?: Record<string, { description?: string }>;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
}

function authLabel(op: OperationView): string {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  // Presigned links carry their credential as ordinary query parameters, not as a security scheme.
  if (schemes.length === 0) return op.parameters?.some((p) => p.in === "query" && p.name === "sig" && p.required) ? "signed link" : "public";
  return schemes.join(" or ");
}

function operationRows(doc: OpenApiDocument): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as OperationView | undefined;
      if (!op) continue;
      const statuses = Object.keys(op.responses ?? {}).join(" ");
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td>` +
          `<td>${escapeHtml(op.summary ?? "")}</td><td>${escapeHtml(authLabel(op))}</td><td>${escapeHtml(statuses)}</td></tr>`,
      );
    }
  }
  return rows.join("\n");
}

function webhookRows(doc: OpenApiDocument): string {
  const hooks = (doc.webhooks ?? {}) as Record<string, { post?: OperationView }>;
  return Object.entries(hooks)
    .map(([name, item]) => `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(item.post?.summary ?? "")}</td></tr>`)
    .join("\n");
}

/** The endpoint list without any script: what a reader gets offline or with JavaScript off. */
export function staticReference(doc: OpenApiDocument, specUrl: string): string {
  const info = doc.info as { title: string; version: string; summary?: string };
  return `<main class="fallback">
<h1>${escapeHtml(info.title)} <small>v${escapeHtml(info.version)}</small></h1>
<p>${escapeHtml(info.summary ?? "")}</p>
<p>The full reference (schemas, examples, error codes, pricing, versioning) is the OpenAPI 3.1 document at
<a href="${escapeHtml(specUrl)}">${escapeHtml(specUrl)}</a>. Authenticate with <code>X-API-Key</code>.</p>
<h2>Endpoints</h2>
<table>
<thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Auth</th><th>Responses</th></tr></thead>
<tbody>
${operationRows(doc)}
</tbody>
</table>
<h2>Webhooks</h2>
<p>POSTed to the job's <code>webhook_url</code> as <code>{event, payload}</code>, signed in <code>X-Service-Signature</code>
(hex HMAC-SHA256 of the raw body with the account's webhook signing secret).</p>
<table>
<thead><tr><th>Event</th><th>Sent when</th></tr></thead>
<tbody>
${webhookRows(doc)}
</tbody>
</table>
</main>`;
}

/** Swagger UI's options: the document, this page's element, and no request to the swagger.io validator. */
export function swaggerUiOptions(specUrl: string): Record<string, unknown> {
  return { url: specUrl, dom_id: "#app", validatorUrl: "none", deepLinking: true, displayRequestDuration: true };
}

export function referencePage(doc: OpenApiDocument, specUrl = "/openapi.json"): string {
  const info = doc.info as { title: string };
  const fallback = staticReference(doc, specUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title>
<link rel="stylesheet" href="${REFERENCE_STYLESHEET_PATH}">
<style>
.fallback { font: 15px/1.5 system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; }
.fallback table { border-collapse: collapse; width: 100%; }
.fallback th, .fallback td { border-bottom: 1px solid #ddd; padding: .35rem .5rem; text-align: left; vertical-align: top; }
</style>
</head>
<body>
<div id="app"></div>
<noscript id="static-reference">
${fallback}
</noscript>
<script>
function showStaticReference() {
  var holder = document.getElementById("static-reference");
  var target = document.getElementById("app");
  if (holder && target) target.innerHTML = holder.textContent || "";
}
function startReference() {
  window.ui = SwaggerUIBundle(${JSON.stringify(swaggerUiOptions(specUrl))});
}
</script>
<script src="${REFERENCE_SCRIPT_PATH}" onload="startReference()" onerror="showStaticReference()"></script>
</body>
</html>
`;
}
