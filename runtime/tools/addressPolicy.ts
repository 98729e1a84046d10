import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which network addresses a model-controlled request may reach without being explicitly allowed.
 * Pure: it classifies address strings and host names, and never resolves or connects (the guarded
 * fetch in `guardedFetch.ts` resolves, asks this module about every address, then connects to one of
 * the checked addresses).
 */

export type RefusedAddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared (CGNAT)'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'metadata';

/** Why an address or host is refused, or undefined when it is a public address. */
export type AddressVerdict = { refused: RefusedAddressKind } | undefined;

/** Cloud metadata services and names that always mean this machine. */
const REFUSED_NAMES: ReadonlyMap<string, RefusedAddressKind> = new Map([
  ['localhost', 'loopback'],
  ['localhost.localdomain', 'loopback'],
  ['ip6-localhost', 'loopback'],
  ['ip6-loopback', 'loopback'],
  ['metadata', 'metadata'],
  ['metadata.google.internal', 'metadata'],
  ['metadata.goog', 'metadata'],
  ['metadata.azure.internal', 'metadata'],
  ['instance-data', 'metadata'],
  ['instance-data.ec2.internal', 'metadata'],
]);

/** The refused names with more than one label (a wildcard `*.internal` in a list covers some of them). */
export function dottedRefusedNames(): string[] {
  return [...REFUSED_NAMES.keys()].filter((name) => name.includes('.'));
}

/** IPv4 ranges as [first octets as a 32-bit number, prefix length, kind], most specific first. */
const IPV4_RANGES: readonly [number, number, RefusedAddressKind][] = [
  [ipv4ToNumber('169.254.169.254'), 32, 'metadata'],
  [ipv4ToNumber('100.100.100.200'), 32, 'metadata'],
  [ipv4ToNumber('0.0.0.0'), 8, 'unspecified'],
  [ipv4ToNumber('127.0.0.0'), 8, 'loopback'],
  [ipv4ToNumber('10.0.0.0'), 8, 'private'],
  [ipv4ToNumber('172.16.0.0'), 12, 'private'],
  [ipv4ToNumber('192.168.0.0'), 16, 'private'],
  [ipv4ToNumber('100.64.0.0'), 10, 'shared (CGNAT)'],
  [ipv4ToNumber('169.254.0.0'), 16, 'link-local'],
  [ipv4ToNumber('192.0.0.0'), 24, 'reserved'],
  [ipv4ToNumber('198.18.0.0'), 15, 'reserved'],
  [ipv4ToNumber('224.0.0.0'), 4, 'multicast'],
  [ipv4ToNumber('240.0.0.0'), 4, 'reserved'],
];

/** Classifies an IPv4 or IPv6 address string (`::ffff:127.0.0.1`, `[::1]` and zone ids included). */
export function classifyAddress(address: string): AddressVerdict {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(bare)) return classifyIPv4(ipv4ToNumber(bare));
  if (isIPv6(bare)) return classifyIPv6(ipv6ToHextets(bare));
  throw new TypeError(`"${address}" is not an IP address`);
}

/**
 * Classifies a URL host name before resolution: refused names, and IP literals as `classifyAddress`.
 * Give it `URL.hostname`, which the WHATWG parser has already normalized (`0x7f.1` and `2130706433`
 * become `127.0.0.1`). Undefined for any other name: its resolved addresses decide.
 */
export function classifyHostName(hostname: string): AddressVerdict {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const bare = name.replace(/^\[(.*)\]$/, '$1');
  if (isIPv4(bare) || isIPv6(bare)) return classifyAddress(bare);
  const named = REFUSED_NAMES.get(name);
  if (named) return { refused: named };
  if (name.endsWith('.localhost')) return { refused: 'loopback' };
  return undefined;
}

function classifyIPv4(value: number): AddressVerdict {
  if (value === 0xffffffff) return { refused: 'reserved' };
  for (const [base, prefix, kind] of IPV4_RANGES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if (((value & mask) >>> 0) === base) return { refused: kind };
  }
  return undefined;
}

function classifyIPv6(h: number[]): AddressVerdict {
  // h has eight groups (ipv6ToHextets), so every index below is in range.
  const embedded = (hi: number, lo: number) => classifyIPv4(((h[hi]! << 16) | h[lo]!) >>> 0);
  const first = h[0]!;
  const zeroTo = (n: number) => h.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return { refused: 'unspecified' };
  if (zeroTo(7) && h[7] === 1) return { refused: 'loopback' };
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 address decides.
  if (zeroTo(5) && h[5] === 0xffff) return embedded(6, 7);
  if (zeroTo(6)) return embedded(6, 7);
  // IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002:AABB:CCDD::/16) embed one too.
  if (zeroTo(4) && h[4] === 0xffff && h[5] === 0) return embedded(6, 7);
  if (h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return embedded(6, 7);
  if (h[0] === 0x2002) return embedded(1, 2);
  if (h[0] === 0xfd00 && h[1] === 0x0ec2 && h.slice(2, 7).every((x) => x === 0) && h[7] === 0x254) return { refused: 'metadata' };
  if ((first & 0xfe00) === 0xfc00) return { refused: 'unique-local' };
  if ((first & 0xffc0) === 0xfe80) return { refused: 'link-local' };
  // Site-local (fec0::/10) is deprecated but still routed privately by some networks.
  if ((first & 0xffc0) === 0xfec0) return { refused: 'private' };
  if ((first & 0xff00) === 0xff00) return { refused: 'multicast' };
  return undefined;
}

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((n, octet) => ((n << 8) | Number(octet)) >>> 0, 0);
}

/** Eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6ToHextets(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4ToNumber(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}
