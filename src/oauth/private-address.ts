/**
 * Hosts a server must not fetch for a stranger: loopback, private, link-local (the cloud metadata
 * address among them) and other special-purpose addresses, written as IP literals, and the names
 * that only ever mean a local machine. A Worker cannot resolve a name first, so a public name that
 * resolves to a private address is the platform's to refuse (`global_fetch_strictly_public`).
 */

/** IPv4 special-purpose blocks (RFC 6890 and successors) as [address, prefix length]. */
const IPV4_BLOCKS: readonly (readonly [number, number])[] = [
  [0x00000000, 8], // "this network"
  [0x0a000000, 8], // private
  [0x64400000, 10], // shared address space (carrier-grade NAT)
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local, the metadata address 169.254.169.254 among them
  [0xac100000, 12], // private
  [0xc0000000, 24], // IETF protocol assignments
  [0xc0000200, 24], // documentation
  [0xc0a80000, 16], // private
  [0xc6120000, 15], // benchmarking
  [0xc6336400, 24], // documentation
  [0xcb007100, 24], // documentation
  [0xe0000000, 3], // multicast, reserved, broadcast
];

function ipv4Number(host: string): number | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (parts === null) return undefined;
  const [a = 0, b = 0, c = 0, d = 0] = parts.slice(1).map(Number);
  if (a > 255 || b > 255 || c > 255 || d > 255) return undefined;
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function isSpecialIpv4(value: number): boolean {
  return IPV4_BLOCKS.some(([base, prefix]) => value >>> (32 - prefix) === base >>> (32 - prefix));
}

/** The 16-bit groups of an IPv6 literal (WHATWG URL has already written it in its short canonical form). */
function ipv6Groups(host: string): number[] | undefined {
  if (!host.startsWith("[") || !host.endsWith("]")) return undefined;
  const inner = host.slice(1, -1);
  const [head = "", tail] = inner.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  if (front.some(Number.isNaN) || back.some(Number.isNaN)) return undefined;
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function isSpecialIpv6(groups: readonly number[]): boolean {
  const [a = 0, b = 0, , , , f = 0, g = 0, h = 0] = groups;
  if (groups.slice(0, 7).every((group) => group === 0) && h <= 1) return true; // :: and ::1
  if ((a & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((a & 0xff00) === 0xff00) return true; // multicast
  if (a === 0x2001 && b === 0x0db8) return true; // documentation
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 address inside decides.
  const mapped = groups.slice(0, 5).every((group) => group === 0) && f === 0xffff;
  const nat64 = a === 0x64 && b === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  return (mapped || nat64) && isSpecialIpv4(((g << 16) | h) >>> 0);
}

/** Whether a URL's hostname (as `new URL` gives it) is a special-purpose address or a local-only name. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal") || host.endsWith(".home.arpa")) return true;
  const v4 = ipv4Number(host);
  if (v4 !== undefined) return isSpecialIpv4(v4);
  const v6 = ipv6Groups(host);
  return v6 !== undefined && isSpecialIpv6(v6);
}
