import { isIpv4, parseIpv6 } from "../lib/client-bucket";

/**
 * The address a host name spells, for names whose DNS answer is the address written in them. Wildcard DNS
 * services answer `10.0.0.1.nip.io`, `app-10-0-0-1.sslip.io`, `app-0a000001.nip.io` and `--1.sslip.io` (`::1`)
 * with that address, and a few public names always answer 127.0.0.1 (`localtest.me`, `lvh.me`). The Worker
 * resolves no names, but these need no resolving: a webhook_url on one of them is a private address in other
 * spelling, refused like the address itself. A name with four dotted numbers in it (`127.0.0.1.example.com`)
 * counts as spelling that address wherever it is hosted: that is how every such service works.
 */
export type SpelledAddress = { v4: string } | { v6: number[] };

/** Services that answer a name with the address its labels spell (dots, dashes, hex; sslip.io also IPv6). */
const WILDCARD_DNS = ["nip.io", "sslip.io", "xip.io", "traefik.me"];

/** Public names whose every subdomain answers 127.0.0.1. */
const LOOPBACK_DOMAINS = ["localtest.me", "lvh.me", "vcap.me", "lacolhost.com", "localhost.direct"];

const under = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`);

/** The address `name` (lower case, no trailing dot) spells, or null when it spells none. */
export function spelledAddress(name: string): SpelledAddress | null {
  if (LOOPBACK_DOMAINS.some((domain) => under(name, domain))) return { v4: "127.0.0.1" };
  const labels = name.split(".");
  // Four dotted numbers anywhere before the last label: `10.0.0.1.nip.io`, `app.192.168.1.2.example.com`.
  for (let i = 0; i + 4 < labels.length; i++) {
    const dotted = labels.slice(i, i + 4).join(".");
    if (isIpv4(dotted)) return { v4: dotted };
  }
  const service = WILDCARD_DNS.find((domain) => under(name, domain));
  if (!service) return null;
  // The label just before the service: `app-10-0-0-1`, `10-0-0-1`, `app-0a000001`, `--1` (sslip.io IPv6).
  const label = labels[labels.length - service.split(".").length - 1] ?? "";
  const dashed = /(?:^|-)(\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3})$/.exec(label);
  if (dashed && isIpv4(dashed[1]!.replaceAll("-", "."))) return { v4: dashed[1]!.replaceAll("-", ".") };
  const hex = /(?:^|-)([0-9a-f]{8})$/.exec(label);
  if (hex) {
    const n = Number.parseInt(hex[1]!, 16);
    return { v4: [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join(".") };
  }
  if (label.includes("--")) {
    const groups = parseIpv6(label.replaceAll("-", ":"));
    if (groups) return { v6: groups };
  }
  return null;
}
