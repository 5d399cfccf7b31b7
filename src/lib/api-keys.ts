// API key values: `svc_live_` + 32 base62 characters (190 bits of randomness) + a 6-character
// checksum. The checksum lets the pipeline refuse a mistyped or made-up key before any lookup.
// Only the SHA-256 of the whole value is stored, with a short display prefix.
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'svc_live_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LEN = 32;
const CHECK_LEN = 6;
const KEY_RE = /^svc_live_[0-9A-Za-z]{38}$/;

function base62(bytes: Buffer, len: number): string {
  let n = BigInt('0x' + bytes.toString('hex'));
  let out = '';
  for (let i = 0; i < len; i++) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

/** 62^CHECK_LEN: a remainder below it, times 2^16, stays an exact double (< 2^53). */
const CHECK_MODULUS = 62 ** CHECK_LEN;

/**
 * base62(bytes, CHECK_LEN) without BigInt: the last CHECK_LEN digits of a number are those of its
 * remainder modulo 62^CHECK_LEN, which 16 bits at a time stays within a double's exact integers.
 * Every request's key goes through here; the BigInt form cost more than the SHA-256 beside it.
 */
export function base62Checksum(bytes: Buffer): string {
  let r = 0;
  for (let i = 0; i < bytes.length; i += 2) r = (r * 65536 + bytes.readUInt16BE(i)) % CHECK_MODULUS;
  let out = '';
  for (let i = 0; i < CHECK_LEN; i++) {
    out = ALPHABET[r % 62] + out;
    r = Math.floor(r / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62Checksum(createHash('sha256').update(KEY_PREFIX + body).digest().subarray(0, 8));
}

export interface NewKey {
  value: string;
  hash: Buffer;
  prefix: string;
}

export function generateKey(): NewKey {
  // 24 random bytes (192 bits) rendered as 32 base62 digits keep ≥ 190 bits.
  const body = base62(randomBytes(24), BODY_LEN);
  const value = KEY_PREFIX + body + checksum(body);
  return { value, hash: hashKey(value), prefix: displayPrefix(value) };
}

/** True when the value has the shape and checksum of a key this server could have issued. */
export function isWellFormedKey(value: string): boolean {
  if (!KEY_RE.test(value)) return false;
  const body = value.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LEN);
  return checksum(body) === value.slice(KEY_PREFIX.length + BODY_LEN);
}

export function hashKey(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** What the hub and run history show of a key: its first characters, never the secret part. */
export function displayPrefix(value: string): string {
  return value.slice(0, KEY_PREFIX.length + 6);
}
