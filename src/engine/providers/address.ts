// The source.web address guard's range check (docs/architecture.md §10.6). Written here rather than
// taken from a library so that every refused range is visible in one table and tested.
//
// IPv4 is a deny list of the non-global ranges (RFC 6890). IPv6 is fail-closed: only global
// unicast (2000::/3) may pass, minus its special blocks; addresses that embed an IPv4 address
// (mapped, NAT64, 6to4) are judged by that IPv4 address, so ::ffff:127.0.0.1 is loopback.

type Range = readonly [prefix: readonly number[], bits: number, why: string];

const V4_DENY: readonly Range[] = [
  [[0, 0, 0, 0], 8, 'unspecified ("this network", 0.0.0.0/8)'],
  [[10, 0, 0, 0], 8, 'private (10.0.0.0/8)'],
  [[100, 64, 0, 0], 10, 'shared/CGNAT (100.64.0.0/10)'],
  [[127, 0, 0, 0], 8, 'loopback (127.0.0.0/8)'],
  [[169, 254, 0, 0], 16, 'link-local (169.254.0.0/16, cloud metadata)'],
  [[172, 16, 0, 0], 12, 'private (172.16.0.0/12)'],
  [[192, 0, 0, 0], 24, 'reserved (192.0.0.0/24)'],
  [[192, 0, 2, 0], 24, 'documentation (192.0.2.0/24)'],
  [[192, 88, 99, 0], 24, 'reserved 6to4 relay (192.88.99.0/24)'],
  [[192, 168, 0, 0], 16, 'private (192.168.0.0/16)'],
  [[198, 18, 0, 0], 15, 'benchmarking (198.18.0.0/15)'],
  [[198, 51, 100, 0], 24, 'documentation (198.51.100.0/24)'],
  [[203, 0, 113, 0], 24, 'documentation (203.0.113.0/24)'],
  [[224, 0, 0, 0], 4, 'multicast (224.0.0.0/4)'],
  [[240, 0, 0, 0], 4, 'reserved/broadcast (240.0.0.0/4)'],
];

// Checked before the global-unicast rule, in order; all are inside or outside 2000::/3 as noted.
const V6_DENY: readonly Range[] = [
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'documentation (2001:db8::/32)'],
  [[0x20, 0x01, 0x00, 0x00], 23, 'IETF special-purpose (2001::/23, incl. Teredo)'],
  [[0x3f, 0xff], 20, 'documentation (3fff::/20)'],
];

/** One decimal part of a dotted quad (0–255), or null. */
function octet(p: string): number | null {
  // Leading zeros are refused: some resolvers read them as octal, so their meaning is ambiguous.
  if (!/^(0|[1-9]\d{0,2})$/.test(p)) return null;
  const n = Number(p);
  return n > 255 ? null : n;
}

/** Parses a dotted-quad IPv4 address (exactly four decimal parts, no leading zeros). */
export function parseIpv4(s: string): [number, number, number, number] | null {
  const [a, b, c, d, ...more] = s.split('.').map(octet);
  if (a == null || b == null || c == null || d == null || more.length) return null;
  return [a, b, c, d];
}

/** Parses an IPv6 address (with `::`, an embedded dotted quad, and an optional %zone) to 16 bytes. */
export function parseIpv6(input: string): number[] | null {
  let s = input;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  if (!s.includes(':')) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  // `after` is there when the address has a `::`.
  const [before = '', after] = halves;
  const groups = (h: string): number[] | null => {
    if (h === '') return [];
    const out: number[] = [];
    const parts = h.split(':');
    for (const [i, p] of parts.entries()) {
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIpv4(p);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return null;
        out.push(parseInt(p, 16));
      }
    }
    return out;
  };
  const head = groups(before);
  const tail = after === undefined ? [] : groups(after);
  if (!head || !tail) return null;
  // A dotted quad is only allowed at the very end of the address.
  if (after !== undefined && before.includes('.')) return null;
  let words: number[];
  if (after !== undefined) {
    const fill = 8 - head.length - tail.length;
    if (fill < 1) return null;
    words = [...head, ...new Array<number>(fill).fill(0), ...tail];
  } else {
    if (head.length !== 8) return null;
    words = head;
  }
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function inRange(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const n = Math.min(8, bits - i);
    const mask = (0xff << (8 - n)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function v4Reason(b: readonly number[]): string | null {
  for (const [prefix, bits, why] of V4_DENY) if (inRange(b, prefix, bits)) return why;
  return null;
}

const isZero = (b: readonly number[], from: number, to: number): boolean => b.slice(from, to).every((x) => x === 0);

function v6Reason(b: readonly number[]): string | null {
  if (isZero(b, 0, 16)) return 'unspecified (::)';
  if (isZero(b, 0, 15) && b[15] === 1) return 'loopback (::1)';
  // ::ffff:a.b.c.d — the socket would really talk IPv4 to a.b.c.d.
  if (isZero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) {
    const why = v4Reason(b.slice(12));
    return why ? `IPv4-mapped ${why}` : null;
  }
  // NAT64 well-known prefix 64:ff9b::/96 translates to the embedded IPv4 address.
  if (inRange(b, [0x00, 0x64, 0xff, 0x9b], 96)) {
    const why = v4Reason(b.slice(12));
    return why ? `NAT64 ${why}` : null;
  }
  // 6to4 2002:V4ADDR::/48 routes to the embedded IPv4 address.
  if (inRange(b, [0x20, 0x02], 16)) {
    const why = v4Reason(b.slice(2, 6));
    return why ? `6to4 ${why}` : null;
  }
  if (inRange(b, [0xfc], 7)) return 'unique-local (fc00::/7)';
  if (inRange(b, [0xfe, 0x80], 10)) return 'link-local (fe80::/10)';
  if (inRange(b, [0xfe, 0xc0], 10)) return 'site-local (fec0::/10)';
  if (inRange(b, [0xff], 8)) return 'multicast (ff00::/8)';
  for (const [prefix, bits, why] of V6_DENY) if (inRange(b, prefix, bits)) return why;
  // Everything else outside global unicast (IPv4-compatible ::/96, 100::/64 discard, unassigned
  // space) is refused: fail closed.
  if (!inRange(b, [0x20], 3)) return 'reserved (outside global unicast 2000::/3)';
  return null;
}

/**
 * Why `ip` must not be fetched from (a short phrase naming the range), or null when it is a
 * public address. Anything that does not parse as an address is refused too.
 */
export function blockedAddressReason(ip: string): string | null {
  const v4 = parseIpv4(ip);
  if (v4) return v4Reason(v4);
  const v6 = parseIpv6(ip);
  if (v6) return v6Reason(v6);
  return 'not an IP address';
}

export function isPublicAddress(ip: string): boolean {
  return blockedAddressReason(ip) === null;
}
