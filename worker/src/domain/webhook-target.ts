import { workerConfig, type ConfigInput } from "../config";
import { isIpv4, parseIpv6 } from "../lib/client-bucket";
import { spelledAddress } from "./spelled-address";

/**
 * Where a webhook may be sent. A webhook URL is chosen by the client and fetched by the service, so without a
 * check it is a way to make the service call addresses the client cannot reach itself (server-side request
 * forgery): the machine's own ports, the private network, cloud metadata endpoints. Only public internet addresses
 * are accepted, in every spelling of an address: the WHATWG URL parser first turns `127.1`, `2130706433`,
 * `0x7f000001` and `0177.0.0.1` into `127.0.0.1` and compresses IPv6, and the ranges below are then checked on the
 * numbers. Host names that only exist inside a network (`localhost`, single labels, `.internal`, `.local`, ...)
 * are refused by name. A public name that resolves to a private address cannot be seen here (the Worker cannot
 * resolve names); on Cloudflare a Worker's fetch() never reaches private networks, so that is left to the platform.
 */
export type TargetCheck = { ok: true; url: string } | { ok: false; message: string };

export interface TargetPolicy {
  /**
   * Allows loopback receivers (127.0.0.0/8, ::1, localhost): local development and the tests run theirs on
   * 127.0.0.1. Set by WEBHOOK_ALLOW_LOOPBACK=true only; every other non-public address stays refused.
   */
  allowLoopback: boolean;
}

/** Reads the setting (config.ts): "true" turns it on, unset or "false" leaves it off, anything else is refused. */
export function targetPolicy(env: ConfigInput): TargetPolicy {
  return { allowLoopback: workerConfig(env).webhookAllowLoopback };
}

/** Name suffixes that only resolve inside a network (RFC 6761, RFC 6762, RFC 8375, ICANN's .internal). */
const PRIVATE_NAME_SUFFIXES = [".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".lan", ".intranet", ".corp", ".private"];

/**
 * Top-level names that never resolve on the public internet (RFC 6761 .test, .example, .invalid; RFC 7686 .onion;
 * RFC 9476 .alt): no SSRF risk, but a job sent there would never get a webhook, so the client hears it now.
 */
const NEVER_RESOLVING_SUFFIXES = [".test", ".example", ".invalid", ".onion", ".alt"];

/** `name` is `suffix` without its leading dot, or ends with it: `home.arpa` and `a.home.arpa` for `.home.arpa`. */
const underSuffix = (name: string, suffix: string) => name === suffix.slice(1) || name.endsWith(suffix);

type Range4 = readonly [base: string, bits: number, what: string];

/** IPv4 ranges that are not public unicast (IANA special-purpose registry). */
const IPV4_SPECIAL: readonly Range4[] = [
  ["0.0.0.0", 8, "a 'this network' address"],
  ["10.0.0.0", 8, "a private (RFC 1918) address"],
  ["100.64.0.0", 10, "a shared carrier-grade NAT address"],
  ["127.0.0.0", 8, "a loopback address"],
  ["169.254.0.0", 16, "a link-local address (cloud metadata lives there)"],
  ["172.16.0.0", 12, "a private (RFC 1918) address"],
  ["192.0.0.0", 24, "an IETF protocol address"],
  ["192.0.2.0", 24, "a documentation address"],
  ["192.31.196.0", 24, "an AS112 address"],
  ["192.52.193.0", 24, "an AMT address"],
  ["192.88.99.0", 24, "a 6to4 relay address"],
  ["192.168.0.0", 16, "a private (RFC 1918) address"],
  ["192.175.48.0", 24, "an AS112 address"],
  ["198.18.0.0", 15, "a benchmarking address"],
  ["198.51.100.0", 24, "a documentation address"],
  ["203.0.113.0", 24, "a documentation address"],
  ["224.0.0.0", 4, "a multicast address"],
  ["240.0.0.0", 4, "a reserved address"],
];

function ipv4Number(text: string): number {
  return text.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function inRange4(address: number, base: string, bits: number): boolean {
  const size = 2 ** (32 - bits);
  const start = ipv4Number(base);
  return address >= start && address < start + size;
}

/** Why an IPv4 address is not public, or null when it is. */
function ipv4Problem(text: string): { what: string; loopback: boolean } | null {
  const n = ipv4Number(text);
  for (const [base, bits, what] of IPV4_SPECIAL) {
    if (inRange4(n, base, bits)) return { what, loopback: base === "127.0.0.0" };
  }
  return null;
}

const v4FromGroups = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/**
 * Why an IPv6 address is not public, or null when it is. Public means global unicast (2000::/3) outside the
 * special blocks; an IPv4 address carried inside IPv6 (mapped, NAT64, 6to4) is judged as that IPv4 address.
 */
function ipv6Problem(g: number[]): { what: string; loopback: boolean } | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return { what: "the unspecified address", loopback: false };
  if (zeros(0, 7) && g[7] === 1) return { what: "a loopback address", loopback: true };
  if (zeros(0, 5) && g[5] === 0xffff) {
    const inner = ipv4Problem(v4FromGroups(g[6]!, g[7]!));
    return inner ? { what: `${inner.what} (IPv4-mapped)`, loopback: inner.loopback } : null;
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) {
    const inner = ipv4Problem(v4FromGroups(g[6]!, g[7]!));
    return inner ? { what: `${inner.what} (NAT64)`, loopback: false } : null;
  }
  if (g[0] === 0x2002) {
    const inner = ipv4Problem(v4FromGroups(g[1]!, g[2]!));
    return inner ? { what: `${inner.what} (6to4)`, loopback: false } : null;
  }
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return { what: "a unique local (private) address", loopback: false };
  if ((first & 0xffc0) === 0xfe80) return { what: "a link-local address", loopback: false };
  if ((first & 0xffc0) === 0xfec0) return { what: "a site-local address", loopback: false };
  if ((first & 0xff00) === 0xff00) return { what: "a multicast address", loopback: false };
  if (first === 0x2001 && g[1] === 0x0db8) return { what: "a documentation address", loopback: false };
  if (first === 0x3fff && g[1]! < 0x1000) return { what: "a documentation address", loopback: false };
  if (first === 0x2001 && g[1]! < 0x0200) return { what: "an IETF protocol address (Teredo and others)", loopback: false };
  if (first < 0x2000 || first > 0x3fff) return { what: "not a global unicast address", loopback: false };
  return null;
}

const refused = (host: string, what: string): TargetCheck => ({
  ok: false,
  message: `must point to a public internet address; ${host} is ${what}`,
});

/**
 * Checks a webhook URL and returns it normalised (the WHATWG serialisation: lower-case scheme and host, numeric
 * IPv4 in dotted form, compressed IPv6, default port dropped), which is what is stored and called.
 */
export function checkWebhookTarget(raw: string, policy: TargetPolicy): TargetCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "must be an http(s) URL (webhook receiver)" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, message: "must be an http(s) URL (webhook receiver)" };
  if (url.username !== "" || url.password !== "") {
    return { ok: false, message: "must not contain a user name or password (put credentials in the path or a query parameter)" };
  }
  // What is stored and called is the normalised form, where each non-ASCII character of the path becomes up to 12
  // characters of percent-encoding: the 2048-character bound holds for that form too.
  if (url.href.length > 2048) {
    return { ok: false, message: "must be at most 2048 characters once normalised (characters outside ASCII count as their percent-encoding)" };
  }
  // The URL parser accepts port 0, where nothing can listen; every other port from 1 to 65535 is the receiver's choice.
  if (url.port === "0") return { ok: false, message: "must name a port from 1 to 65535 (port 0 cannot receive)" };
  const host = url.hostname;
  if (host.startsWith("[")) {
    const groups = parseIpv6(host);
    if (!groups) return { ok: false, message: "must be an http(s) URL (webhook receiver)" };
    const problem = ipv6Problem(groups);
    if (problem && !(problem.loopback && policy.allowLoopback)) return refused(host, problem.what);
    return { ok: true, url: url.href };
  }
  if (isIpv4(host)) {
    const problem = ipv4Problem(host);
    if (problem && !(problem.loopback && policy.allowLoopback)) return refused(host, problem.what);
    return { ok: true, url: url.href };
  }
  // One trailing dot is the fully qualified spelling of the same name; an empty label anywhere else (`a..b`,
  // `localhost..`) is no name a resolver accepts, and would escape the suffix checks below.
  const name = host.replace(/\.$/, "");
  if (name.split(".").some((label) => label === "")) return { ok: false, message: `must name a valid host (${host} has an empty label)` };
  if (name === "localhost" || name.endsWith(".localhost")) {
    return policy.allowLoopback ? { ok: true, url: url.href } : refused(host, "a loopback name");
  }
  if (!name.includes(".")) return refused(host, "a name without a domain (only resolvable inside a network)");
  if (PRIVATE_NAME_SUFFIXES.some((suffix) => underSuffix(name, suffix))) return refused(host, "a name that only resolves inside a network");
  if (NEVER_RESOLVING_SUFFIXES.some((suffix) => underSuffix(name, suffix))) return refused(host, "a reserved name that never resolves on the internet");
  // A name whose DNS answer is the address it spells (10.0.0.1.nip.io, localtest.me) is that address.
  const spelled = spelledAddress(name.toLowerCase());
  if (spelled) {
    const problem = "v4" in spelled ? ipv4Problem(spelled.v4) : ipv6Problem(spelled.v6);
    const shown = "v4" in spelled ? spelled.v4 : new URL(`http://[${spelled.v6.map((g) => g.toString(16)).join(":")}]/`).hostname;
    if (problem && !(problem.loopback && policy.allowLoopback)) return refused(host, `a name that stands for ${shown}, ${problem.what}`);
  }
  return { ok: true, url: url.href };
}
