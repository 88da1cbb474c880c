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

const nat64 = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 address an IPv6 address carries in its last 32 bits (mapped, translated, NAT64), if any. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const carries =
    range === 'ipv4Mapped' || range === 'rfc6145' || address.match(nat64 as [ipaddr.IPv6, number]);
  if (!carries) return null;
  const parts = address.parts;
  const hi = parts[6]!;
  const lo = parts[7]!;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/**
 * Why an address must not be reached, or null when it is a public unicast address or allow-listed.
 * Only ipaddr.js's 'unicast' range passes: loopback, private, link-local (cloud metadata), CGNAT,
 * benchmarking, reserved, multicast, ULA and the like all carry their own range name.
 */
export function blockedReason(ip: string, allowlist: Allowlist): string | null {
  if (!ipaddr.isValid(ip)) return 'not an IP address';
  const address = ipaddr.parse(ip);
  if (inAllowlist(address, allowlist)) return null;
  if (address.kind() === 'ipv6') {
    const inner = embeddedIPv4(address as ipaddr.IPv6);
    if (inner) return inAllowlist(inner, allowlist) ? null : blockedReason(inner.toString(), allowlist);
  }
  const range = address.range();
  return range === 'unicast' ? null : range;
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
