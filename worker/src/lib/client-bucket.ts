/**
 * The rate-limit bucket of a client address. An IPv4 client is one address; an IPv6 client is its /64: one
 * subscriber or host is normally given a whole /64 and can pick any of its 2^64 addresses, so counting single
 * IPv6 addresses would hand a fresh bucket to every request. IPv4-mapped IPv6 (`::ffff:192.0.2.1`) counts as the
 * IPv4 address. Anything unreadable shares one "unknown" bucket rather than getting one of its own.
 */
export function clientBucket(ip: string | undefined): string {
  const text = (ip ?? "").trim().toLowerCase();
  if (isIpv4(text)) return text;
  const groups = parseIpv6(text);
  if (!groups) return "unknown";
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}

export function isIpv4(text: string): boolean {
  const parts = text.split(".");
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/**
 * The eight 16-bit groups of an IPv6 address in any textual form (`::` compression, a trailing dotted IPv4 part,
 * an optional `%zone`, surrounding brackets), or null when it is not one.
 */
export function parseIpv6(input: string): number[] | null {
  const lower = input.trim().toLowerCase();
  let text = lower.startsWith("[") && lower.endsWith("]") ? lower.slice(1, -1) : lower;
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(":")) return null;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    if (!isIpv4(last)) return null;
    const [a, b, c, d] = last.split(".").map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    // Two placeholder groups where the IPv4 part was; replaced by its value once the groups are known.
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const read = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    for (const g of part.split(":")) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const head = read(halves[0]!);
  const rest = halves.length === 2 ? read(halves[1]!) : [];
  if (!head || !rest) return null;
  let groups: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  } else {
    groups = head;
  }
  if (groups.length !== 8) return null;
  if (tail.length) groups.splice(6, 2, ...tail);
  return groups;
}
