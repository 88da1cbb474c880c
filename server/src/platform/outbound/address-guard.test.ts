import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import {
  blockedReason,
  isAllowlistedName,
  literalAddress,
  parseAllowlist,
  specialRanges,
} from './address-guard.ts';

const none = parseAllowlist([]);

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['198.18.0.1', 'benchmarking'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['2001:db8::1', 'documentation'],
    // Finding 4: IPv4-compatible IPv6 (::/96) in every spelling.
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::169.254.169.254', 'ipv4Compatible'],
    ['::8.8.8.8', 'ipv4Compatible'],
    // SIIT, NAT64, 6to4 and Teredo carrying a private IPv4 address.
    ['::ffff:0:7f00:1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b:1::1', 'nat64LocalUse'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a9fe:a9fe::', 'linkLocal'],
    ['2002:c0a8:101:1::1', 'private'],
    // Teredo client 127.0.0.1 (stored inverted: 80ff:fffe), public server 65.54.227.120.
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    // Teredo server 10.0.0.1, public client 8.8.8.8 (f7f7:f7f7).
    ['2001:0:a00:1::f7f7:f7f7', 'private'],
    ['100::1', 'discardOnly'],
    ['3fff::1', 'documentation'],
    ['fec0::1', 'siteLocal'],
    ['4000::1', 'reserved'],
  ])('refuses %s (%s)', (ip, reason) => {
    expect(blockedReason(ip, none)).toBe(reason);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('lets public %s through', (ip) => {
    expect(blockedReason(ip, none)).toBeNull();
  });

  describe.each(specialRanges.map((r) => [r.cidr, r] as const))(
    'IANA special-purpose range %s',
    (_cidr, row) => {
      const [network, bits] = ipaddr.parseCIDR(row.cidr);
      // The range's last address, or else its first: one inside it and in no more specific range listed.
      const first = network.toByteArray();
      const last = first.map((byte, i) => byte | ((1 << Math.min(8, Math.max(0, (i + 1) * 8 - bits))) - 1));
      const inside = [last, first]
        .map((b) => ipaddr.fromByteArray(b))
        .find((a) =>
          specialRanges.every((other) => {
            const [net, size] = ipaddr.parseCIDR(other.cidr);
            return size <= bits || net.kind() !== a.kind() || !a.match(net, size);
          }),
        )!
        .toString();
      if (row.embeds) {
        it(`judges ${inside} (${row.name}) by the IPv4 address it carries`, () => {
          const carriesUnspecified = blockedReason(inside, none);
          expect(carriesUnspecified).not.toBeNull();
          expect(carriesUnspecified).not.toBe(row.name);
        });
      } else {
        it(`refuses ${inside} as ${row.name}`, () => {
          expect(blockedReason(inside, none)).toBe(row.name);
        });
      }
    },
  );

  it('lets allow-listed addresses and ranges through, IPv4-mapped forms included', () => {
    const allow = parseAllowlist(['127.0.0.1', '10.0.0.0/8', ' [fd00::1] ', 'Sim.Local.']);
    expect(blockedReason('127.0.0.1', allow)).toBeNull();
    expect(blockedReason('::ffff:127.0.0.1', allow)).toBeNull();
    expect(blockedReason('127.0.0.2', allow)).toBe('loopback');
    expect(blockedReason('10.200.3.4', allow)).toBeNull();
    expect(blockedReason('fd00::1', allow)).toBeNull();
    expect(blockedReason('fd00::2', allow)).toBe('uniqueLocal');
    expect(isAllowlistedName('sim.local', allow)).toBe(true);
    expect(isAllowlistedName('SIM.LOCAL.', allow)).toBe(true);
    expect(isAllowlistedName('other.local', allow)).toBe(false);
  });
});

describe('literalAddress', () => {
  it('recognises what WHATWG URL parsing normalises numeric hosts to', () => {
    for (const raw of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://017700000001/',
      'http://0x7f000001/',
    ]) {
      expect(literalAddress(new URL(raw).hostname)).toBe('127.0.0.1');
    }
    expect(literalAddress(new URL('http://[::ffff:127.0.0.1]/').hostname)).toBe('::ffff:7f00:1');
    expect(literalAddress('example.com')).toBeNull();
    expect(literalAddress('1.2.3.4.example')).toBeNull();
  });
});
