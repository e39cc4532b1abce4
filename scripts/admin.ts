/**
 * Operator CLI over the Worker's admin API (what a dashboard would do):
 *
 *   npm run admin -- create-account --name "Acme" [--plan pro] [--credits 1000] [--purchase]
 *   npm run admin -- list-accounts [--page 1] [--page-size 20]
 *   npm run admin -- show <account_id> [--ledger-limit 50]
 *   npm run admin -- add-key <account_id>
 *   npm run admin -- revoke-key <account_id> <key_id>
 *   npm run admin -- credits <account_id> --amount 500 [--reason "order 42"] [--purchase]
 *   npm run admin -- set-plan <account_id> --plan starter
 *
 * Global options: --url (or HIGHLIGHT_API_URL, default http://127.0.0.1:8787) and --token (or ADMIN_TOKEN).
 * Prints the JSON answer; exits 1 on an API error (printing its envelope) and 2 on a usage error.
 */

export interface CliIo {
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
}

interface ParsedArgs {
  positionals: string[];
  options: Map<string, string | true>;
}

const FLAGS = new Set(["purchase", "help"]);

export const USAGE = `usage: admin <command> [args] [--url URL] [--token TOKEN]
commands:
  create-account --name NAME [--plan free|starter|pro|studio] [--credits N] [--purchase]
  list-accounts [--page N] [--page-size N]
  show <account_id> [--ledger-limit N]
  add-key <account_id>
  revoke-key <account_id> <key_id>
  credits <account_id> --amount N [--reason TEXT] [--purchase]
  set-plan <account_id> --plan free|starter|pro|studio`;

class UsageError extends Error {}

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (eq !== -1) options.set(name, arg.slice(eq + 1));
    else if (FLAGS.has(name)) options.set(name, true);
    else {
      const value = argv[i + 1];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
      i++;
    }
  }
  return { positionals, options };
}

function text(args: ParsedArgs, name: string): string | undefined {
  const v = args.options.get(name);
  return typeof v === "string" ? v : undefined;
}

function required(args: ParsedArgs, name: string): string {
  const v = text(args, name);
  if (v === undefined || v === "") throw new UsageError(`--${name} is required`);
  return v;
}

function integer(value: string, name: string): number {
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number (got ${value})`);
  return Number(value);
}

/** The account id: first positional after the command, or --account. */
function accountId(args: ParsedArgs): string {
  const id = args.positionals[1] ?? text(args, "account");
  if (!id) throw new UsageError("an account id is required");
  return encodeURIComponent(id);
}

interface Call {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
}

function buildCall(args: ParsedArgs): Call {
  const command = args.positionals[0];
  switch (command) {
    case "create-account": {
      const body: Record<string, unknown> = { name: required(args, "name") };
      const plan = text(args, "plan");
      const credits = text(args, "credits");
      if (plan) body.plan = plan;
      if (credits !== undefined) body.credits = integer(credits, "credits");
      if (args.options.get("purchase") === true) body.purchase = true;
      return { method: "POST", path: "/admin/accounts", body };
    }
    case "list-accounts": {
      const query = new URLSearchParams();
      const page = text(args, "page");
      const size = text(args, "page-size");
      if (page) query.set("page", String(integer(page, "page")));
      if (size) query.set("page_size", String(integer(size, "page-size")));
      const qs = query.toString();
      return { method: "GET", path: `/admin/accounts${qs ? `?${qs}` : ""}` };
    }
    case "show": {
      const limit = text(args, "ledger-limit");
      return { method: "GET", path: `/admin/accounts/${accountId(args)}${limit ? `?ledger_limit=${integer(limit, "ledger-limit")}` : ""}` };
    }
    case "add-key":
      return { method: "POST", path: `/admin/accounts/${accountId(args)}/keys` };
    case "revoke-key": {
      const keyId = args.positionals[2] ?? text(args, "key");
      if (!keyId) throw new UsageError("a key id is required");
      return { method: "DELETE", path: `/admin/accounts/${accountId(args)}/keys/${encodeURIComponent(keyId)}` };
    }
    case "credits": {
      const body: Record<string, unknown> = { amount: integer(required(args, "amount"), "amount") };
      const reason = text(args, "reason");
      if (reason) body.reason = reason;
      if (args.options.get("purchase") === true) body.purchase = true;
      return { method: "POST", path: `/admin/accounts/${accountId(args)}/credits`, body };
    }
    case "set-plan":
      return { method: "PATCH", path: `/admin/accounts/${accountId(args)}`, body: { plan: required(args, "plan") } };
    default:
      throw new UsageError(command ? `unknown command: ${command}` : "a command is required");
  }
}

export async function runAdminCli(argv: string[], io: CliIo): Promise<number> {
  let call: Call;
  let baseUrl: string;
  let token: string;
  try {
    const args = parseArgs(argv);
    if (args.options.get("help") === true || args.positionals.length === 0) {
      io.out(USAGE);
      return args.options.get("help") === true ? 0 : 2;
    }
    call = buildCall(args);
    baseUrl = (text(args, "url") ?? io.env.HIGHLIGHT_API_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
    token = text(args, "token") ?? io.env.ADMIN_TOKEN ?? "";
    if (!token) throw new UsageError("an admin token is required (--token or ADMIN_TOKEN)");
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`admin: ${error.message}\n${USAGE}`);
    return 2;
  }

  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (call.body !== undefined) headers["Content-Type"] = "application/json";
  let res: Response;
  try {
    res = await io.fetch(`${baseUrl}${call.path}`, {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
  } catch (error) {
    io.err(`admin: cannot reach ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const raw = await res.text();
  let pretty = raw;
  try {
    pretty = JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    // Not JSON (a proxy error page): print it as it came.
  }
  if (!res.ok) {
    io.err(`admin: HTTP ${res.status}\n${pretty}`);
    return 1;
  }
  io.out(pretty);
  return 0;
}

/** Present when run by Node (tsx); this file is also imported by tests running in workerd. */
const nodeProcess = (globalThis as { process?: { argv: string[]; env: Record<string, string | undefined>; exitCode?: number } }).process;
if (nodeProcess?.argv[1] && /admin\.[cm]?[jt]s$/.test(nodeProcess.argv[1])) {
  const code = await runAdminCli(nodeProcess.argv.slice(2), {
    fetch: (input, init) => fetch(input, init),
    env: nodeProcess.env,
    out: (t) => console.log(t),
    err: (t) => console.error(t),
  });
  nodeProcess.exitCode = code;
}
