// Lists as a syncing client uses them, beside a concurrent writer (PostgreSQL: a second connection
// holds a row while the request waits; PGlite has one connection): a change that commits after a
// changed_since walk read the contact is found by the next sync from the newest updated_at seen
// (updated_at is taken when the row is written, after any lock wait, not when the transaction began).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, seed } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let K: string;

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(K) });
const patch = (id: string, body: unknown) =>
  t.app.inject({ method: 'PATCH', url: `/v1/contacts/${id}`, headers: { ...bearer(K), 'content-type': 'application/json' }, payload: JSON.stringify(body) });

/** A full changed_since walk (limit 2), as a syncing client does it. */
async function sync(since: string | null): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  do {
    const qs = new URLSearchParams({ limit: '2', ...(since ? { changed_since: since } : {}), ...(cursor ? { cursor } : {}) });
    const res = await get(`/v1/contacts?${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    out.push(...res.json().data);
    cursor = res.json().next_cursor;
  } while (cursor);
  return out;
}

beforeAll(async () => {
  t = await testApp();
  s = await seed(t.db, {
    ...account('acme', { tier: 'enterprise', keys: [{ ref: 'main', scopes: ['contacts:read', 'contacts:write'] }] }),
    contacts: [
      { ref: 'x', email: 'x@example.org', first_name: 'X' },
      { ref: 'y', email: 'y@example.org', first_name: 'Y' },
      { ref: 'z', email: 'z@example.org', first_name: 'Z' },
    ],
  });
  K = s.acme.keys.main;
});
afterAll(() => t?.close());

describe('contacts changed_since sync under concurrent updates', () => {
  it('a change committed after a sync read it is found by the next sync from the newest updated_at seen', async () => {
    const c = s.acme.contacts;
    // Another writer (the hub, or a second PATCH) holds y's row for a moment.
    let release!: () => void;
    let holding!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = new Promise<void>((r) => (holding = r));
    const other = t.db.transaction(async (tx) => {
      await tx.query('select id from contacts where id = $1 for update', [c.y]);
      holding();
      await gate;
    });
    await held;
    const pendingY = patch(c.y, { first_name: 'Yvonne' }); // waits for y's row
    for (let i = 0; i < 200; i++) {
      const [{ n }] = await t.db.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if (n > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await new Promise((r) => setTimeout(r, 20));
    expect((await patch(c.x, { first_name: 'Xavier' })).statusCode).toBe(200);

    const first = await sync(null);
    expect(first.find((r) => r.id === c.y)!.first_name).toBe('Y'); // y's change is not committed yet
    const watermark = first.map((r) => r.updated_at as string).sort().at(-1)!;

    release();
    await other;
    const resY = await pendingY;
    expect(resY.statusCode, resY.body).toBe(200);

    const second = await sync(watermark);
    // y changed (committed) after the first sync read it; the next sync must bring the change.
    expect(second.find((r) => r.id === c.y)?.first_name).toBe('Yvonne');
  });
});
