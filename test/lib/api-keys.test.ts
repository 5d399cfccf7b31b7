// Key values: the checksum every request's key is checked against must stay the one keys were
// issued with. It was first computed with BigInt arithmetic; the fast form (plain doubles) is held
// to that, on random bodies and on the 8-byte values that stress the arithmetic most.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base62Checksum, generateKey, hashKey, isWellFormedKey, KEY_PREFIX } from '../../src/lib/api-keys.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The reference: the last 6 base-62 digits of 8 bytes, by BigInt. */
function referenceDigits(bytes: Buffer): string {
  let n = BigInt('0x' + bytes.toString('hex'));
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

/** A key body's checksum as keys were first issued: the digits of its SHA-256's first 8 bytes. */
function referenceChecksum(body: string): string {
  return referenceDigits(createHash('sha256').update(KEY_PREFIX + body).digest().subarray(0, 8));
}

function randomBody(): string {
  return Array.from(randomBytes(32), (b) => ALPHABET[b % 62]).join('');
}

describe('API key checksums', () => {
  it('accept the BigInt form\'s checksum on 20,000 random bodies', () => {
    for (let i = 0; i < 20_000; i++) {
      const body = randomBody();
      expect(isWellFormedKey(KEY_PREFIX + body + referenceChecksum(body)), body).toBe(true);
    }
  });

  it('equal it on the 8-byte values that stress the arithmetic (largest, smallest, each 16-bit boundary)', () => {
    const cases = [Buffer.alloc(8, 0xff), Buffer.alloc(8, 0), Buffer.from('0000000000000001', 'hex'), Buffer.from('fffffffffffffffe', 'hex')];
    for (let i = 0; i < 4; i++) {
      const b = Buffer.alloc(8, 0xff);
      b.writeUInt16BE(0, i * 2);
      cases.push(b, Buffer.from(b.map((x) => 0xff - x)));
    }
    for (let i = 0; i < 5_000; i++) cases.push(randomBytes(8));
    for (const b of cases) expect(base62Checksum(b), b.toString('hex')).toBe(referenceDigits(b));
  });

  it('make every generated key well formed, and one changed character malformed', () => {
    for (let i = 0; i < 200; i++) {
      const k = generateKey();
      expect(isWellFormedKey(k.value)).toBe(true);
      expect(k.hash.equals(hashKey(k.value))).toBe(true);
      const at = KEY_PREFIX.length + (i % 38);
      const other = ALPHABET[(ALPHABET.indexOf(k.value[at]) + 1) % 62];
      expect(isWellFormedKey(k.value.slice(0, at) + other + k.value.slice(at + 1))).toBe(false);
    }
  });
});
