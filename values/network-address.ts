import { isIP } from 'node:net';

/**
 * Which IP addresses a webhook delivery may connect to. On AWS a tenant-chosen URL must not reach
 * the Lambda's own runtime API (loopback), the VPC (private ranges), the instance/task metadata
 * endpoints (169.254.169.254, 169.254.170.2, fd00:ec2::254) or other special-purpose ranges; only
 * `public` addresses are delivered to unless the deployment allows private targets
 * (WEBHOOK_ALLOW_PRIVATE_TARGETS, for local receivers).
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link_local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

/** Cloud metadata endpoints (AWS IMDS v4 and v6, ECS task metadata): named apart in refusals. */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '169.254.169.253']);
const METADATA_V6 = [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(':');

/** IPv4 ranges that are not public (RFC 6890 special-purpose registry), first match wins. */
const V4_RANGES: readonly [string, number, AddressClass][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT, also used inside cloud networks
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes 255.255.255.255
];

/** An IPv4 address as an unsigned 32-bit number. */
function v4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function classifyV4(address: string): AddressClass {
  if (METADATA.has(address)) return 'metadata';
  const n = v4Number(address);
  for (const [base, bits, kind] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    if (Math.floor(n / size) === Math.floor(v4Number(base) / size)) return kind;
  }
  return 'public';
}

/** The 8 groups of an IPv6 address (embedded dotted IPv4 tails and `::` expanded); undefined if malformed. */
export function v6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    if (isIP(tail[1]!) !== 4) return undefined;
    const n = v4Number(tail[1]!);
    text = `${text.slice(0, -tail[1]!.length)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : Number.NaN)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  return groups.some(Number.isNaN) ? undefined : groups;
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

function classifyV6(address: string): AddressClass {
  const g = v6Groups(address);
  if (!g) return 'reserved';
  if (g.join(':') === METADATA_V6) return 'metadata';
  const zeros = (count: number) => g.slice(0, count).every((x) => x === 0);
  if (zeros(8)) return 'unspecified';
  if (zeros(7) && g[7] === 1) return 'loopback';
  // Forms that carry an IPv4 address: judged by that address (::ffff:127.0.0.1 is loopback).
  if (zeros(5) && g[5] === 0xffff) return classifyV4(v4Of(g[6]!, g[7]!)); // IPv4-mapped
  if (zeros(6)) return classifyV4(v4Of(g[6]!, g[7]!)); // IPv4-compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyV4(v4Of(g[6]!, g[7]!)); // NAT64
  if (g[0] === 0x2002) return classifyV4(v4Of(g[1]!, g[2]!)); // 6to4
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return 'link_local'; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && g[1] === 0x0db8) return 'reserved'; // documentation
  if (first === 0x2001 && g[1]! < 0x0200) return 'reserved'; // 2001::/23 IETF protocol assignments (Teredo, ORCHID, …)
  if (first === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return 'reserved'; // 100::/64 discard
  if ((first & 0xe000) !== 0x2000) return 'reserved'; // outside 2000::/3 (global unicast)
  return 'public';
}

/** The class of an IP address (IPv4 dotted, IPv6 with or without brackets); anything else is `reserved`. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const version = isIP(bare.split('%')[0]!);
  if (version === 4) return classifyV4(bare);
  if (version === 6) return classifyV6(bare);
  return 'reserved';
}

/** The host of a URL when it is an IP literal (WHATWG URL parsing already turned `0x7f.1` or `2130706433` into `127.0.0.1`). */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/** `localhost` and `*.localhost` always mean loopback (RFC 6761), whatever a resolver says. */
export const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

/**
 * Why a URL host may not be delivered to without resolving it (a literal non-public address, or a
 * localhost name), or undefined. Names are checked again against what they resolve to at delivery.
 */
export function literalTargetProblem(hostname: string): string | undefined {
  if (isLocalhostName(hostname)) return `${hostname} is a loopback host`;
  const literal = literalAddress(hostname);
  if (literal === undefined) return undefined;
  const kind = classifyAddress(literal);
  return kind === 'public' ? undefined : `${literal} is a ${kind.replace('_', '-')} address`;
}
