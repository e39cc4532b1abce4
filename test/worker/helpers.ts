import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { ErrorEnvelope } from "../../common/contract";
import { FIXTURE_VODS } from "./fixture-vods";

export { FIXTURE_VODS };
export const ADMIN_TOKEN = "test-admin-token";
export const BASE = "https://api.test";
export const vodUrl = (id: string): string => `https://www.twitch.tv/videos/${id}`;

let ipCounter = 0;
/** A fresh client IP, so the POST /jobs rate limit of one test never throttles another. */
export function nextIp(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

/** A request to the Worker's real fetch handler (the main module, as deployed). */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`, init));
}

export function jsonInit(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

export function admin(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${ADMIN_TOKEN}` };
  if (body === undefined) return call(`/admin${path}`, { method, headers });
  return call(`/admin${path}`, jsonInit(method, body, headers));
}

export interface TestAccount {
  account_id: string;
  api_key: string;
  key_id: string;
  webhook_signing_secret: string;
  plan: string;
  credits: number;
}

export async function createAccount(
  input: { name?: string; plan?: string; credits?: number; purchase?: boolean } = {},
): Promise<TestAccount> {
  const res = await admin("POST", "/accounts", { name: input.name ?? "Test account", credits: 1000, purchase: true, ...input });
  expect(res.status).toBe(201);
  return (await res.json()) as TestAccount;
}

export function postJob(apiKey: string, body: unknown, ip: string = nextIp()): Promise<Response> {
  return call("/jobs", jsonInit("POST", body, { "X-API-Key": apiKey, "CF-Connecting-IP": ip }));
}

export function get(apiKey: string, path: string): Promise<Response> {
  return call(path, { headers: { "X-API-Key": apiKey } });
}

export function post(apiKey: string, path: string, body?: unknown): Promise<Response> {
  if (body === undefined) return call(path, { method: "POST", headers: { "X-API-Key": apiKey } });
  return call(path, jsonInit("POST", body, { "X-API-Key": apiKey }));
}

/** Asserts the error envelope and returns its body. */
export async function expectError(res: Response, status: number, code: string): Promise<ErrorEnvelope["error"]> {
  const body = (await res.json()) as ErrorEnvelope;
  expect({ status: res.status, code: body.error?.code }).toEqual({ status, code });
  expect(typeof body.error.message).toBe("string");
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error;
}

/** The 422 detail as a field -> messages map, after asserting the envelope. */
export async function expect422(res: Response): Promise<Map<string, string[]>> {
  const error = await expectError(res, 422, "validation_failed");
  const map = new Map<string, string[]>();
  for (const d of error.detail ?? []) map.set(d.field, [...(map.get(d.field) ?? []), d.message]);
  return map;
}

/** Smallest valid body: the 1 h fixture VOD with its length sent (the VOD is probed all the same). */
export const minimalJob = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  vod_url: vodUrl(FIXTURE_VODS.hour),
  vod_length_hours: 1,
  ...extra,
});

export async function accountCredits(accountId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT credits FROM accounts WHERE id = ?").bind(accountId).first<{ credits: number }>();
  return row!.credits;
}
