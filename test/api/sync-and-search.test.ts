// Lists as a syncing client uses them: a change that commits after a changed_since walk read the
// contact is found by the next sync from the newest updated_at seen (updated_at is taken when the
// row is written, after any lock wait, not when the transaction began); "any case" search folds
// letters alike on both sides (Greek final sigma, Turkish dotted I); a q of blanks is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/db.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';

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
    ...account('acme', { tier: 'enterprise', keys: [{ ref: 'main', scopes: ['contacts:read', 'contacts:write', 'workmgmt:read', 'automations:read', 'usage:read'] }] }),
    projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }],
    workmgmt: {
      site: {
        items: [
          { key: 'WEB-1', type: 'task', title: 'ΝΕΟΣ ΣΧΕΔΙΑΣΜΟΣ' },
          { key: 'WEB-2', type: 'task', title: 'İstanbul office' },
          { key: 'WEB-3', type: 'task', title: 'Something else' },
        ],
      },
    },
    contacts: [
      { ref: 'nikos', email: 'n.p@example.org', first_name: 'ΝΙΚΟΣ' },
      { ref: 'x', email: 'x@example.org', first_name: 'X' },
      { ref: 'y', email: 'y@example.org', first_name: 'Y' },
      { ref: 'z', email: 'z@example.org', first_name: 'Z' },
    ],
  });
  K = s.acme.keys.main;
});
afterAll(() => t?.close());

const itemsQ = (q: string) => get(`/v1/workmgmt/projects/${s.acme.projects.site}/items?q=${encodeURIComponent(q)}`);

describe('search ignores case', () => {
  it('work items: q written exactly as the title (Greek final sigma, Turkish dotted I) finds the item', async () => {
    for (const [q, key] of [['ΝΕΟΣ', 'WEB-1'], ['ΣΧΕΔΙΑΣΜΟΣ', 'WEB-1'], ['İstanbul', 'WEB-2']] as const) {
      const res = await itemsQ(q);
      expect(res.statusCode, res.body).toBe(200);
      expect({ q, keys: res.json().data.map((i: any) => i.key) }).toEqual({ q, keys: [key] });
    }
  });

  it('contacts: a name in capitals is found by the same word in lower case (ΝΙΚΟΣ by νικος)', async () => {
    const res = await get(`/v1/contacts?q=${encodeURIComponent('νικος')}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((c: any) => c.id)).toEqual([s.acme.contacts.nikos]);
  });
});

describe('work items q of blanks only', () => {
  it('is refused like an empty q (400 invalid_parameter naming q), not ignored', async () => {
    expectError(await itemsQ('   '), 400, 'invalid_request', 'invalid_parameter', 'q');
  });
});

describe.runIf(onPostgres())('contacts changed_since sync under concurrent updates (PostgreSQL)', () => {
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
