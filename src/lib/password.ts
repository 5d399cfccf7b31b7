// User passwords, one way: scrypt, stored as `scrypt$N$r$p$salt$hash` (base64 salt and hash), the
// format the fixtures write and the hub's sign-in checks.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// 2^14 with r=8 is the common interactive-login setting (~16 MiB, tens of ms per hash).
const N = 16384;
const R = 8;
const P = 1;
const KEY_LEN = 32;
/** A stored hash names its own cost; one that would take more memory than this is refused, not run. */
const MAX_MEM = 64 * 1024 * 1024;

function scryptAsync(password: string, salt: Buffer, len: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, len, { ...opts, maxmem: MAX_MEM }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LEN, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** False for a wrong password and for a stored value that is not a scrypt hash of this format. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6) return false;
  // Six parts (checked above): the defaults never apply.
  const [scheme, nText = '', rText = '', pText = '', salt64 = '', hash64 = ''] = parts;
  if (scheme !== 'scrypt') return false;
  const [n, r, p] = [Number(nText), Number(rText), Number(pText)] as const;
  if (![n, r, p].every((x) => Number.isSafeInteger(x) && x > 0) || 128 * n * r * p > MAX_MEM / 2) return false;
  const salt = Buffer.from(salt64, 'base64');
  const expected = Buffer.from(hash64, 'base64');
  if (!expected.length) return false;
  const actual = await scryptAsync(password, salt, expected.length, { N: n, r, p });
  return timingSafeEqual(actual, expected);
}
