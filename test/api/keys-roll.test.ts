// Rolling a key, seen from /v1: the old key works for its grace and then answers the spec's
// 401 api_key_expired, the new one works at once; a rolled key in its grace does not count toward
// the 10 active keys, and the 11th active key is refused with 409 key_limit_reached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { invalidateAuth } from '../../src/keys/invalidate.js';
import { OPERATOR } from '../../src/services/audit/service.js';
import { createAccountKey, revokeAccountKey, rollAccountKey } from '../../src/services/keys/manage.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let acme: AccountSeedResult;

beforeAll(async () => {
  t = await testApp();
  ({ acme } = await seed(t.db, account('acme', { keys: [{ ref: 'main', scopes: ['workflows:read'] }] })));
});
afterAll(() => t?.close());

const workflows = (key: string) => t.app.inject({ method: 'GET', url: '/v1/workflows', headers: bearer(key) });

const newKey = (name: string) =>
  createAccountKey(t.db, acme.id, { createdBy: acme.users.owner, name, scopes: ['workflows:read'], expiresAt: null, monthlySpendCapMicros: null }, OPERATOR);

describe('a rolled key on /v1', () => {
  it('works during the grace, then gets 401 api_key_expired; the new key works throughout', async () => {
    const rolled = await rollAccountKey(t.db, acme.id, acme.key_ids.main, '1h', OPERATOR);
    expect(rolled.old).toMatchObject({ state: 'rolled', replaced_by: rolled.key.id });
    expect(rolled.key).toMatchObject({ state: 'active', scopes: ['workflows:read'], name: rolled.old.name });
    expect((await workflows(acme.keys.main)).statusCode).toBe(200);
    expect((await workflows(rolled.value)).statusCode).toBe(200);
    // The grace ends: move the old key's expiry into the past, as an hour passing would.
    // A hand edit of the table is no service change: it tells the key caches as the services do.
    await t.db.query(`update api_keys set expires_at = now() - interval '1 millisecond' where id = $1`, [acme.key_ids.main]);
    await invalidateAuth(t.db);
    expectError(await workflows(acme.keys.main), 401, 'authentication', 'api_key_expired');
    expect((await workflows(rolled.value)).statusCode).toBe(200);
  });

  it('with grace none the old key is refused from the next request', async () => {
    const k = await newKey('short');
    const rolled = await rollAccountKey(t.db, acme.id, k.id, 'none', OPERATOR);
    expectError(await workflows(k.value), 401, 'authentication', 'api_key_expired');
    expect((await workflows(rolled.value)).statusCode).toBe(200);
    await revokeAccountKey(t.db, acme.id, rolled.key.id, OPERATOR);
    expectError(await workflows(rolled.value), 401, 'authentication', 'api_key_revoked');
  });
});

describe('the limit of 10 active keys', () => {
  it('refuses the 11th with key_limit_reached; a rolled key in its grace does not count; rolling at 10 works', async () => {
    const active = async () =>
      (await t.db.query<{ n: number }>(
        `select count(*)::int as n from api_keys where account_id = $1 and revoked_at is null and replaced_by is null and (expires_at is null or expires_at > now())`,
        [acme.id],
      ))[0].n;
    const made = [];
    while ((await active()) < 10) made.push(await newKey(`k${made.length}`));
    const refused = await newKey('eleventh').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'key_limit_reached', status: 409 });
    // At 10, a roll still works: the old key leaves the count as the new one enters it.
    const rolled = await rollAccountKey(t.db, acme.id, made[0].id, '7d', OPERATOR);
    expect(await active()).toBe(10);
    expect((await workflows(made[0].value)).statusCode).toBe(200);
    await expect(newKey('still eleventh')).rejects.toMatchObject({ code: 'key_limit_reached' });
    // Revoking the new key frees a slot even though the rolled key still works.
    await revokeAccountKey(t.db, acme.id, rolled.key.id, OPERATOR);
    expect((await newKey('tenth again')).key.state).toBe('active');
  });
});
