// A sender's reaper calls `sending` rows of stopped senders unknown, never its own sends in progress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrphansUnknown } from '../../src/delivery/store.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
let accountId = '';
beforeAll(async () => {
  t = await freshDb();
  accountId = (await seedFixture(t.db, { accounts: [{ ref: 'a', name: 'a' }] }, { erasureSecret: Buffer.from('t') })).accounts.a.id;
});
afterAll(() => t?.close());

async function sending(owner: string): Promise<string> {
  const id = uuidv7();
  await t.db.query(
    `insert into outbox (account_id, id, channel, status, to_address, body, message_id, claimed_at, claimed_by)
     values ($1, $2, 'email', 'sending', 'x@example.org', 'b', $3, now() - interval '10 minutes', $4)`,
    [accountId, id, `<${id}@t>`, owner],
  );
  return id;
}

describe('orphaned sends', () => {
  it('only rows of other senders, past the stuck time, become unknown', async () => {
    const mine = await sending('me');
    const theirs = await sending('dead-sender');
    const marked = await markOrphansUnknown(t.db, 60_000, 'me');
    expect(marked.map((r) => r.id)).toEqual([theirs]);
    const rows = await t.db.query<{ id: string; status: string }>('select id, status from outbox where id = any($1::uuid[]) order by id', [[mine, theirs]]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [mine]: 'sending', [theirs]: 'unknown' });
  });
});
