import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseWebhook, verifyWebhook, WebhookVerificationError } from "../../../common/client";

/** Signatures are made here with node:crypto, independently of the Web Crypto code under test. */
const SECRET = "whsec_abcdefghijklmnopqrstuvwxyz234567";
const sign = (secret: string, data: string | Buffer) => createHmac("sha256", secret).update(data).digest("hex");

const body = JSON.stringify({
  event: "job.failed",
  payload: { job_id: "job_01JABCDEF", status: "failed", error: "Cancelled by user — dommage ✂", error_code: "cancelled_by_user", refunded_credits: 57 },
});
const NOW = 1_780_000_000_000;
const t = Math.floor(NOW / 1000) - 30;
const timestamped = (secret = SECRET, ts = t, raw: string | Buffer = body) =>
  `t=${ts},v1=${sign(secret, Buffer.concat([Buffer.from(`${ts}.`), Buffer.from(raw)]))}`;

describe("verifyWebhook", () => {
  it("accepts the X-Service-Signature over the raw body, as a string, bytes or an ArrayBuffer", async () => {
    const signature = sign(SECRET, body);
    const bytes = new TextEncoder().encode(body);
    expect(await verifyWebhook({ rawBody: body, signature, secret: SECRET })).toEqual({ ok: true, timestamp: null });
    expect(await verifyWebhook({ rawBody: bytes, signature, secret: SECRET })).toEqual({ ok: true, timestamp: null });
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    expect(await verifyWebhook({ rawBody: buffer, signature, secret: SECRET })).toEqual({ ok: true, timestamp: null });
    expect(await verifyWebhook({ rawBody: body, signature: signature.toUpperCase(), secret: SECRET })).toMatchObject({ ok: true });
  });

  it("checks raw bytes that are not valid UTF-8 without decoding them", async () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]);
    const signature = sign(SECRET, raw);
    expect(await verifyWebhook({ rawBody: new Uint8Array(raw), signature, secret: SECRET })).toMatchObject({ ok: true });
    // Decoding to a string would replace the invalid bytes and change what was signed.
    expect(await verifyWebhook({ rawBody: raw.toString("utf8"), signature, secret: SECRET })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("rejects a tampered body, a re-serialised body and a wrong secret", async () => {
    const signature = sign(SECRET, body);
    const tampered = body.replace('"refunded_credits":57', '"refunded_credits":570');
    expect(await verifyWebhook({ rawBody: tampered, signature, secret: SECRET })).toEqual({ ok: false, reason: "signature_mismatch" });
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    expect(await verifyWebhook({ rawBody: reserialised, signature, secret: SECRET })).toEqual({ ok: false, reason: "signature_mismatch" });
    expect(await verifyWebhook({ rawBody: body, signature, secret: `${SECRET}x` })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("rejects missing, truncated, non-hex and empty signatures", async () => {
    const signature = sign(SECRET, body);
    expect(await verifyWebhook({ rawBody: body, secret: SECRET })).toEqual({ ok: false, reason: "missing_signature" });
    expect(await verifyWebhook({ rawBody: body, signature: "", secret: SECRET })).toEqual({ ok: false, reason: "missing_signature" });
    for (const bad of [signature.slice(0, 62), `${signature}00`, signature.replace(/^../, "zz"), "abc"]) {
      expect(await verifyWebhook({ rawBody: body, signature: bad, secret: SECRET })).toEqual({ ok: false, reason: "signature_mismatch" });
    }
  });

  it("accepts a fresh timestamped signature and reports its time", async () => {
    const result = await verifyWebhook({
      rawBody: body,
      signature: sign(SECRET, body),
      secret: SECRET,
      timestamp: String(t),
      timestampedSignature: timestamped(),
      now: NOW,
    });
    expect(result).toEqual({ ok: true, timestamp: t });
    // The timestamped header alone is enough; its parts may come in any order.
    const [tPart, vPart] = timestamped().split(",");
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, timestampedSignature: `${vPart},${tPart}`, now: NOW })).toEqual({ ok: true, timestamp: t });
  });

  it("rejects stale and future timestamps outside the tolerance", async () => {
    const old = t - 600;
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, timestampedSignature: timestamped(SECRET, old), now: NOW })).toEqual({
      ok: false,
      reason: "stale_timestamp",
    });
    const future = Math.floor(NOW / 1000) + 400;
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, timestampedSignature: timestamped(SECRET, future), now: NOW })).toEqual({
      ok: false,
      reason: "stale_timestamp",
    });
    expect(
      await verifyWebhook({ rawBody: body, secret: SECRET, timestampedSignature: timestamped(SECRET, old), now: NOW, toleranceSeconds: 3600 }),
    ).toEqual({ ok: true, timestamp: old });
  });

  it("rejects a timestamp swapped into the header without re-signing, and a mismatched X-Service-Timestamp", async () => {
    const forged = timestamped().replace(`t=${t}`, `t=${t + 20}`);
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, timestampedSignature: forged, now: NOW })).toEqual({ ok: false, reason: "signature_mismatch" });
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, timestamp: t + 1, timestampedSignature: timestamped(), now: NOW })).toEqual({
      ok: false,
      reason: "timestamp_mismatch",
    });
  });

  it("rejects a timestamped signature of another body or secret even when the plain one is valid", async () => {
    const signature = sign(SECRET, body);
    expect(
      await verifyWebhook({ rawBody: body, signature, secret: SECRET, timestampedSignature: timestamped(SECRET, t, "{}"), now: NOW }),
    ).toEqual({ ok: false, reason: "signature_mismatch" });
    expect(
      await verifyWebhook({ rawBody: body, signature, secret: SECRET, timestampedSignature: timestamped("whsec_other"), now: NOW }),
    ).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("rejects malformed timestamped headers and a tolerance without one", async () => {
    for (const header of ["v1=abcd", `t=abc,v1=${sign(SECRET, body)}`, "garbage", `t=${t}`]) {
      expect(await verifyWebhook({ rawBody: body, secret: SECRET, timestampedSignature: header, now: NOW })).toEqual({
        ok: false,
        reason: "malformed_timestamped_signature",
      });
    }
    expect(await verifyWebhook({ rawBody: body, signature: sign(SECRET, body), secret: SECRET, toleranceSeconds: 300 })).toEqual({
      ok: false,
      reason: "missing_timestamped_signature",
    });
  });

  it("accepts any matching v1 entry (secret rotation)", async () => {
    const header = `${timestamped("whsec_old")},v1=${timestamped().split("v1=")[1]}`;
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, timestampedSignature: header, now: NOW })).toEqual({ ok: true, timestamp: t });
  });
});

describe("parseWebhook", () => {
  it("returns the typed event of an authentic delivery", async () => {
    const event = await parseWebhook({ rawBody: body, signature: sign(SECRET, body), secret: SECRET });
    expect(event.event).toBe("job.failed");
    if (event.event !== "job.failed") throw new Error("narrowing");
    expect(event.payload).toMatchObject({ refunded_credits: 57, error_code: "cancelled_by_user" });
  });

  it("throws WebhookVerificationError with the reason otherwise", async () => {
    const attempt = parseWebhook({ rawBody: body, signature: sign("nope", body), secret: SECRET });
    await expect(attempt).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(attempt).rejects.toMatchObject({ reason: "signature_mismatch" });
  });
});

describe("verifyWebhook with the Standard Webhooks headers", () => {
  /** Signed as the Standard Webhooks specification says, with node:crypto: key = base64 decoding of the text after whsec_. */
  const standard = (id: string, ts: number, raw: string, secret = SECRET) =>
    `v1,${createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64")).update(`${id}.${ts}.${raw}`).digest("base64")}`;

  it("accepts webhook-id/-timestamp/-signature alone, given as options or as headers, and reports the time", async () => {
    const sig = standard("evt_1", t, body);
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, now: NOW, standard: { id: "evt_1", timestamp: String(t), signature: sig } })).toEqual({ ok: true, timestamp: t });
    const headers = new Headers({ "webhook-id": "evt_1", "webhook-timestamp": String(t), "webhook-signature": `v1,AAAA ${sig}` });
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, now: NOW, headers })).toEqual({ ok: true, timestamp: t });
  });

  it("accepts both signature families together and refuses when either is wrong", async () => {
    const headers = {
      "x-service-signature": sign(SECRET, body),
      "x-service-signature-timestamped": timestamped(),
      "x-service-timestamp": String(t),
      "webhook-id": "evt_2",
      "webhook-timestamp": String(t),
      "webhook-signature": standard("evt_2", t, body),
    };
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, now: NOW, headers })).toEqual({ ok: true, timestamp: t });
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, now: NOW, headers: { ...headers, "webhook-id": "evt_3" } })).toEqual({ ok: false, reason: "signature_mismatch" });
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, now: NOW, headers: { ...headers, "x-service-signature": sign(`${SECRET}x`, body) } })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("refuses stale timestamps, malformed headers and a key taken from the secret's text", async () => {
    const old = t - 3600;
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, now: NOW, standard: { id: "e", timestamp: old, signature: standard("e", old, body) } })).toEqual({ ok: false, reason: "stale_timestamp" });
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, now: NOW, standard: { id: "e", timestamp: t, signature: "v2,abc" } })).toEqual({ ok: false, reason: "malformed_standard_headers" });
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, now: NOW, standard: { id: null, timestamp: t, signature: standard("e", t, body) } })).toEqual({ ok: false, reason: "malformed_standard_headers" });
    // The UTF-8 bytes of the whole secret are the key of X-Service-Signature, not of webhook-signature.
    const wrongKey = `v1,${createHmac("sha256", SECRET).update(`e.${t}.${body}`).digest("base64")}`;
    expect(await verifyWebhook({ rawBody: body, secret: SECRET, now: NOW, standard: { id: "e", timestamp: t, signature: wrongKey } })).toEqual({ ok: false, reason: "signature_mismatch" });
  });
});
