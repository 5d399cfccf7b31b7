import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/keys/store.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let key = '';
beforeAll(async () => {
  t = await testApp();
  const acct = uuidv7();
  const user = uuidv7();
  await t.db.transaction(async (tx) => {
    await tx.query(`insert into accounts (id, name) values ($1, 'a')`, [acct]);
    await tx.query(`insert into users (account_id, id, email, role) values ($1, $2, 'o@x', 'owner')`, [acct, user]);
    key = (await createKey(tx, { accountId: acct, createdBy: user, name: 'k', scopes: ['workflows:read'], expiresAt: null, monthlySpendCapMicros: null })).value;
    await tx.query(`insert into workflows (account_id, id, name) values ($1, $2, 'wf')`, [acct, uuidv7()]);
  });
});
afterAll(() => t?.close());

describe('smoke', () => {
  it('lists', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/v1/workflows', headers: { authorization: `Bearer ${key}` } });
    console.log(r.statusCode, r.headers, r.body);
    const r2 = await t.app.inject({ method: 'POST', url: '/v1/workflows', headers: { authorization: `Bearer ${key}` } });
    console.log(r2.statusCode, r2.headers, r2.body);
    const r3 = await t.app.inject({ method: 'GET', url: '/v1/nope' });
    console.log(r3.statusCode, r3.body);
    const r4 = await t.app.inject({ method: 'GET', url: '/v1/workflows?limit=0', headers: { authorization: `Bearer ${key}` } });
    console.log(r4.statusCode, r4.body);
    const r5 = await t.app.inject({ method: 'GET', url: '/v1/workflows/abc', headers: { authorization: `Bearer ${key}` } });
    console.log(r5.statusCode, r5.body);
    const r6 = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    console.log(r6.statusCode, r6.body.slice(0, 3000));
    expect(r.statusCode).toBe(200);
  });
});
