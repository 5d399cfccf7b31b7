// GET /v1/workflows and GET /v1/workflows/{id}: the Workflow shape, last_run, order, filters,
// isolation between accounts, and keyset pagination (no duplicate, no gap, stable under inserts
// and ties on updated_at).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, ISO_MS, seed, UUID_RE, walkPages } from '../http/fixtures.js';

interface Wf {
  id: string;
  name: string;
  description: string;
  status: string;
  project_id: string | null;
  updated_at: string;
  last_run: { id: string; status: string; at: string } | null;
}
interface Page {
  data: Wf[];
  has_more: boolean;
  next_cursor: string | null;
}

let t: TestApp;
let s: Record<string, AccountSeedResult>;
const BASE = Date.parse('2026-03-01T12:00:00.123Z');
const MIN = 60_000;

const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
const page = async (key: string, qs: string): Promise<Page> => {
  const res = await get(key, `/v1/workflows${qs}`);
  expect(res.statusCode).toBe(200);
  expect(Object.keys(res.json()).sort()).toEqual(['data', 'has_more', 'next_cursor']);
  return res.json();
};
const ids = (p: Page) => p.data.map((w) => w.id);

async function setUpdated(id: string, at: number) {
  await t.db.query('update workflows set updated_at = $1 where id = $2', [new Date(at), id]);
}

async function insertWorkflows(accountId: string, rows: Array<{ id: string; updatedAt: number }>) {
  const params: unknown[] = [];
  const values = rows.map((r, i) => {
    params.push(accountId, r.id, `wf ${i}`, new Date(r.updatedAt));
    return `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`;
  });
  await t.db.query(`insert into workflows (account_id, id, name, updated_at) values ${values.join(', ')}`, params);
}

async function insertRun(accountId: string, id: string, workflowId: string, status: string, createdAt: number) {
  await t.db.query(
    `insert into workflow_runs (account_id, id, workflow_id, status, trigger, created_at) values ($1, $2, $3, $4, 'api', $5)`,
    [accountId, id, workflowId, status, new Date(createdAt)],
  );
}

/** Follows next_cursor to the end; `between` runs after each page. */
async function walk(key: string, qs: string, between?: () => Promise<void>): Promise<Page[]> {
  return walkPages((q) => page(key, q), `?${qs}`, { maxPages: 200, between });
}

let acme: AccountSeedResult;
let w: Record<'A' | 'B' | 'C' | 'D', string>;
let runs: { older: string; newer: string };

beforeAll(async () => {
  t = await testApp();
  s = await seed(
    t.db,
    account('acme', {
      tier: 'enterprise',
      projects: ['p1', 'p2'],
      workflows: [
        { ref: 'A', name: 'Alpha', description: 'Does A', status: 'active', project: 'p1' },
        { ref: 'B', name: 'Beta', status: 'draft', project: 'p2' },
        { ref: 'C', name: 'Gamma', status: 'paused' },
        { ref: 'D', name: 'Delta', status: 'draft', project: 'p1' },
      ],
    }),
    account('other', { tier: 'enterprise', projects: ['op'], workflows: [{ ref: 'secret', status: 'active', project: 'op' }] }),
    account('pager', { tier: 'enterprise' }),
    account('live', { tier: 'enterprise' }),
    account('ties', { tier: 'enterprise' }),
  );
  acme = s.acme;
  w = acme.workflows;
  await setUpdated(w.C, BASE);
  await setUpdated(w.A, BASE - MIN);
  await setUpdated(w.B, BASE - 2 * MIN);
  await setUpdated(w.D, BASE - 3 * MIN);
  // The newer run gets the smaller id: last_run follows created_at, not id order.
  runs = { newer: uuidv7(), older: uuidv7() };
  await insertRun(acme.id, runs.older, w.A, 'succeeded', BASE - 10 * MIN);
  await insertRun(acme.id, runs.newer, w.A, 'failed', BASE - 5 * MIN);
  await insertRun(acme.id, uuidv7(), w.B, 'queued', BASE - MIN);
  await insertRun(s.other.id, uuidv7(), s.other.workflows.secret, 'running', BASE);

  await insertWorkflows(s.pager.id, Array.from({ length: 120 }, (_, i) => ({ id: uuidv7(), updatedAt: BASE - i * 1000 })));
  await insertWorkflows(s.live.id, Array.from({ length: 60 }, (_, i) => ({ id: uuidv7(), updatedAt: BASE - i * 1000 })));
  await insertWorkflows(s.ties.id, Array.from({ length: 50 }, () => ({ id: uuidv7(), updatedAt: BASE })));
});
afterAll(() => t?.close());

describe('the Workflow shape', () => {
  it('has exactly the spec fields, ISO timestamps with milliseconds and Z, null project_id when in no project', async () => {
    const p = await page(acme.keys.main, '');
    expect(p.data).toHaveLength(4);
    for (const wf of p.data) {
      expect(Object.keys(wf).sort()).toEqual(['description', 'id', 'last_run', 'name', 'project_id', 'status', 'updated_at']);
      expect(wf.id).toMatch(UUID_RE);
      expect(wf.updated_at).toMatch(ISO_MS);
      expect(['draft', 'active', 'paused']).toContain(wf.status);
    }
    const byId = Object.fromEntries(p.data.map((x) => [x.id, x]));
    expect(byId[w.C]).toEqual({
      id: w.C,
      name: 'Gamma',
      description: '',
      status: 'paused',
      project_id: null,
      updated_at: new Date(BASE).toISOString(),
      last_run: null,
    });
    expect(byId[w.A]).toMatchObject({ name: 'Alpha', description: 'Does A', status: 'active', project_id: acme.projects.p1 });
    expect(byId[w.A].updated_at).toBe('2026-03-01T11:59:00.123Z');
  });

  it('last_run is the most recently created run {id, status, at}, null when never run', async () => {
    const p = await page(acme.keys.main, '');
    const byId = Object.fromEntries(p.data.map((x) => [x.id, x]));
    expect(byId[w.A].last_run).toEqual({ id: runs.newer, status: 'failed', at: new Date(BASE - 5 * MIN).toISOString() });
    expect(Object.keys(byId[w.A].last_run!).sort()).toEqual(['at', 'id', 'status']);
    expect(byId[w.A].last_run!.at).toMatch(ISO_MS);
    expect(byId[w.B].last_run).toMatchObject({ status: 'queued' });
    expect(byId[w.C].last_run).toBeNull();
    expect(byId[w.D].last_run).toBeNull();
  });

  it('GET /workflows/{id} answers the same Workflow as the list', async () => {
    const listed = Object.fromEntries((await page(acme.keys.main, '')).data.map((x) => [x.id, x]));
    for (const id of Object.values(w)) {
      const res = await get(acme.keys.main, `/v1/workflows/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(listed[id]);
    }
  });
});

describe('order and filters', () => {
  it('most recently updated first', async () => {
    expect(ids(await page(acme.keys.main, ''))).toEqual([w.C, w.A, w.B, w.D]);
  });

  it.each([
    ['status=draft', ['B', 'D']],
    ['status=active', ['A']],
    ['status=paused', ['C']],
    ['project_id=p1', ['A', 'D']],
    ['project_id=p2', ['B']],
    ['status=draft&project_id=p1', ['D']],
    ['status=active&project_id=p2', []],
  ] as const)('%s', async (qs, expected) => {
    const real = qs.replace(/p1|p2/, (p) => acme.projects[p]);
    const p = await page(acme.keys.main, `?${real}`);
    expect(ids(p)).toEqual(expected.map((r) => w[r]));
    expect(p.has_more).toBe(false);
    expect(p.next_cursor).toBeNull();
  });

  it('a well-formed unknown project_id (or one of another account) → an empty list', async () => {
    for (const pid of [uuidv7(), s.other.projects.op]) {
      expect(await page(acme.keys.main, `?project_id=${pid}`)).toEqual({ data: [], has_more: false, next_cursor: null });
    }
  });
});

describe('isolation between accounts', () => {
  it("another account's workflow id → 404 resource_not_found exactly like an unknown id", async () => {
    const foreign = await get(acme.keys.main, `/v1/workflows/${s.other.workflows.secret}`);
    const unknown = await get(acme.keys.main, `/v1/workflows/${uuidv7()}`);
    const e1 = expectError(foreign, 404, 'not_found', 'resource_not_found');
    const e2 = expectError(unknown, 404, 'not_found', 'resource_not_found');
    const { request_id: _a, ...rest1 } = e1;
    const { request_id: _b, ...rest2 } = e2;
    expect(rest1).toEqual(rest2);
    expect(foreign.body).not.toContain(s.other.workflows.secret);
    // and the owner does see it
    expect((await get(s.other.keys.main, `/v1/workflows/${s.other.workflows.secret}`)).statusCode).toBe(200);
  });

  it("never lists another account's workflows", async () => {
    const mine = new Set(Object.values(w));
    for (const qs of ['', '?status=active', `?project_id=${s.other.projects.op}`, '?limit=100']) {
      for (const id of ids(await page(acme.keys.main, qs))) expect(mine.has(id)).toBe(true);
    }
    expect(ids(await page(s.other.keys.main, ''))).toEqual([s.other.workflows.secret]);
  });
});

describe('pagination', () => {
  const expectedPager = async () => {
    const rows = await t.db.query<{ id: string }>(
      'select id from workflows where account_id = $1 order by updated_at desc, id desc',
      [s.pager.id],
    );
    return rows.map((r) => r.id);
  };

  it('default limit is 25', async () => {
    const p = await page(s.pager.keys.main, '');
    expect(p.data).toHaveLength(25);
    expect(p.has_more).toBe(true);
    expect(typeof p.next_cursor).toBe('string');
  });

  it('limit=100, then the remaining 20 on the last page', async () => {
    const first = await page(s.pager.keys.main, '?limit=100');
    expect(first.data).toHaveLength(100);
    expect(first.has_more).toBe(true);
    const last = await page(s.pager.keys.main, `?limit=100&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(last.data).toHaveLength(20);
    expect(last).toMatchObject({ has_more: false, next_cursor: null });
    expect([...ids(first), ...ids(last)]).toEqual(await expectedPager());
  });

  it('a walk of 120 workflows with limit 7: every one exactly once, in order, has_more false and next_cursor null at the end', async () => {
    const pages = await walk(s.pager.keys.main, 'limit=7');
    expect(pages).toHaveLength(18);
    pages.slice(0, -1).forEach((p) => {
      expect(p.data).toHaveLength(7);
      expect(p.has_more).toBe(true);
      expect(typeof p.next_cursor).toBe('string');
    });
    const last = pages[pages.length - 1];
    expect(last).toMatchObject({ has_more: false, next_cursor: null });
    expect(last.data).toHaveLength(1);
    const all = pages.flatMap(ids);
    expect(new Set(all).size).toBe(120);
    expect(all).toEqual(await expectedPager());
  });

  it('a page that ends exactly at the last workflow says has_more false (no empty trailing page)', async () => {
    const pages = await walk(s.pager.keys.main, 'limit=40');
    expect(pages.map((p) => p.data.length)).toEqual([40, 40, 40]);
    expect(pages[2]).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('workflows inserted between pages do not shift the walk: every original exactly once', async () => {
    const originals = (await walk(s.live.keys.main, 'limit=100')).flatMap(ids);
    expect(originals).toHaveLength(60);
    let n = 0;
    const pages = await walk(s.live.keys.main, 'limit=7', async () => {
      n++;
      // newer than everything, and (to show the end of the walk moving) older than everything
      await insertWorkflows(s.live.id, [
        { id: uuidv7(), updatedAt: BASE + n * MIN },
        { id: uuidv7(), updatedAt: BASE - 365 * 24 * 60 * MIN - n },
      ]);
    });
    const seen = pages.flatMap(ids);
    expect(new Set(seen).size).toBe(seen.length);
    const counts = new Map<string, number>();
    for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
    for (const id of originals) expect(counts.get(id)).toBe(1);
    // the originals keep their relative order
    expect(seen.filter((id) => originals.includes(id))).toEqual(originals);
  });

  it('many workflows with the same updated_at: no duplicate, no gap (ties broken by id)', async () => {
    const pages = await walk(s.ties.keys.main, 'limit=7');
    const seen = pages.flatMap(ids);
    expect(seen).toHaveLength(50);
    expect(new Set(seen).size).toBe(50);
    expect(seen).toEqual([...seen].sort().reverse());
    const rows = await t.db.query<{ id: string }>('select id from workflows where account_id = $1', [s.ties.id]);
    expect(new Set(seen)).toEqual(new Set(rows.map((r) => r.id)));
  });
});
