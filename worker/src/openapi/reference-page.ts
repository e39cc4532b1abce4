import type { OpenApiDocument } from "./document";

/**
 * The /docs page. Scalar's standalone bundle (pinned version, Subresource Integrity) renders /openapi.json
 * interactively. The same page carries a plain list of every endpoint and webhook rendered here from the
 * document: shown by <noscript> without JavaScript, and put in place by the script's onerror handler when the
 * CDN cannot be reached (offline, blocked), so the page is never empty.
 */
export const SCALAR_VERSION = "1.72.1";
export const SCALAR_SCRIPT_URL = `https://cdn.jsdelivr.net/npm/@scalar/api-reference@${SCALAR_VERSION}/dist/browser/standalone.js`;
/** sha384 of dist/browser/standalone.js in the npm tarball of that version (jsDelivr serves the file unchanged). */
export const SCALAR_SCRIPT_INTEGRITY = "sha384-U11tb2XnKvmwt8RlTvnwUnYgrN+ur4Xyh9htLhjajWNR/Oyl5AX5DEz00qRmlrmK";

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

export function referencePage(doc: OpenApiDocument, specUrl = "/openapi.json"): string {
  const info = doc.info as { title: string };
  const fallback = staticReference(doc, specUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title>
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
  Scalar.createApiReference("#app", { url: ${JSON.stringify(specUrl)} });
}
</script>
<script src="${SCALAR_SCRIPT_URL}" integrity="${SCALAR_SCRIPT_INTEGRITY}" crossorigin="anonymous" onload="startReference()" onerror="showStaticReference()"></script>
</body>
</html>
`;
}
