import { readFile, writeFile } from "node:fs/promises";

export interface DevAccount {
  api_url: string;
  account_id: string;
  api_key: string;
  webhook_signing_secret: string;
}

async function admin(apiUrl: string, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/**
 * The development account of the local stack: created once through the operator API (pro plan, purchased,
 * plenty of credits) and remembered in a file, so restarting the stack keeps the same key and secret.
 */
export async function ensureDevAccount(apiUrl: string, adminToken: string, file: string): Promise<DevAccount> {
  try {
    const saved = JSON.parse(await readFile(file, "utf8")) as DevAccount;
    const res = await admin(apiUrl, adminToken, "GET", `/admin/accounts/${saved.account_id}`);
    if (res.ok) {
      const account = (await res.json()) as { credits: number };
      if (account.credits < 2000) await admin(apiUrl, adminToken, "POST", `/admin/accounts/${saved.account_id}/credits`, { amount: 5000, reason: "dev top-up", purchase: true });
      return { ...saved, api_url: apiUrl };
    }
  } catch {
    /* first run */
  }
  const res = await admin(apiUrl, adminToken, "POST", "/admin/accounts", { name: "Local developer", plan: "pro", credits: 0 });
  if (res.status !== 201) throw new Error(`creating the dev account failed: HTTP ${res.status} ${await res.text()}`);
  const created = (await res.json()) as { account_id: string; api_key: string; webhook_signing_secret: string };
  const topUp = await admin(apiUrl, adminToken, "POST", `/admin/accounts/${created.account_id}/credits`, { amount: 10000, reason: "dev account", purchase: true });
  if (!topUp.ok) throw new Error(`crediting the dev account failed: HTTP ${topUp.status} ${await topUp.text()}`);
  const account: DevAccount = { api_url: apiUrl, account_id: created.account_id, api_key: created.api_key, webhook_signing_secret: created.webhook_signing_secret };
  await writeFile(file, JSON.stringify(account, null, 2) + "\n", { mode: 0o600 });
  return account;
}
