// One active sprint a project, under real concurrency on PostgreSQL (PGlite has one connection,
// so nothing runs beside a request there): two starts held back behind the project's row lock and
// let go together, and rounds of starts sent at once, never leave two active sprints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { seed } from '../http/fixtures.js';
import { workAccount, workClients, type WorkClients } from './work-support.js';
import { heldBehind } from './work-races.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let c: WorkClients;

beforeAll(async () => {
  t = await testApp();
  const fixture = (ref: string) => workAccount(ref, { projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }] });
  s = await seed(t.db, fixture('acme'), fixture('other'));
  c = await workClients(t, s);
});
afterAll(() => t?.close());

const sprints = () => `/hub/api/workmgmt/projects/${s.acme.projects.site}/sprints`;
const plan = async (name: string) => (await c.member.post(sprints(), { name })).json().id as string;
const activeCount = async () =>
  (await t.db.query<{ n: number }>("select count(*)::int as n from wm_sprints where account_id = $1 and state = 'active'", [s.acme.id]))[0].n;

describe('starting sprints at once', () => {
  it('two starts waiting on the project together: one starts, the other is 409', async () => {
    const [a, b] = [await plan('A'), await plan('B')];
    const results = await heldBehind(t, 'select 1 from projects where id = $1 for update', [s.acme.projects.site], 2, () => [
      c.member.post(`${sprints()}/${a}/start`),
      c.sam.post(`${sprints()}/${b}/start`),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await activeCount()).toBe(1);
  });

  it('rounds of starts sent at once never leave two active sprints', async () => {
    for (let round = 0; round < 5; round++) {
      await t.db.query("update wm_sprints set state = 'finished' where account_id = $1 and state = 'active'", [s.acme.id]);
      const ids = [await plan(`R${round}a`), await plan(`R${round}b`), await plan(`R${round}c`)];
      const results = await Promise.all(ids.map((id, i) => (i % 2 ? c.sam : c.member).post(`${sprints()}/${id}/start`)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
      expect(await activeCount()).toBe(1);
    }
  });
});
