import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { OutboundError } from './outbound-error.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** OUTBOUND_ALLOWLIST parsed once: exact host names, and address ranges (a bare IP is a /32 or /128). */
export interface Allowlist {
  names: ReadonlySet<string>;
  ranges: readonly [Address, number][];
}

function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export function parseAllowlist(entries: readonly string[]): Allowlist {
  const names = new Set<string>();
  const ranges: [Address, number][] = [];
  for (const raw of entries) {
    const entry = stripBrackets(raw.trim());
    if (entry === '') continue;
    if (ipaddr.isValidCIDR(entry)) {
      ranges.push(ipaddr.parseCIDR(entry));
    } else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else {
      names.add(normalizeName(entry));
    }
  }
  return { names, ranges };
}

export function isAllowlistedName(hostname: string, allowlist: Allowlist): boolean {
  return allowlist.names.has(normalizeName(stripBrackets(hostname)));
}

function inAllowlist(address: Address, allowlist: Allowlist): boolean {
  return allowlist.ranges.some(
    ([range, bits]) => range.kind() === address.kind() && address.match(range, bits),
  );
}

/**
 * Every address range IANA's special-purpose registries (IPv4 and IPv6, plus multicast) list, in one
 * table: an address in one of these is refused, named by its class, unless its class carries an IPv4
 * address (`embeds`), whose own verdict then decides: a public IPv4 behind NAT64 is fine, a private one
 * behind any of these forms is not. The longest matching prefix wins. IPv6 outside 2000::/3 (global
 * unicast) is refused as well: nothing else is allocated.
 */
interface SpecialRange {
  cidr: string;
  name: string;
  /** The IPv4 addresses an IPv6 address of this range carries. */
  embeds?: (parts: number[]) => number[][];
}

const lastTwo = (parts: number[]) => [[parts[6]!, parts[7]!]];

export const specialRanges: readonly SpecialRange[] = [
  // IPv4 (RFC 6890 and successors; 224/4 from the multicast registry).
  { cidr: '0.0.0.0/8', name: 'unspecified' },
  { cidr: '10.0.0.0/8', name: 'private' },
  { cidr: '100.64.0.0/10', name: 'carrierGradeNat' },
  { cidr: '127.0.0.0/8', name: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'linkLocal' },
  { cidr: '172.16.0.0/12', name: 'private' },
  { cidr: '192.0.0.0/24', name: 'ietfProtocol' },
  { cidr: '192.0.2.0/24', name: 'documentation' },
  { cidr: '192.31.196.0/24', name: 'as112' },
  { cidr: '192.52.193.0/24', name: 'amt' },
  { cidr: '192.88.99.0/24', name: '6to4Relay' },
  { cidr: '192.168.0.0/16', name: 'private' },
  { cidr: '192.175.48.0/24', name: 'as112' },
  { cidr: '198.18.0.0/15', name: 'benchmarking' },
  { cidr: '198.51.100.0/24', name: 'documentation' },
  { cidr: '203.0.113.0/24', name: 'documentation' },
  { cidr: '224.0.0.0/4', name: 'multicast' },
  { cidr: '240.0.0.0/4', name: 'reserved' },
  { cidr: '255.255.255.255/32', name: 'broadcast' },
  // IPv6 (RFC 6890 and successors; ff00::/8 from the multicast registry).
  { cidr: '::/128', name: 'unspecified' },
  { cidr: '::1/128', name: 'loopback' },
  // Deprecated IPv4-compatible addresses (RFC 4291): refused outright, whatever they carry.
  { cidr: '::/96', name: 'ipv4Compatible' },
  { cidr: '::ffff:0:0/96', name: 'ipv4Mapped', embeds: lastTwo },
  { cidr: '::ffff:0:0:0/96', name: 'ipv4Translated', embeds: lastTwo },
  { cidr: '64:ff9b::/96', name: 'nat64', embeds: lastTwo },
  { cidr: '64:ff9b:1::/48', name: 'nat64LocalUse' },
  { cidr: '100::/64', name: 'discardOnly' },
  { cidr: '100:0:0:1::/64', name: 'dummyPrefix' },
  { cidr: '2001::/23', name: 'ietfProtocol' },
  // Teredo: the server's IPv4 in bits 32-63, the client's (bit-inverted) in the last 32.
  {
    cidr: '2001::/32',
    name: 'teredo',
    embeds: (p) => [
      [p[2]!, p[3]!],
      [p[6]! ^ 0xffff, p[7]! ^ 0xffff],
    ],
  },
  { cidr: '2001:db8::/32', name: 'documentation' },
  // 6to4: the site's IPv4 in bits 16-47.
  { cidr: '2002::/16', name: '6to4', embeds: (p) => [[p[1]!, p[2]!]] },
  { cidr: '2620:4f:8000::/48', name: 'as112' },
  { cidr: '3fff::/20', name: 'documentation' },
  { cidr: '5f00::/16', name: 'srv6' },
  { cidr: 'fc00::/7', name: 'uniqueLocal' },
  { cidr: 'fe80::/10', name: 'linkLocal' },
  { cidr: 'fec0::/10', name: 'siteLocal' },
  { cidr: 'ff00::/8', name: 'multicast' },
];

const table = specialRanges
  .map((r) => ({ ...r, range: ipaddr.parseCIDR(r.cidr) }))
  // Longest prefix first, so the most specific class answers.
  .sort((x, y) => y.range[1] - x.range[1]);
const globalUnicast = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

function toIPv4([hi, lo]: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi! >> 8, hi! & 0xff, lo! >> 8, lo! & 0xff]);
}

/**
 * ipaddr.js reads any IPv6 literal ending in a dotted quad as IPv4-mapped (`::127.0.0.1` becomes
 * `::ffff:7f00:1`); the WHATWG URL parser writes it as the hex form it is (`::7f00:1`).
 */
function canonicalIPv6(ip: string): string {
  if (!ip.includes(':') || !ip.includes('.')) return ip;
  try {
    return stripBrackets(new URL(`http://[${stripBrackets(ip)}]/`).hostname);
  } catch {
    return ip;
  }
}

/** The special-purpose class of an address (no allowlist), or null for a public unicast address. */
function specialClass(address: Address, allowlist: Allowlist): string | null {
  const row = table.find((r) => r.range[0].kind() === address.kind() && address.match(r.range));
  if (row?.embeds) {
    for (const inner of row.embeds((address as ipaddr.IPv6).parts)) {
      const reason = blockedReason(toIPv4(inner).toString(), allowlist);
      if (reason) return reason;
    }
    return null;
  }
  if (row) return row.name;
  if (address.kind() === 'ipv6' && !address.match(globalUnicast)) return 'reserved';
  return null;
}

/**
 * Why an address must not be reached, or null when it is a public unicast address or allow-listed
 * (an allow-listed IPv4 address is allowed in the IPv6 forms that carry it, too).
 */
export function blockedReason(ip: string, allowlist: Allowlist): string | null {
  if (!ipaddr.isValid(ip)) return 'not an IP address';
  const address = ipaddr.parse(canonicalIPv6(ip));
  if (inAllowlist(address, allowlist)) return null;
  return specialClass(address, allowlist);
}

export function blockedError(host: string, ip: string, reason: string): OutboundError {
  const shown = host === ip ? ip : `${host} (${ip})`;
  return new OutboundError(
    'blocked',
    `Requests to private or reserved addresses are not allowed: ${shown} is ${reason}.`,
  );
}

/** The IP literal of a WHATWG-parsed hostname (which has already normalised 0x7f.1 and friends), or null. */
export function literalAddress(hostname: string): string | null {
  const bare = stripBrackets(hostname);
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))
    ? bare
    : null;
}

export type Resolver = (hostname: string) => Promise<dns.LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true });

/**
 * Resolves A and AAAA records by asking the given DNS servers directly (OUTBOUND_DNS_SERVERS), for an
 * operator who wants outbound names resolved by a resolver of their choice rather than the system's
 * (which also reads /etc/hosts). Every record of both families is returned, so the guard sees them all.
 */
export function createDnsResolver(servers: readonly string[]): Resolver {
  const resolver = new dns.promises.Resolver({ timeout: 3000, tries: 2 });
  resolver.setServers([...servers]);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses: dns.LookupAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length === 0) {
      throw v4.status === 'rejected'
        ? v4.reason
        : Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' });
    }
    return addresses;
  };
}

/** Throws 'blocked' unless every address is allowed. */
export function assertAddressesAllowed(
  hostname: string,
  addresses: readonly dns.LookupAddress[],
  allowlist: Allowlist,
): void {
  for (const { address } of addresses) {
    const reason = blockedReason(address, allowlist);
    if (reason) throw blockedError(hostname, address, reason);
  }
}

/**
 * A `lookup` for net/tls.connect that checks every A and AAAA record of the name at connection time,
 * so a name that re-binds between an earlier check and the connect still cannot reach a private host.
 */
export function createGuardedLookup(allowlist: Allowlist, resolver?: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const resolved = (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (!isAllowlistedName(hostname, allowlist)) {
        try {
          assertAddressesAllowed(hostname, addresses, allowlist);
        } catch (blocked) {
          return callback(blocked as NodeJS.ErrnoException, '', 0);
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      return callback(null, first.address, first.family);
    };
    if (!resolver) {
      dns.lookup(hostname, { ...options, all: true }, resolved);
      return;
    }
    resolver(hostname).then(
      (all) => {
        // A socket asking for one family gets only that family's records.
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        resolved(null, family ? all.filter((a) => a.family === family) : all);
      },
      (error: NodeJS.ErrnoException) => resolved(error, []),
    );
  };
}
