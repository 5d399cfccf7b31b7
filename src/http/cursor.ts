// Opaque list cursors: base64url(JSON {p: position, s: scope hash}) + "." + HMAC. The scope hash
// binds a cursor to the account, the endpoint and its filters, so a cursor taken elsewhere, or
// tampered with, is refused as 400 invalid_cursor. The newest secret signs; the one before it
// still verifies (rotation does not break cursors in flight).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { SecretVersion } from '../secrets/store.js';
import { ApiError } from '../domain/errors.js';

export type Position = readonly (string | number)[];

const SIG_BYTES = 16;

function canonical(filters: Record<string, unknown>): string {
  const keys = Object.keys(filters).filter((k) => filters[k] !== undefined).sort();
  return JSON.stringify(keys.map((k) => [k, filters[k]]));
}

export class CursorCodec {
  constructor(private secrets: SecretVersion[]) {
    if (!secrets.length) throw new Error('cursor codec needs a secret');
  }

  /** Swap in freshly loaded secrets (after a rotation). */
  setSecrets(secrets: SecretVersion[]): void {
    if (secrets.length) this.secrets = secrets;
  }

  private sign(secret: Buffer, payload: string): Buffer {
    return createHmac('sha256', secret).update(payload).digest().subarray(0, SIG_BYTES);
  }

  static scope(accountId: string, endpoint: string, filters: Record<string, unknown>): string {
    return createHash('sha256').update(`${accountId}\n${endpoint}\n${canonical(filters)}`).digest('base64url').slice(0, 22);
  }

  encode(scope: string, position: Position): string {
    const payload = Buffer.from(JSON.stringify({ p: position, s: scope })).toString('base64url');
    // Never empty: the constructor refuses none and setSecrets keeps the old ones rather than none.
    const newest = this.secrets[0]!;
    return `${payload}.${this.sign(newest.secret, payload).toString('base64url')}`;
  }

  /** The position inside a cursor issued for this scope, or 400 invalid_cursor. */
  decode(scope: string, cursor: string): Position {
    const bad = () => new ApiError('invalid_cursor', 'The cursor was not given out by this endpoint with these filters.', { param: 'cursor' });
    if (cursor.length > 4096) throw bad();
    const dot = cursor.indexOf('.');
    if (dot <= 0) throw bad();
    const payload = cursor.slice(0, dot);
    const sig = Buffer.from(cursor.slice(dot + 1), 'base64url');
    if (sig.length !== SIG_BYTES) throw bad();
    const ok = this.secrets.some((s) => timingSafeEqual(this.sign(s.secret, payload), sig));
    if (!ok) throw bad();
    let parsed: { p?: unknown; s?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p?: unknown; s?: unknown };
    } catch {
      throw bad();
    }
    if (parsed.s !== scope || !Array.isArray(parsed.p)) throw bad();
    return parsed.p as Position;
  }
}
