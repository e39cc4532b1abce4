import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AccountDetail, AccountSummary } from "../../common/contract";
import { sha256Hex } from "../../worker/src/lib/crypto";
import { admin, call, createAccount, expect422, expectError, get, jsonInit, minimalJob, post } from "./helpers";

async function detail(id: string): Promise<AccountDetail> {
  const res = await admin("GET", `/accounts/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as AccountDetail;
}

describe("operator API authorisation", () => {
  it("requires Authorization: Bearer <ADMIN_TOKEN>", async () => {
    const body = JSON.stringify({ name: "x" });
    const headers = { "Content-Type": "application/json" };
    await expectError(await call("/admin/accounts", { method: "POST", headers, body }), 401, "unauthorized");
    await expectError(await call("/admin/accounts", { method: "POST", headers: { ...headers, Authorization: "Bearer wrong" }, body }), 401, "unauthorized");
    await expectError(await call("/admin/accounts", { method: "POST", headers: { ...headers, Authorization: "test-admin-token" }, body }), 401, "unauthorized");
    await expectError(await call("/admin/accounts", { headers: { Authorization: "Bearer test-admin-token-and-more" } }), 401, "unauthorized");
    // An API key is not an admin token.
    const acct = await createAccount();
    await expectError(await call("/admin/accounts", { headers: { "X-API-Key": acct.api_key, Authorization: `Bearer ${acct.api_key}` } }), 401, "unauthorized");
  });
});

describe("accounts", () => {
  it("creates an account with a key shown once and a webhook signing secret", async () => {
    const res = await admin("POST", "/accounts", { name: "Acme Clips" });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Record<string, unknown>;
    expect(created).toEqual({
      account_id: expect.stringMatching(/^acct_[0-9A-HJKMNP-TV-Z]{26}$/),
      api_key: expect.stringMatching(/^hk_live_[a-z2-7]{32}$/),
      key_id: expect.stringMatching(/^key_[0-9A-HJKMNP-TV-Z]{26}$/),
      webhook_signing_secret: expect.stringMatching(/^whsec_[a-z2-7]{32}$/),
      plan: "free",
      credits: 0,
    });
    // Only the key's SHA-256 is stored.
    const rows = await env.DB.prepare("SELECT * FROM api_keys WHERE account_id = ?").bind(created.account_id).all<Record<string, unknown>>();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0]!.key_hash).toBe(await sha256Hex(created.api_key as string));
    expect(JSON.stringify(rows.results)).not.toContain(created.api_key as string);
    // The key works at once.
    expect((await get(created.api_key as string, "/jobs")).status).toBe(200);
    const d = await detail(created.account_id as string);
    expect(d).toMatchObject({ name: "Acme Clips", plan: "free", credits: 0, purchased: false, shorts_cap: 3, webhook_signing_secret: created.webhook_signing_secret, ledger: [] });
    expect(d.keys).toEqual([{ key_id: created.key_id, prefix: (created.api_key as string).slice(0, 12), created_at: expect.any(String), revoked_at: null }]);
  });

  it("reads null as omitted in every optional field, as the public API does (null used to be 422)", async () => {
    const res = await admin("POST", "/accounts", { name: "Nulls", plan: null, credits: null, purchase: null });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { account_id: string; plan: string; credits: number };
    expect([created.plan, created.credits]).toEqual(["free", 0]);
    const moved = await admin("POST", `/accounts/${created.account_id}/credits`, { amount: 5, reason: null, purchase: null });
    expect(await moved.json()).toEqual({ credits: 5 });
    const d = await detail(created.account_id);
    expect([d.purchased, d.ledger[0]!.kind, d.ledger[0]!.reason]).toEqual([false, "adjustment", null]);
  });

  it("validates the new account", async () => {
    const res = await admin("POST", "/accounts", { plan: "enterprise", credits: -5 });
    const d = await expect422(res);
    expect([...d.keys()].sort()).toEqual(["credits", "name", "plan"]);
    expect((await expect422(await admin("POST", "/accounts", { name: "  " }))).get("name")).toEqual(["is required"]);
  });

  it("lists accounts newest first with paging", async () => {
    const a = await createAccount({ name: "List A" });
    const b = await createAccount({ name: "List B" });
    const res = await admin("GET", "/accounts?page_size=2");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: AccountSummary[]; total: number; has_more: boolean };
    expect(body.items.map((i) => i.account_id)).toEqual([b.account_id, a.account_id]);
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect(body.items[0]).toMatchObject({ name: "List B", plan: "free", credits: 1000, purchased: true, shorts_cap: 3 });
    expect((await expect422(await admin("GET", "/accounts?page_size=500"))).has("page_size")).toBe(true);
  });

  it("answers 404 for unknown accounts", async () => {
    await expectError(await admin("GET", "/accounts/acct_nope"), 404, "account_not_found");
    await expectError(await admin("POST", "/accounts/acct_nope/keys"), 404, "account_not_found");
    await expectError(await admin("POST", "/accounts/acct_nope/credits", { amount: 5 }), 404, "account_not_found");
    await expectError(await admin("PATCH", "/accounts/acct_nope", { plan: "pro" }), 404, "account_not_found");
  });
});

describe("API keys", () => {
  it("adds keys and revokes one; the revoked key gets 401, the others keep working", async () => {
    const acct = await createAccount();
    const res = await admin("POST", `/accounts/${acct.account_id}/keys`);
    expect(res.status).toBe(201);
    const second = (await res.json()) as { api_key: string; key_id: string };
    expect(second.api_key).toMatch(/^hk_live_[a-z2-7]{32}$/);
    expect(second.api_key).not.toBe(acct.api_key);
    expect((await get(second.api_key, "/jobs")).status).toBe(200);

    const revoke = await admin("DELETE", `/accounts/${acct.account_id}/keys/${acct.key_id}`);
    expect(revoke.status).toBe(200);
    const revoked = (await revoke.json()) as { key_id: string; revoked_at: string };
    expect(revoked).toMatchObject({ key_id: acct.key_id, revoked_at: expect.any(String) });
    await expectError(await get(acct.api_key, "/jobs"), 401, "invalid_api_key");
    expect((await get(second.api_key, "/jobs")).status).toBe(200);
    // Revoking again keeps the first revocation time; unknown keys and other accounts' keys are 404.
    const again = (await (await admin("DELETE", `/accounts/${acct.account_id}/keys/${acct.key_id}`)).json()) as { revoked_at: string };
    expect(again.revoked_at).toBe(revoked.revoked_at);
    await expectError(await admin("DELETE", `/accounts/${acct.account_id}/keys/key_nope`), 404, "key_not_found");
    const other = await createAccount();
    await expectError(await admin("DELETE", `/accounts/${other.account_id}/keys/${second.key_id}`), 404, "key_not_found");
    expect((await get(second.api_key, "/jobs")).status).toBe(200);
    const keys = (await detail(acct.account_id)).keys;
    expect(keys.find((k) => k.key_id === acct.key_id)!.revoked_at).not.toBeNull();
    expect(keys.find((k) => k.key_id === second.key_id)!.revoked_at).toBeNull();
  });
});

describe("credits and plans", () => {
  it("records every movement in the ledger; a purchase lifts the never-purchased cap", async () => {
    const acct = await createAccount({ plan: "pro", credits: 100, purchase: false });
    let d = await detail(acct.account_id);
    expect(d).toMatchObject({ credits: 100, purchased: false, shorts_cap: 3 });
    const estimateShorts = async () =>
      ((await (await post(acct.api_key, "/jobs/estimate", minimalJob({ num_shorts: 10 }))).json()) as { request: { num_shorts: number } }).request.num_shorts;
    expect(await estimateShorts()).toBe(3);

    const bought = await admin("POST", `/accounts/${acct.account_id}/credits`, { amount: 500, purchase: true, reason: "order 42" });
    expect(bought.status).toBe(200);
    expect(await bought.json()).toEqual({ credits: 600 });
    expect(await estimateShorts()).toBe(10);

    expect(await (await admin("POST", `/accounts/${acct.account_id}/credits`, { amount: -50, reason: "goodwill correction" })).json()).toEqual({ credits: 550 });
    d = await detail(acct.account_id);
    expect(d).toMatchObject({ credits: 550, purchased: true, shorts_cap: 10 });
    expect(d.ledger.map((e) => [e.kind, e.amount, e.balance_after, e.reason])).toEqual([
      ["adjustment", -50, 550, "goodwill correction"],
      ["purchase", 500, 600, "order 42"],
      ["adjustment", 100, 100, "opening balance"],
    ]);
  });

  it("refuses a change that would make the balance negative, and nonsense amounts", async () => {
    const acct = await createAccount({ credits: 30 });
    const d = await expect422(await admin("POST", `/accounts/${acct.account_id}/credits`, { amount: -31 }));
    expect(d.get("amount")!.join()).toMatch(/negative \(balance is 30\)/);
    expect((await detail(acct.account_id)).credits).toBe(30);
    expect((await expect422(await admin("POST", `/accounts/${acct.account_id}/credits`, { amount: 0 }))).get("amount")).toEqual(["must not be 0"]);
    expect((await expect422(await admin("POST", `/accounts/${acct.account_id}/credits`, { amount: 2.5 }))).get("amount")).toEqual(["must be an integer"]);
    expect((await expect422(await admin("POST", `/accounts/${acct.account_id}/credits`, { amount: -5, purchase: true }))).get("amount")).toEqual(["must be positive for a purchase"]);
    expect((await admin("POST", `/accounts/${acct.account_id}/credits`, { amount: -30 })).status).toBe(200);
    expect((await detail(acct.account_id)).credits).toBe(0);
  });

  it("changes the plan, which changes the shorts cap", async () => {
    const acct = await createAccount({ plan: "free", credits: 100, purchase: true });
    const res = await admin("PATCH", `/accounts/${acct.account_id}`, { plan: "starter" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ plan: "starter", shorts_cap: 5 });
    const est = (await (await post(acct.api_key, "/jobs/estimate", minimalJob({ num_shorts: 9 }))).json()) as { request: { num_shorts: number } };
    expect(est.request.num_shorts).toBe(5);
    expect((await expect422(await admin("PATCH", `/accounts/${acct.account_id}`, { plan: "gold" }))).has("plan")).toBe(true);
    await expectError(await call(`/admin/accounts/${acct.account_id}`, jsonInit("PUT", { plan: "pro" }, { Authorization: "Bearer test-admin-token" })), 405, "method_not_allowed");
  });
});
