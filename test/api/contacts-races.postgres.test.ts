// Contacts against a real concurrent transaction on PostgreSQL (a second connection holds a change
// while the request runs; PGlite has one connection, so nothing can run beside a request there):
// the unique address and the erasure checks hold at commit, not only when the request looked.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/db.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { ERASURE_SECRET, erasedEmailHmac } from '../../src/secrets/one-way.js';
import { loadSecrets } from '../../src/secrets/store.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { expectError } from '../http/fixtures.js';
import { contactRequests, expectExists, heldWhile, seedContactsWorld } from './contacts-support.js';

let t: TestApp;
let acme: AccountSeedResult;
let seq = 0;
let erasureSecret: Buffer;

const { post, patch, get } = contactRequests(() => t, () => acme.keys.main);
const fresh = (tag = 'new') => `${tag}${++seq}@fresh.example`;

beforeAll(async () => {
  t = await testApp();
  const [erasure] = await loadSecrets(t.db, ERASURE_SECRET);
  erasureSecret = erasure.secret;
  acme = (await seedContactsWorld(t, erasure.secret)).acme;
});
afterAll(() => t?.close());

const whileHeld = (hold: (tx: Queryable) => Promise<unknown>, request: () => Promise<LightMyRequestResponse>) => heldWhile(t, hold, request);
const create = async () => (await post({ email: fresh('race') })).json();

describe('POST /contacts races with another transaction', () => {
  it('POST of an address whose erasure commits while the insert waits → 409 contact_do_not_contact', async () => {
    const y = await create();
    const res = await whileHeld(
      async (tx) => {
        await tx.query('update contacts set email = null, email_normalized = null, erased_at = now() where id = $1', [y.id]);
        await tx.query('insert into erased_emails (account_id, email_hmac) values ($1, $2)', [acme.id, erasedEmailHmac(erasureSecret, y.email)]);
      },
      () => post({ email: y.email.toUpperCase() }),
    );
    expectError(res, 409, 'conflict', 'contact_do_not_contact', 'email');
    expect(await t.db.query('select id from contacts where email_normalized = $1', [y.email])).toEqual([]);
  });

  it('POST of an address another transaction is inserting → 409 contact_exists once that commits', async () => {
    const email = fresh('inflight');
    const id = uuidv7();
    const res = await whileHeld(
      (tx) => tx.query('insert into contacts (account_id, id, email, email_normalized) values ($1, $2, $3, $3)', [acme.id, id, email]),
      () => post({ email }),
    );
    expectExists(res, id);
  });
});

describe('PATCH /contacts/{id} races with another transaction', () => {
  it('PATCH to an address another transaction takes after our check → 409 contact_exists naming it, nothing changed', async () => {
    const [x, y] = [await create(), await create()];
    const email = fresh('taken-late');
    const res = await whileHeld(
      (tx) => tx.query('update contacts set email = $1, email_normalized = $1 where id = $2', [email, y.id]),
      () => patch(x.id, { email, first_name: 'Late' }),
    );
    expectExists(res, y.id);
    expect((await get(x.id)).json()).toEqual(x);
  });
});
