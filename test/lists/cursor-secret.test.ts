// The cursor signing secret is persisted and rotatable: a rotation keeps the previous secret
// valid (cursors in flight keep working); the one before that stops verifying.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CursorCodec } from '../../src/http/cursor.js';
import { ApiError } from '../../src/domain/errors.js';
import { loadSecrets, rotateSecret } from '../../src/secrets/store.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

const scope = CursorCodec.scope('acct', 'GET /v1/workflows', { status: 'active' });

function code(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof ApiError ? err.code : 'other';
  }
}

describe('cursor secret', () => {
  it('is generated once and persisted', async () => {
    const a = await loadSecrets(t.db, 'cursor-test');
    const b = await loadSecrets(t.db, 'cursor-test');
    expect(a).toHaveLength(1);
    expect(b[0].secret.equals(a[0].secret)).toBe(true);
    expect(a[0].secret.length).toBe(32);
  });

  it('rotation keeps the previous secret valid and retires the one before', async () => {
    const codec = new CursorCodec(await loadSecrets(t.db, 'cursor-rot'));
    const c1 = codec.encode(scope, ['2026-01-01T00:00:00.000Z', 'x']);
    await rotateSecret(t.db, 'cursor-rot');
    codec.setSecrets(await loadSecrets(t.db, 'cursor-rot'));
    const c2 = codec.encode(scope, ['2026-01-02T00:00:00.000Z', 'y']);
    expect(c2).not.toBe(c1);
    expect(codec.decode(scope, c1)).toEqual(['2026-01-01T00:00:00.000Z', 'x']);
    expect(codec.decode(scope, c2)).toEqual(['2026-01-02T00:00:00.000Z', 'y']);
    await rotateSecret(t.db, 'cursor-rot');
    codec.setSecrets(await loadSecrets(t.db, 'cursor-rot'));
    expect(code(() => codec.decode(scope, c1))).toBe('invalid_cursor');
    expect(codec.decode(scope, c2)).toEqual(['2026-01-02T00:00:00.000Z', 'y']);
  });

  it('binds a cursor to its scope and refuses tampering', async () => {
    const codec = new CursorCodec(await loadSecrets(t.db, 'cursor-scope'));
    const c = codec.encode(scope, ['p', 'q']);
    const other = CursorCodec.scope('acct', 'GET /v1/workflows', {});
    const otherAccount = CursorCodec.scope('acct2', 'GET /v1/workflows', { status: 'active' });
    expect(code(() => codec.decode(other, c))).toBe('invalid_cursor');
    expect(code(() => codec.decode(otherAccount, c))).toBe('invalid_cursor');
    const [payload, sig] = c.split('.');
    const forged = Buffer.from(JSON.stringify({ p: ['z', 'z'], s: scope })).toString('base64url');
    expect(code(() => codec.decode(scope, `${forged}.${sig}`))).toBe('invalid_cursor');
    expect(code(() => codec.decode(scope, `${payload}.`))).toBe('invalid_cursor');
    expect(code(() => codec.decode(scope, 'garbage'))).toBe('invalid_cursor');
    expect(codec.decode(scope, c)).toEqual(['p', 'q']);
  });
});
