import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedWebhook {
  path: string;
  event: string;
  payload: Record<string, unknown>;
  /** X-Service-Signature checked over the raw bytes with node:crypto, independently of the Worker's code. */
  signatureValid: boolean;
}

/** A webhook receiver for the chaos run: answers 200, records every delivery in arrival order. */
export async function startWebhookRecorder(secret: () => string) {
  const received: RecordedWebhook[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const expected = createHmac("sha256", secret()).update(raw).digest();
    const given = Buffer.from(String(req.headers["x-service-signature"] ?? ""), "hex");
    const body = JSON.parse(raw.toString("utf8")) as { event: string; payload: Record<string, unknown> };
    received.push({ path: req.url ?? "/", event: body.event, payload: body.payload, signatureValid: given.length === expected.length && timingSafeEqual(given, expected) });
    res.writeHead(200).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forPath: (p: string) => received.filter((r) => r.path === p),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
