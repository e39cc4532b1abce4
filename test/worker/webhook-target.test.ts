import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { CostEstimate, JobAck, JobRecord } from "../../common/contract";
import { checkWebhookTarget } from "../../worker/src/domain/webhook-target";
import { createAccount, expect422, get, jsonInit, minimalJob, nextIp, post, type TestAccount } from "./helpers";
import { callWithEnv, createJob } from "./job-steps";

/**
 * webhook_url may only name a public internet address (issue 15: server-side request forgery). The tests' own
 * receiver is on 127.0.0.1, which the WEBHOOK_ALLOW_LOOPBACK binding of vitest.config.ts allows; the cases below
 * also run without it, as a deployment does.
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

const DEPLOYED = { WEBHOOK_ALLOW_LOOPBACK: undefined };

function estimateAs(overrides: Record<string, unknown>, body: unknown): Promise<Response> {
  return callWithEnv(overrides, "/jobs/estimate", jsonInit("POST", body, { "X-API-Key": acct.api_key }));
}

/** Every spelling of a non-public address, with what the message must say. */
const REFUSED: [string, RegExp][] = [
  ["http://127.0.0.1:8080/hook", /127\.0\.0\.1 is a loopback address/],
  ["http://localhost/hook", /localhost is a loopback name/],
  ["http://LOCALHOST./hook", /loopback name/],
  ["http://app.localhost/hook", /loopback name/],
  ["http://127.1/hook", /127\.0\.0\.1 is a loopback address/],
  ["http://2130706433/hook", /127\.0\.0\.1 is a loopback address/],
  ["http://0x7f000001/hook", /127\.0\.0\.1 is a loopback address/],
  ["http://0177.0.0.1/hook", /127\.0\.0\.1 is a loopback address/],
  ["http://0x7f.1/hook", /127\.0\.0\.1 is a loopback address/],
  ["http://[::1]/hook", /\[::1\] is a loopback address/],
  ["http://[::ffff:127.0.0.1]/hook", /loopback address \(IPv4-mapped\)/],
  ["http://[0:0:0:0:0:ffff:7f00:1]/hook", /loopback address \(IPv4-mapped\)/],
  ["http://0.0.0.0/hook", /this network/],
  ["http://0/hook", /0\.0\.0\.0/],
  ["http://[::]/hook", /unspecified/],
  ["http://10.0.0.5/hook", /private \(RFC 1918\)/],
  ["http://172.16.0.1/hook", /private \(RFC 1918\)/],
  ["http://172.31.255.254/hook", /private \(RFC 1918\)/],
  ["http://192.168.1.10/hook", /private \(RFC 1918\)/],
  ["http://3232235786/hook", /192\.168\.1\.10 is a private/],
  ["http://[::ffff:10.1.2.3]/hook", /private \(RFC 1918\) address \(IPv4-mapped\)/],
  ["http://100.64.0.1/hook", /carrier-grade NAT/],
  ["http://100.127.255.254/hook", /carrier-grade NAT/],
  ["http://169.254.169.254/latest/meta-data/", /link-local/],
  ["http://[fe80::1]/hook", /link-local/],
  ["http://[fd12:3456::1]/hook", /unique local/],
  ["http://[fc00::1]/hook", /unique local/],
  ["http://224.0.0.1/hook", /multicast/],
  ["http://[ff02::1]/hook", /multicast/],
  ["http://240.0.0.1/hook", /reserved/],
  ["http://255.255.255.255/hook", /reserved/],
  ["http://192.0.2.1/hook", /documentation/],
  ["http://[2001:db8::1]/hook", /documentation/],
  ["http://[64:ff9b::a9fe:a9fe]/hook", /link-local .*NAT64/],
  ["http://[2002:c0a8:0101::1]/hook", /private .*6to4/],
  ["http://metadata.google.internal/computeMetadata/v1/", /only resolves inside a network/],
  ["http://printer.local/hook", /only resolves inside a network/],
  ["http://intranet/hook", /name without a domain/],
  ["https://user:secret@hooks.example.com/hook", /user name or password/],
  ["https://token@hooks.example.com/hook", /user name or password/],
  ["https://hooks.example.com:0/hook", /port from 1 to 65535/],
  // An empty label escaped the name checks: `localhost..` was accepted as a public name.
  ["http://localhost../hook", /must name a valid host \(localhost\.\. has an empty label\)/],
  ["http://hooks..example.com/hook", /empty label/],
  ["http://home.arpa./hook", /only resolves inside a network/],
  // Names reserved never to resolve: the job would never get its webhook.
  ["https://hooks.test/hook", /hooks\.test is a reserved name that never resolves on the internet/],
  ["https://hooks.example/hook", /never resolves/],
  ["https://hooks.invalid/hook", /never resolves/],
  ["http://abcdefghijklmnop.onion/hook", /never resolves/],
  // Names whose DNS answer is the address they spell (wildcard DNS) or always 127.0.0.1: that address, refused
  // without resolving anything (they used to pass as public names).
  ["http://127.0.0.1.nip.io/hook", /127\.0\.0\.1\.nip\.io is a name that stands for 127\.0\.0\.1, a loopback address/],
  ["http://app.10.0.0.1.nip.io/hook", /stands for 10\.0\.0\.1, a private \(RFC 1918\) address/],
  ["http://app-169-254-169-254.sslip.io/latest", /stands for 169\.254\.169\.254, a link-local address/],
  ["http://app-c0a80102.nip.io/hook", /stands for 192\.168\.1\.2, a private/],
  ["http://fe80--1.sslip.io/hook", /stands for \[fe80::1\], a link-local address/],
  ["http://localtest.me/hook", /stands for 127\.0\.0\.1, a loopback address/],
  ["http://hooks.lvh.me/hook", /stands for 127\.0\.0\.1/],
  ["http://169.254.169.254.attacker.example.com/hook", /stands for 169\.254\.169\.254/],
];

describe("webhook_url must be a public address", () => {
  it.each(REFUSED)("refuses %s with 422 naming webhook_url", async (url, message) => {
    const detail = await expect422(await estimateAs(DEPLOYED, minimalJob({ webhook_url: url })));
    expect([...detail.keys()]).toEqual(["webhook_url"]);
    expect(detail.get("webhook_url")!.join()).toMatch(message);
  });

  it("holds the stored (normalised) form to 2048 characters too", async () => {
    // 1000 emoji are 2000 characters as sent, 12,000 once percent-encoded, as the URL is stored and called.
    const detail = await expect422(await estimateAs(DEPLOYED, minimalJob({ webhook_url: `https://hooks.example.com/${"😀".repeat(1000)}` })));
    expect(detail.get("webhook_url")).toEqual(["must be at most 2048 characters once normalised (characters outside ASCII count as their percent-encoding)"]);
  });

  it("refuses on POST /jobs itself, reserving nothing", async () => {
    const before = (await (await get(acct.api_key, "/jobs")).json()) as { total: number };
    const res = await callWithEnv(DEPLOYED, "/jobs", jsonInit("POST", minimalJob({ webhook_url: "http://169.254.169.254/" }), { "X-API-Key": acct.api_key, "CF-Connecting-IP": nextIp() }));
    const detail = await expect422(res);
    expect(detail.has("webhook_url")).toBe(true);
    expect(((await (await get(acct.api_key, "/jobs")).json()) as { total: number }).total).toBe(before.total);
  });

  it("accepts public addresses, public IPv6 literals included, and stores the normalised URL", async () => {
    for (const [given, stored] of [
      ["https://[2606:4700:4700::1111]/hook", "https://[2606:4700:4700::1111]/hook"],
      ["https://[2606:4700:4700:0000:0000:0000:0000:1111]:443/hook", "https://[2606:4700:4700::1111]/hook"],
      ["HTTPS://Hooks.Example.COM:443/a/../hook?x=1", "https://hooks.example.com/hook?x=1"],
      ["http://8.8.8.8:8080/hook", "http://8.8.8.8:8080/hook"],
      ["http://134744072/hook", "http://8.8.8.8/hook"],
      ["http://172.32.0.1/hook", "http://172.32.0.1/hook"],
      // A wildcard-DNS name of a public address is that public address.
      ["https://app-8-8-8-8.sslip.io/hook", "https://app-8-8-8-8.sslip.io/hook"],
      ["https://api.1.2.3.example.com/hook", "https://api.1.2.3.example.com/hook"],
    ]) {
      const res = await estimateAs(DEPLOYED, minimalJob({ webhook_url: given }));
      const body = (await res.json()) as CostEstimate;
      expect([given, res.status, body.request?.webhook_url]).toEqual([given, 200, stored]);
    }
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: "https://[2606:4700:4700:0:0:0:0:1111]/Hook" }), DEPLOYED);
    expect(ack.webhook_url).toBe("https://[2606:4700:4700::1111]/Hook");
    const record = (await (await get(acct.api_key, `/jobs/${ack.id}`)).json()) as JobRecord;
    expect([record.webhook_url, record.request.webhook_url]).toEqual(["https://[2606:4700:4700::1111]/Hook", "https://[2606:4700:4700::1111]/Hook"]);
  });

  it("allows loopback receivers only with WEBHOOK_ALLOW_LOOPBACK=true, and nothing else non-public even then", async () => {
    expect(env.WEBHOOK_ALLOW_LOOPBACK).toBe("true");
    const ok = await post(acct.api_key, "/jobs/estimate", minimalJob({ webhook_url: "http://127.0.0.1:9/hook" }));
    expect(((await ok.json()) as CostEstimate).request.webhook_url).toBe("http://127.0.0.1:9/hook");
    for (const url of ["http://10.0.0.1/", "http://169.254.169.254/", "http://[fd00::1]/", "http://metadata.google.internal/"]) {
      expect((await expect422(await post(acct.api_key, "/jobs/estimate", minimalJob({ webhook_url: url })))).has("webhook_url")).toBe(true);
    }
    for (const setting of [undefined, "", "false", "FALSE"]) {
      const res = await estimateAs({ WEBHOOK_ALLOW_LOOPBACK: setting }, minimalJob({ webhook_url: "http://127.0.0.1:9/hook" }));
      expect([setting, res.status]).toEqual([setting, 422]);
    }
    // Anything else is a configuration mistake (config.ts): refused, never read as "off" or "on".
    for (const setting of ["1", "yes"]) {
      const res = await estimateAs({ WEBHOOK_ALLOW_LOOPBACK: setting }, minimalJob({ webhook_url: "http://127.0.0.1:9/hook" }));
      expect([setting, res.status]).toEqual([setting, 500]);
    }
  });

  it("the check alone: the default policy refuses loopback (what a deployment without the setting does)", () => {
    expect(checkWebhookTarget("http://[::1]:9/", { allowLoopback: false }).ok).toBe(false);
    expect(checkWebhookTarget("http://[::1]:9/", { allowLoopback: true })).toEqual({ ok: true, url: "http://[::1]:9/" });
  });
});

describe("the 202 answer carries the stored webhook_url", () => {
  it("is the normalised form", async () => {
    const res = await callWithEnv(DEPLOYED, "/jobs", jsonInit("POST", minimalJob({ webhook_url: "https://HOOKS.example.com:443/x" }), { "X-API-Key": acct.api_key, "CF-Connecting-IP": nextIp() }));
    expect(((await res.json()) as JobAck).webhook_url).toBe("https://hooks.example.com/x");
  });
});
