import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  event: string;
  payload: Record<string, unknown>;
  /** Checked here with node:crypto, independently of the project's signing code. */
  signatureValid: boolean;
}

/**
 * A real webhook receiver: verifies X-Service-Signature over the raw bytes as received with node:crypto,
 * answers with the status configured for its path (default 200) and records everything.
 */
export async function startWebhookReceiver(secret: () => string) {
  const received: ReceivedWebhook[] = [];
  const statusFor = new Map<string, number>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const expected = createHmac("sha256", secret()).update(raw).digest();
    const given = Buffer.from(String(req.headers["x-service-signature"] ?? ""), "hex");
    const signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
    const body = JSON.parse(raw.toString("utf8")) as { event: string; payload: Record<string, unknown> };
    const path = req.url ?? "/";
    received.push({ path, headers: req.headers, raw, event: body.event, payload: body.payload, signatureValid });
    res.writeHead(statusFor.get(path) ?? 200).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    setStatus: (path: string, status: number) => statusFor.set(path, status),
    forPath: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
