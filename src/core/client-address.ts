/** The network an anonymous caller is counted by: an IPv4 address as it is, an IPv6 address by its /64. */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEXTET = /^[0-9a-fA-F]{1,4}$/;

/** The four octets of a dotted IPv4 address (leading zeros allowed), or undefined. */
export function ipv4Octets(text: string): number[] | undefined {
  const match = IPV4.exec(text);
  if (!match) return undefined;
  const octets = match.slice(1).map(Number);
  return octets.every((n) => n <= 255) ? octets : undefined;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 read as two groups), or undefined. */
export function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string, last: boolean): number[] | undefined => {
    if (part === "") return [];
    const groups: number[] = [];
    const pieces = part.split(":");
    for (const [index, piece] of pieces.entries()) {
      if (last && index === pieces.length - 1 && piece.includes(".")) {
        const octets = ipv4Octets(piece);
        if (!octets) return undefined;
        groups.push(((octets[0] as number) << 8) | (octets[1] as number), ((octets[2] as number) << 8) | (octets[3] as number));
      } else if (HEXTET.test(piece)) {
        groups.push(parseInt(piece, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };
  const head = parse(halves[0] as string, halves.length === 1);
  const tail = halves.length === 2 ? parse(halves[1] as string, true) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : undefined;
}

/**
 * The key an anonymous caller's rate limits and quotas are counted under, from the client address
 * the platform reports (`CF-Connecting-IP`): an IPv4 address as it is (`192.0.2.1`), an IPv6 address
 * by its /64 prefix (`2001:db8:0:1::/64`: on the real edge a client holds at least a /64, and can
 * pick any address in it), and an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as its IPv4.
 * Expanded, compressed and mixed-case spellings of one address give one key. Undefined for
 * anything that is not an IP address (such a value cannot come from Cloudflare).
 */
export function clientNetwork(address: string): string | undefined {
  const text = address.trim();
  if (text.length === 0 || text.length > 64) return undefined;
  const v4 = ipv4Octets(text);
  if (v4) return v4.join(".");
  if (!text.includes(":")) return undefined;
  const groups = ipv6Groups(text);
  if (!groups) return undefined;
  // ::ffff:a.b.c.d (RFC 4291 §2.5.5.2) is an IPv4 client seen through a dual-stack socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6] as number, groups[7] as number];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
