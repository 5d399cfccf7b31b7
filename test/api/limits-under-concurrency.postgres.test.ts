// Limits that must hold when several processes share one PostgreSQL (two app instances over one
// database; on PGlite one process runs transactions one at a time, so these are PostgreSQL-only):
// the project's automations-at-once per contact under concurrent enrollments into different
// automations, and the shared per-key rate window across a minute boundary.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import type { Db } from '../../src/db/db.js';
import { PostgresDb } from '../../src/db/postgres.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import type { App } from '../../src/http/app.js';
import { PostgresCounter } from '../../src/limits/window-counter.js';
import { createApp } from '../../src/server.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { account, bearer, seed } from '../http/fixtures.js';

let t: TestDb;
let db2: Db;
let apps: App[] = [];
let S: Record<string, AccountSeedResult>;
let n = 0;

const steps = [{ id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }];
const automation = (ref: string) => ({
  ref, name: ref, project: 'site', status: 'published', trigger: { type: 'manual', label: 'By hand' }, steps,
});

beforeAll(async () => {
  t = await freshDb();
  db2 = new PostgresDb(t.url!, 10);
  const config = configWith({ rateLimitStore: 'memory' });
  apps = [await createApp(config, t.db), await createApp(config, db2)];
  S = await seed(t.db, {
    ...account('enr', { tier: 'enterprise', keys: [{ ref: 'k', scopes: ['automations:enroll', 'automations:read'] }] }),
    projects: [{ ref: 'site', name: 'Site', settings: { max_automations_per_contact: 2 } }],
    automations: ['a1', 'a2', 'a3', 'a4', 'a5'].map(automation),
    contacts: Array.from({ length: 10 }, (_, i) => ({ ref: `c${i}`, email: `c${i}@example.org` })),
  });
}, 180_000);
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await db2?.close();
  await t?.close();
});

const no500 = (rs: LightMyRequestResponse[]) => expect(rs.filter((r) => r.statusCode >= 500).map((r) => r.body)).toEqual([]);

describe('concurrency across two instances sharing PostgreSQL', () => {
  it('enrollment: max_automations_per_contact (2) holds when the same contacts are enrolled into 5 automations of the project at once', async () => {
    const ids = Object.values(S.enr.contacts);
    const rs = await Promise.all(
      ['a1', 'a2', 'a3', 'a4', 'a5'].map((ref, i) =>
        apps[i % 2].inject({
          method: 'POST',
          url: `/v1/automations/${S.enr.automations[ref]}/enrollments`,
          headers: { ...bearer(S.enr.keys.k), 'idempotency-key': `enroll-${n++}-xxxx`, 'content-type': 'application/json' },
          payload: JSON.stringify({ contact_ids: ids }),
        }),
      ),
    );
    no500(rs);
    const rows = await t.db.query<{ contact_id: string; n: number }>(
      `select contact_id, count(*)::int as n from automation_runs
        where account_id = $1 and status in ('running', 'waiting') and not test group by contact_id`,
      [S.enr.id],
    );
    // Each contact is in at most 2 automations at once; the other enrollments skip it too_many_automations.
    expect(rows.filter((r) => r.n > 2)).toEqual([]);
    const skippedTooMany = rs.flatMap((r) => r.json().skipped).filter((s: { reason: string }) => s.reason === 'too_many_automations');
    expect(skippedTooMany.length).toBe(ids.length * 3);
  });

  it('shared PostgreSQL rate counter: a hit whose window was computed just before a minute boundary but stored just after does not restart the new window', async () => {
    const W = 1_000 * 60_000;
    const late = new PostgresCounter(t.db, () => W + 60_001); // computed its window 1 ms after the boundary
    const early = new PostgresCounter(db2, () => W + 59_999); // computed 2 ms earlier, reached the database later
    const key = `k:boundary-${Date.now()}`;
    const counts = [(await late.hit(key)).count, (await early.hit(key)).count, (await late.hit(key)).count, (await late.hit(key)).count];
    // Three hits of the new window went through `late`; its third is at least the 3rd of that window
    // (today: [1, 1, 1, 2]: the stale hit moved window_start back, and the next hit restarted the count).
    expect(counts[3]).toBeGreaterThanOrEqual(3);
  });
});
