// The address guard's range check, as a table: every refused range at its edges, and public
// neighbours that must pass.
import { describe, expect, it } from 'vitest';
import { blockedAddressReason, parseIpv4, parseIpv6 } from '../../../src/engine/providers/address.js';

// [address, refused?, reason fragment]
const TABLE: Array<[string, boolean, string?]> = [
  // IPv4 private, loopback, link-local, CGNAT, unspecified
  ['0.0.0.0', true, 'unspecified'],
  ['0.255.255.255', true, 'unspecified'],
  ['1.0.0.0', false],
  ['9.255.255.255', false],
  ['10.0.0.0', true, 'private (10.'],
  ['10.255.255.255', true, 'private (10.'],
  ['11.0.0.0', false],
  ['100.63.255.255', false],
  ['100.64.0.0', true, 'CGNAT'],
  ['100.127.255.255', true, 'CGNAT'],
  ['100.128.0.0', false],
  ['126.255.255.255', false],
  ['127.0.0.1', true, 'loopback'],
  ['127.255.255.255', true, 'loopback'],
  ['128.0.0.0', false],
  ['169.253.255.255', false],
  ['169.254.0.0', true, 'link-local'],
  ['169.254.169.254', true, 'metadata'],
  ['169.255.0.0', false],
  ['172.15.255.255', false],
  ['172.16.0.0', true, 'private (172.16'],
  ['172.31.255.255', true, 'private (172.16'],
  ['172.32.0.0', false],
  ['192.0.0.1', true, 'reserved'],
  ['192.0.2.1', true, 'documentation'],
  ['192.88.99.1', true, '6to4 relay'],
  ['192.167.255.255', false],
  ['192.168.0.0', true, 'private (192.168'],
  ['192.168.255.255', true, 'private (192.168'],
  ['192.169.0.0', false],
  ['198.17.255.255', false],
  ['198.18.0.0', true, 'benchmarking'],
  ['198.19.255.255', true, 'benchmarking'],
  ['198.20.0.0', false],
  ['198.51.100.7', true, 'documentation'],
  ['203.0.113.7', true, 'documentation'],
  ['223.255.255.255', false],
  ['224.0.0.1', true, 'multicast'],
  ['239.255.255.255', true, 'multicast'],
  ['240.0.0.1', true, 'reserved'],
  ['255.255.255.255', true, 'reserved'],
  ['8.8.8.8', false],
  ['93.184.216.34', false],
  // IPv6
  ['::', true, 'unspecified'],
  ['::1', true, 'loopback'],
  ['0:0:0:0:0:0:0:1', true, 'loopback'],
  ['::2', true, 'reserved'],
  ['::ffff:127.0.0.1', true, 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', true, 'IPv4-mapped loopback'],
  ['::ffff:10.1.2.3', true, 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', true, 'IPv4-mapped link-local'],
  ['0:0:0:0:0:ffff:192.168.1.1', true, 'IPv4-mapped private'],
  ['::ffff:8.8.8.8', false],
  ['::127.0.0.1', true, 'reserved'], // IPv4-compatible, deprecated
  ['64:ff9b::10.0.0.1', true, 'NAT64 private'],
  ['64:ff9b::8.8.8.8', false],
  ['2002:7f00:1::', true, '6to4 loopback'],
  ['2002:0808:0808::1', false],
  ['fc00::', true, 'unique-local'],
  ['fd00:ec2::254', true, 'unique-local'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true, 'unique-local'],
  ['fe80::', true, 'link-local'],
  ['fe80::1%eth0', true, 'link-local'],
  ['febf:ffff::', true, 'link-local'],
  ['fec0::1', true, 'site-local'],
  ['ff02::1', true, 'multicast'],
  ['100::1', true, 'reserved'],
  ['2001:db8::1', true, 'documentation'],
  ['2001::1', true, 'IETF'],
  ['2001:1ff::1', true, 'IETF'],
  ['2001:200::1', false],
  ['3fff::1', true, 'documentation'],
  ['1fff:ffff::', true, 'reserved'],
  ['4000::1', true, 'reserved'],
  ['2606:4700:4700::1111', false],
  ['2a00:1450:4001:80b::200e', false],
  ['[2606:4700:4700::1111]', false],
  // Not addresses at all: refused
  ['', true, 'not an IP'],
  ['localhost', true, 'not an IP'],
  ['010.0.0.1', true, 'not an IP'],
  ['1.2.3', true, 'not an IP'],
  ['1.2.3.256', true, 'not an IP'],
  ['1::2::3', true, 'not an IP'],
  ['1:2:3:4:5:6:7:8:9', true, 'not an IP'],
  ['12345::', true, 'not an IP'],
];

describe('blockedAddressReason', () => {
  it.each(TABLE)('%s refused=%s', (ip, refused, why) => {
    const reason = blockedAddressReason(ip);
    if (refused) {
      expect(reason).not.toBeNull();
      expect(reason).toContain(why!);
    } else {
      expect(reason).toBeNull();
    }
  });
});

describe('parsers', () => {
  it('parses IPv4 strictly', () => {
    expect(parseIpv4('192.168.0.1')).toEqual([192, 168, 0, 1]);
    expect(parseIpv4('0x7f.0.0.1')).toBeNull();
    expect(parseIpv4('127.1')).toBeNull();
  });
  it('parses IPv6 forms to 16 bytes', () => {
    expect(parseIpv6('::1')).toEqual([...new Array(15).fill(0), 1]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect(parseIpv6('::ffff:1.2.3.4')?.slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(parseIpv6('1.2.3.4::')).toBeNull();
    expect(parseIpv6('1:2:3:4:5:6:7::8')).toBeNull(); // '::' must stand for at least one group
  });
});
