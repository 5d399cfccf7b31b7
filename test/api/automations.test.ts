// GET /v1/automations and GET /v1/automations/{id}: the Automation shape exactly, the summary
// fields of docs/architecture.md §12.4 (running version, branches and end counted, first-seen step
// types, sends), the counters (test runs and skipped runs left out), filters, order, keyset
// pagination, isolation between accounts, scopes and the refusals of the request pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, ISO_MS, seed, walkPages } from '../http/fixtures.js';

const KEYS = [
  'created_at', 'enrollments', 'has_unpublished_changes', 'id', 'last_run_at', 'name', 'project_id',
  'published_version', 'sends', 'status', 'step_count', 'step_types', 'trigger', 'updated_at',
];

const step = (id: string, type: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Step ${id}`,
  type,
  config: type === 'email.send' ? { subject: 'SECRET-SUBJECT', body: 'SECRET-BODY {{first_name}}' } : {},
  ...extra,
});

/** Published, with a branch whose children and an end all count; email.send appears twice. */
const WELCOME_STEPS = [
  step('e1', 'email.send'),
  step('w1', 'wait', { config: { duration: 'P1D' } }),
  step('b1', 'branch', { branches: { yes: 's1', no: 'x' } }),
  step('s1', 'sms.send', { next: 'e2' }),
  step('n1', 'notify.team'),
  step('e2', 'email.send'),
  step('x', 'end'),
];

const acmeFixture = () => ({
  ...account('acme', {
    projects: ['p1', 'p2'],
    keys: [{ ref: 'main', scopes: ['automations:read'] }, { ref: 'wf', scopes: ['workflows:read', 'automations:enroll'] }],
  }),
  automations: [
    { ref: 'welcome', name: 'Welcome', project: 'p1', status: 'published', trigger: { type: 'contact.created', label: 'Contact is created' }, steps: WELCOME_STEPS },
    { ref: 'drafty', name: 'Drafty', project: 'p1', steps: [step('a1', 'ai.write'), step('t1', 'task.create')] },
    { ref: 'held', name: 'Held', project: 'p2', status: 'paused', trigger: { type: 'manual', label: 'Enrolled by hand' }, steps: [step('n1', 'notify.team'), step('x', 'end')] },
    { ref: 'empty', name: 'Empty', project: 'p2' },
    { ref: 'removed', name: 'Removed', project: 'p2' },
  ],
});

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
let a: Record<string, string>;
const BASE = Date.parse('2026-03-01T12:00:00.123Z');
const MIN = 60_000;

const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
interface Page {
  data: Array<Record<string, any>>;
  has_more: boolean;
  next_cursor: string | null;
}
async function page(key: string, qs: string): Promise<Page> {
  const res = await get(key, `/v1/automations${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json()).sort()).toEqual(['data', 'has_more', 'next_cursor']);
  return res.json();
}
const ids = (p: Page) => p.data.map((x) => x.id as string);
const one = async (id: string) => {
  const res = await get(acme.keys.main, `/v1/automations/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

let contactN = 0;
async function insertRun(accountId: string, automationId: string, status: string, o: { test?: boolean; startedAt?: number; withContact?: boolean } = {}) {
  let contactId: string | null = null;
  if (o.withContact !== false) {
    contactId = uuidv7();
    await t.db.query(`insert into contacts (account_id, id, email) values ($1, $2, $3)`, [accountId, contactId, `c${++contactN}@x.example`]);
  }
  const id = uuidv7();
  await t.db.query(
    `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, test, version, started_at)
     values ($1, $2, $3, $4, $5, 'API key', $6, 1, $7)`,
    [accountId, id, automationId, contactId, status, o.test ?? false, new Date(o.startedAt ?? BASE)],
  );
  return id;
}

beforeAll(async () => {
  t = await testApp();
  const pager = { ...account('pager', { projects: ['p'], keys: [{ ref: 'main', scopes: ['automations:read'] }] }) };
  const other = {
    ...account('other', { projects: ['op'], keys: [{ ref: 'main', scopes: ['automations:read'] }] }),
    automations: [{ ref: 'secret', name: 'Secret', project: 'op', status: 'published', trigger: { type: 'manual' }, steps: [step('e1', 'email.send')] }],
  };
  s = await seed(t.db, acmeFixture(), other, pager);
  acme = s.acme;
  a = acme.automations;
  await t.db.query(`update automations set deleted_at = now() where id = $1`, [a.removed]);
  // Distinct change times: welcome newest, then held, drafty, empty.
  for (const [ref, n] of [['welcome', 4], ['held', 3], ['drafty', 2], ['empty', 1]] as const) {
    await t.db.query('update automations set updated_at = $1 where id = $2', [new Date(BASE + n * MIN), a[ref]]);
  }
  // 40 automations for paging, in groups of 4 sharing one updated_at (ties broken by id).
  const params: unknown[] = [];
  const values: string[] = [];
  for (let i = 0; i < 40; i++) {
    params.push(s.pager.id, uuidv7(), s.pager.projects.p, `auto ${i}`, new Date(BASE + Math.floor(i / 4) * MIN));
    const b = i * 5;
    values.push(`($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5})`);
  }
  await t.db.query(`insert into automations (account_id, id, project_id, name, updated_at) values ${values.join(', ')}`, params);
});
afterAll(() => t?.close());

describe('the Automation shape', () => {
  it('a published automation: exact keys, running version summary, no step settings', async () => {
    const res = await get(acme.keys.main, `/v1/automations/${a.welcome}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(KEYS);
    expect(body).toEqual({
      id: a.welcome,
      project_id: acme.projects.p1,
      name: 'Welcome',
      status: 'published',
      trigger: { type: 'contact.created', label: 'Contact is created' },
      published_version: 1,
      has_unpublished_changes: false,
      step_count: 7,
      step_types: ['email.send', 'wait', 'branch', 'sms.send', 'notify.team', 'end'],
      sends: ['email', 'sms', 'team'],
      enrollments: { total: 0, active: 0, completed: 0 },
      last_run_at: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: new Date(BASE + 4 * MIN).toISOString(),
    });
    expect(Object.keys(body.trigger).sort()).toEqual(['label', 'type']);
    expect(Object.keys(body.enrollments).sort()).toEqual(['active', 'completed', 'total']);
    for (const secret of ['SECRET', 'P1D', 'config', 'branches', '"next"', '"e1"', 'Step ']) expect(res.body).not.toContain(secret);
  });

  it('a never-published draft: version 0, no unpublished changes, null trigger type, its draft summarised', async () => {
    expect(await one(a.drafty)).toMatchObject({
      status: 'draft',
      trigger: { type: null, label: '' },
      published_version: 0,
      has_unpublished_changes: false,
      step_count: 2,
      step_types: ['ai.write', 'task.create'],
      sends: [],
    });
    expect(await one(a.empty)).toMatchObject({ status: 'draft', step_count: 0, step_types: [], sends: [], published_version: 0 });
  });

  it('a paused automation keeps its published version and sends to the team only', async () => {
    expect(await one(a.held)).toMatchObject({
      status: 'paused',
      trigger: { type: 'manual', label: 'Enrolled by hand' },
      published_version: 1,
      has_unpublished_changes: false,
      step_count: 2,
      step_types: ['notify.team', 'end'],
      sends: ['team'],
    });
  });

  it('a draft that differs from the published version: the summary stays that of the running version', async () => {
    const id = s.other.automations.secret;
    await t.db.query(`update automations set steps = '[{"id":"z","name":"Z","type":"sms.send","config":{}}]' where id = $1`, [id]);
    const body = (await get(s.other.keys.main, `/v1/automations/${id}`)).json();
    expect(body).toMatchObject({ has_unpublished_changes: true, step_count: 1, step_types: ['email.send'], sends: ['email'] });
    await t.db.query(`update automations set steps = v.steps from automation_versions v where v.automation_id = automations.id and automations.id = $1`, [id]);
    expect((await get(s.other.keys.main, `/v1/automations/${id}`)).json().has_unpublished_changes).toBe(false);
  });
});

describe('counters', () => {
  it('enrollments leave out test runs and skipped runs; last_run_at is the latest non-test start', async () => {
    const held = a.held;
    const at = (n: number) => BASE + n * 1000;
    await insertRun(acme.id, held, 'running', { startedAt: at(1) });
    await insertRun(acme.id, held, 'waiting', { startedAt: at(2) });
    await insertRun(acme.id, held, 'succeeded', { startedAt: at(3) });
    await insertRun(acme.id, held, 'succeeded', { startedAt: at(4), withContact: false });
    await insertRun(acme.id, held, 'failed', { startedAt: at(5) });
    await insertRun(acme.id, held, 'stopped', { startedAt: at(6) });
    await insertRun(acme.id, held, 'skipped', { startedAt: at(7) });
    await insertRun(acme.id, held, 'running', { startedAt: at(8), test: true });
    await insertRun(acme.id, held, 'succeeded', { startedAt: at(9), test: true });
    const body = await one(held);
    expect(body.enrollments).toEqual({ total: 6, active: 2, completed: 2 });
    // the skipped run did start; the test runs move nothing
    expect(body.last_run_at).toBe(new Date(at(7)).toISOString());
    // runs do not change the automation
    expect(body.updated_at).toBe(new Date(BASE + 3 * MIN).toISOString());
    // the list computes the same numbers
    const listed = (await page(acme.keys.main, '?status=paused')).data.find((x) => x.id === held);
    expect(listed).toEqual(body);
  });

  it("another automation's runs and another account's runs do not count", async () => {
    await insertRun(s.other.id, s.other.automations.secret, 'running');
    expect((await one(a.welcome)).enrollments).toEqual({ total: 0, active: 0, completed: 0 });
    const other = (await get(s.other.keys.main, `/v1/automations/${s.other.automations.secret}`)).json();
    expect(other.enrollments).toEqual({ total: 1, active: 1, completed: 0 });
  });
});

describe('list: order, filters, deleted automations', () => {
  it('most recently changed first, drafts included, deleted ones left out', async () => {
    expect(ids(await page(acme.keys.main, ''))).toEqual([a.welcome, a.held, a.drafty, a.empty]);
  });

  it.each([
    ['status=draft', ['drafty', 'empty']],
    ['status=published', ['welcome']],
    ['status=paused', ['held']],
    ['project_id=P1', ['welcome', 'drafty']],
    ['project_id=P2&status=draft', ['empty']],
  ])('%s', async (qs, refs) => {
    const q = qs.replace('P1', acme.projects.p1).replace('P2', acme.projects.p2);
    expect(ids(await page(acme.keys.main, `?${q}`))).toEqual(refs.map((r) => a[r]));
  });

  it('an unknown project_id or another account\u2019s filters to an empty list', async () => {
    for (const pid of [uuidv7(), s.other.projects.op]) {
      expect(await page(acme.keys.main, `?project_id=${pid}`)).toEqual({ data: [], has_more: false, next_cursor: null });
    }
  });

  it('a deleted automation is not found', async () => {
    expectError(await get(acme.keys.main, `/v1/automations/${a.removed}`), 404, 'not_found', 'resource_not_found');
  });
});

describe('pagination', () => {
  const walk = (qs: string): Promise<Page[]> => walkPages((q) => page(s.pager.keys.main, q), `?${qs}`, { maxPages: 50 });

  it('default limit 25; a walk with limit 7 sees every automation once, in order, ties broken by id', async () => {
    const first = await page(s.pager.keys.main, '');
    expect(first.data).toHaveLength(25);
    expect(first.has_more).toBe(true);
    const pages = await walk('limit=7');
    expect(pages.map((p) => p.data.length)).toEqual([7, 7, 7, 7, 7, 5]);
    expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
    const rows = await t.db.query<{ id: string }>('select id from automations where account_id = $1 order by updated_at desc, id desc', [s.pager.id]);
    expect(pages.flatMap(ids)).toEqual(rows.map((r) => r.id));
  });

  it('a page ending exactly at the last automation says has_more false', async () => {
    const pages = await walk('limit=20');
    expect(pages.map((p) => p.data.length)).toEqual([20, 20]);
    expect(pages[1]).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('a cursor is bound to its filters and its endpoint', async () => {
    const p = await page(s.pager.keys.main, '?limit=5');
    const c = encodeURIComponent(p.next_cursor!);
    expectError(await get(s.pager.keys.main, `/v1/automations?limit=5&status=draft&cursor=${c}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(await get(s.pager.keys.main, `/v1/workflows?cursor=${c}`), 403, 'permission', 'insufficient_scope');
    expectError(await get(s.pager.keys.main, `/v1/automations?cursor=garbage`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });
});

describe('isolation, scopes and refusals', () => {
  it("another account's automation → 404 exactly like an unknown id", async () => {
    const foreign = await get(acme.keys.main, `/v1/automations/${s.other.automations.secret}`);
    const unknown = await get(acme.keys.main, `/v1/automations/${uuidv7()}`);
    const { request_id: _a, ...e1 } = expectError(foreign, 404, 'not_found', 'resource_not_found');
    const { request_id: _b, ...e2 } = expectError(unknown, 404, 'not_found', 'resource_not_found');
    expect(e1).toEqual(e2);
    expect(ids(await page(acme.keys.main, '?limit=100'))).not.toContain(s.other.automations.secret);
  });

  it('a key without automations:read → 403 insufficient_scope naming it', async () => {
    for (const url of ['/v1/automations', `/v1/automations/${a.welcome}`]) {
      const e = expectError(await get(acme.keys.wf, url), 403, 'permission', 'insufficient_scope');
      expect(e.message).toContain('automations:read');
    }
  });

  it('unknown and invalid query parameters, invalid ids', async () => {
    const k = acme.keys.main;
    expectError(await get(k, '/v1/automations?sort=name'), 400, 'invalid_request', 'unknown_parameter', 'sort');
    expectError(await get(k, `/v1/automations/${a.welcome}?expand=steps`), 400, 'invalid_request', 'unknown_parameter', 'expand');
    expectError(await get(k, '/v1/automations?status=active'), 400, 'invalid_request', 'invalid_parameter', 'status');
    expectError(await get(k, '/v1/automations?limit=0'), 400, 'invalid_request', 'invalid_parameter', 'limit');
    expectError(await get(k, '/v1/automations?project_id=p1'), 400, 'invalid_request', 'invalid_id', 'project_id');
    expectError(await get(k, '/v1/automations/welcome'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await t.app.inject({ method: 'DELETE', url: `/v1/automations/${a.welcome}`, headers: bearer(k) }), 405, 'invalid_request', 'method_not_allowed');
  });
});
