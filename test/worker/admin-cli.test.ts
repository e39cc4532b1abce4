import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runAdminCli } from "../../scripts/admin";
import { ADMIN_TOKEN, get } from "./helpers";

/** The operator CLI, talking HTTP to the real Worker (its fetch goes to the main module instead of a socket). */
async function cli(argv: string[], env: Record<string, string | undefined> = { ADMIN_TOKEN, HIGHLIGHT_API_URL: "https://api.test/" }) {
  const out: string[] = [];
  const err: string[] = [];
  const requests: string[] = [];
  const code = await runAdminCli(argv, {
    fetch: (input, init) => {
      requests.push(`${init?.method ?? "GET"} ${input}`);
      return exports.default.fetch(new Request(input, init));
    },
    env,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join("\n"), err: err.join("\n"), requests, json: () => JSON.parse(out.join("\n")) as Record<string, unknown> };
}

describe("admin CLI", () => {
  it("runs an operator's whole workflow", async () => {
    const created = await cli(["create-account", "--name", "CLI Co", "--plan", "pro", "--credits", "1000", "--purchase"]);
    expect(created.code).toBe(0);
    expect(created.requests).toEqual(["POST https://api.test/admin/accounts"]);
    const acct = created.json() as { account_id: string; api_key: string; key_id: string; plan: string; credits: number };
    expect(acct).toMatchObject({ plan: "pro", credits: 1000 });
    expect((await get(acct.api_key, "/jobs")).status).toBe(200);

    const key = await cli(["add-key", acct.account_id]);
    expect(key.code).toBe(0);
    const second = key.json() as { api_key: string; key_id: string };

    expect((await cli(["revoke-key", acct.account_id, acct.key_id])).code).toBe(0);
    expect((await get(acct.api_key, "/jobs")).status).toBe(401);
    expect((await get(second.api_key, "/jobs")).status).toBe(200);

    const credits = await cli(["credits", acct.account_id, "--amount", "-250", "--reason", "refund of order 7"]);
    expect(credits.json()).toEqual({ credits: 750 });
    expect((await cli(["set-plan", "--account", acct.account_id, "--plan", "starter"])).json()).toMatchObject({ plan: "starter", shorts_cap: 5 });

    const shown = await cli(["show", acct.account_id, "--ledger-limit", "1"]);
    expect(shown.json()).toMatchObject({ account_id: acct.account_id, plan: "starter", credits: 750, purchased: true });
    expect((shown.json().ledger as unknown[]).length).toBe(1);
    expect(shown.requests).toEqual([`GET https://api.test/admin/accounts/${acct.account_id}?ledger_limit=1`]);

    const listed = await cli(["list-accounts", "--page-size", "100"]);
    expect((listed.json().items as { account_id: string }[]).some((a) => a.account_id === acct.account_id)).toBe(true);
  });

  it("exits 1 and prints the error envelope when the API refuses", async () => {
    const res = await cli(["show", "acct_missing"]);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/HTTP 404/);
    expect(res.err).toMatch(/account_not_found/);
    const bad = await cli(["show", "acct_missing"], { ADMIN_TOKEN: "wrong", HIGHLIGHT_API_URL: "https://api.test" });
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/unauthorized/);
    const token = await cli(["show", "acct_missing", "--token", ADMIN_TOKEN, "--url", "https://api.test"], {});
    expect(token.requests).toEqual(["GET https://api.test/admin/accounts/acct_missing"]);
  });

  it("exits 2 on usage errors without calling the API", async () => {
    for (const argv of [[], ["explode"], ["create-account"], ["credits", "acct_x", "--amount", "lots"], ["revoke-key", "acct_x"], ["set-plan", "acct_x", "--plan"]]) {
      const res = await cli(argv);
      expect(res.code, argv.join(" ")).toBe(2);
      expect(res.requests).toEqual([]);
    }
    const noToken = await cli(["list-accounts"], {});
    expect(noToken.code).toBe(2);
    expect(noToken.err).toMatch(/admin token is required/);
  });
});
