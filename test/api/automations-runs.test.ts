// GET /v1/automations/{id}/runs and GET /v1/automation-runs/{id}: the Automation run shapes
// exactly, status_label words, the contact's name (first + last, else the email; an erased contact
// has none), test runs, order and pagination, the status filter, the trigger step `t` first, what a
// step sent never shown, isolation between accounts and scopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, ISO_MS, seed } from '../http/fixtures.js';

const LIST_KEYS = [
  'automation_id', 'contact', 'error', 'finished_at', 'id', 'next_at', 'started_at', 'started_by', 'status', 'status_label', 'test', 'version',
];
const DETAIL_KEYS = [...LIST_KEYS, 'failed_step_id', 'steps'].sort();
const STEP_KEYS = ['error', 'ms', 'name', 'started_at', 'status', 'step_id', 'type'];
const LABELS: Record<string, string> = {
  running: 'Running',
  waiting: 'Waiting',
  succeeded: 'Completed',
  failed: 'Failed',
  stopped: 'Stopped',
  skipped: 'Did not meet the Run only if criteria',
};

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
let auto: string;
const BASE = Date.parse('2026-04-01T08:00:00.000Z');
const at = (n: number) => new Date(BASE + n * 1000);

const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
interface Page {
  data: Array<Record<string, any>>;
  has_more: boolean;
  next_cursor: string | null;
}
async function list(qs = '', key = acme.keys.main, id = auto): Promise<Page> {
  const res = await get(key, `/v1/automations/${id}/runs${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json()).sort()).toEqual(['data', 'has_more', 'next_cursor']);
  return res.json();
}

interface RunOpts {
  contact?: string | null;
  status?: string;
  test?: boolean;
  n: number;
  startedBy?: string;
  extra?: Record<string, unknown>;
}
async function insertRun(o: RunOpts, accountId = acme.id, automationId = auto): Promise<string> {
  const id = uuidv7();
  const e = o.extra ?? {};
  await t.db.query(
    `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, test, version, started_at,
                                  finished_at, next_at, error, failed_step_id)
     values ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9, $10, $11, $12)`,
    [accountId, id, automationId, o.contact ?? null, o.status ?? 'succeeded', o.startedBy ?? 'Contact is created', o.test ?? false, at(o.n),
      e.finished_at ?? null, e.next_at ?? null, e.error ?? null, e.failed_step_id ?? null],
  );
  return id;
}
async function insertSteps(runId: string, steps: Array<[string, string, string, string, number]>, accountId = acme.id) {
  let seq = 0;
  for (const [stepId, name, type, status, ms] of steps) {
    await t.db.query(
      `insert into automation_run_steps (account_id, run_id, seq, step_id, name, type, status, started_at, ms, error, effect_key)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'SECRET-EFFECT')`,
      [accountId, runId, seq++, stepId, name, type, status, at(seq), ms, status === 'skipped' ? 'Contact is on do-not-contact' : null],
    );
  }
}

let runs: Record<string, string>;

beforeAll(async () => {
  t = await testApp();
  const fixture = {
    ...account('acme', { projects: ['p'], keys: [{ ref: 'main', scopes: ['automations:read'] }, { ref: 'wf', scopes: ['workflows:read'] }] }),
    automations: [
      {
        ref: 'welcome', name: 'Welcome', project: 'p', status: 'published', trigger: { type: 'contact.created', label: 'Contact is created' },
        steps: [{ id: 'e1', name: 'Welcome email', type: 'email.send', config: { subject: 'SECRET-SUBJECT' } }, { id: 'w1', name: 'Wait a day', type: 'wait', config: { duration: 'P1D' } }],
      },
      { ref: 'quiet', name: 'Quiet', project: 'p', status: 'published', trigger: { type: 'manual', label: 'By hand' }, steps: [{ id: 'x', name: 'End', type: 'end' }] },
    ],
    contacts: [
      { ref: 'ann', email: 'ann@example.org', first_name: 'Ann', last_name: 'Lee' },
      { ref: 'bob', email: 'bob@example.org', first_name: 'Bob' },
      { ref: 'liu', email: 'liu@example.org', last_name: 'Liu' },
      { ref: 'mail', email: 'Only.Mail@example.org' },
      { ref: 'gone', email: 'gone@example.org', first_name: 'Gina', erased: true },
      { ref: 'old', email: 'old@example.org', first_name: 'Olga', last_name: 'Old', archived: true },
    ],
  };
  const other = {
    ...account('other', { projects: ['op'], keys: [{ ref: 'main', scopes: ['automations:read'] }] }),
    automations: [{ ref: 'secret', name: 'Secret', project: 'op', status: 'published', trigger: { type: 'manual' }, steps: [{ id: 'x', name: 'End', type: 'end' }] }],
  };
  s = await seed(t.db, fixture, other);
  acme = s.acme;
  auto = acme.automations.welcome;
  const c = acme.contacts;
  runs = {
    ann: await insertRun({ contact: c.ann, status: 'waiting', n: 1, extra: { next_at: at(86_400) } }),
    bob: await insertRun({ contact: c.bob, status: 'running', n: 2 }),
    liu: await insertRun({ contact: c.liu, status: 'failed', n: 3, extra: { finished_at: at(4), error: 'SMTP refused the message', failed_step_id: 'e1' } }),
    mail: await insertRun({ contact: c.mail, status: 'skipped', n: 4, extra: { finished_at: at(4) } }),
    gone: await insertRun({ contact: c.gone, status: 'stopped', n: 5, extra: { finished_at: at(6), error: 'The contact was erased' } }),
    old: await insertRun({ contact: c.old, status: 'succeeded', n: 6, extra: { finished_at: at(7) } }),
    none: await insertRun({ contact: null, status: 'succeeded', n: 7, startedBy: 'Schedule' }),
    test: await insertRun({ contact: c.ann, status: 'running', n: 8, test: true, startedBy: 'Olivia Owner' }),
  };
  // Ties on started_at: order falls back to id.
  for (let i = 0; i < 30; i++) await insertRun({ n: 100 + Math.floor(i / 3) }, acme.id, acme.automations.quiet);
  await insertSteps(runs.ann, [['t', 'Contact is created', 'trigger', 'ok', 0], ['e1', 'Welcome email', 'email.send', 'ok', 120], ['w1', 'Wait a day', 'wait', 'waiting', 0]]);
  // The trigger recorded after another step: it still comes first.
  await insertSteps(runs.bob, [['e1', 'Welcome email', 'email.send', 'skipped', 3], ['t', 'Contact is created', 'trigger', 'ok', 0]]);
});
afterAll(() => t?.close());

describe('list an automation\u2019s runs', () => {
  it('newest first, test runs included with test: true, exact keys, status_label words', async () => {
    const p = await list();
    expect(p.data.map((r) => r.id)).toEqual(['test', 'none', 'old', 'gone', 'mail', 'liu', 'bob', 'ann'].map((k) => runs[k]));
    for (const r of p.data) {
      expect(Object.keys(r).sort()).toEqual(LIST_KEYS);
      expect(r.status_label).toBe(LABELS[r.status]);
      expect(r.started_at).toMatch(ISO_MS);
      expect(r.automation_id).toBe(auto);
      expect(r.version).toBe(1);
    }
    expect(p.data.map((r) => r.test)).toEqual([true, false, false, false, false, false, false, false]);
  });

  it('the contact: first + last name, else the email; an erased contact has no name; null without a contact', async () => {
    const byId = new Map((await list()).data.map((r) => [r.id, r]));
    const c = acme.contacts;
    expect(byId.get(runs.ann)!.contact).toEqual({ id: c.ann, name: 'Ann Lee' });
    expect(byId.get(runs.bob)!.contact).toEqual({ id: c.bob, name: 'Bob' });
    expect(byId.get(runs.liu)!.contact).toEqual({ id: c.liu, name: 'Liu' });
    expect(byId.get(runs.mail)!.contact).toEqual({ id: c.mail, name: 'Only.Mail@example.org' });
    expect(byId.get(runs.gone)!.contact).toEqual({ id: c.gone, name: 'Erased contact' });
    expect(byId.get(runs.old)!.contact).toEqual({ id: c.old, name: 'Olga Old' });
    expect(byId.get(runs.none)!.contact).toBeNull();
  });

  it('a run in full', async () => {
    const r = (await list('?status=failed')).data;
    expect(r).toEqual([
      {
        id: runs.liu, automation_id: auto, contact: { id: acme.contacts.liu, name: 'Liu' }, status: 'failed', status_label: 'Failed',
        started_by: 'Contact is created', test: false, version: 1, started_at: at(3).toISOString(), finished_at: at(4).toISOString(),
        next_at: null, error: 'SMTP refused the message',
      },
    ]);
    expect((await list('?status=waiting')).data[0]).toMatchObject({ id: runs.ann, next_at: at(86_400).toISOString(), finished_at: null, error: null });
  });

  it.each(Object.keys(LABELS))('status=%s filters', async (status) => {
    const p = await list(`?status=${status}`);
    expect(p.data.length).toBeGreaterThan(0);
    for (const r of p.data) expect(r.status).toBe(status);
  });

  it('pagination: no duplicate, no gap, ties on started_at broken by id; cursors bound to filters', async () => {
    const quiet = acme.automations.quiet;
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const p: Page = await list(`?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, acme.keys.main, quiet);
      seen.push(...p.data.map((r) => r.id));
      cursor = p.next_cursor;
      expect(p.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(8);
    const rows = await t.db.query<{ id: string }>('select id from automation_runs where automation_id = $1 order by started_at desc, id desc', [quiet]);
    expect(seen).toEqual(rows.map((r) => r.id));
    const first = await list('?limit=2', acme.keys.main, quiet);
    const c = encodeURIComponent(first.next_cursor!);
    expectError(await get(acme.keys.main, `/v1/automations/${quiet}/runs?limit=2&status=running&cursor=${c}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(await get(acme.keys.main, `/v1/automations/${auto}/runs?limit=2&cursor=${c}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });

  it('unknown, foreign and deleted automations → 404; bad parameters refused', async () => {
    const k = acme.keys.main;
    const removed = uuidv7();
    await t.db.query(`insert into automations (account_id, id, project_id, name, published_version, deleted_at) values ($1, $2, $3, 'Removed', 1, now())`, [acme.id, removed, acme.projects.p]);
    const kept = await insertRun({ n: 9, status: 'stopped' }, acme.id, removed);
    for (const id of [uuidv7(), s.other.automations.secret, removed]) {
      expectError(await get(k, `/v1/automations/${id}/runs`), 404, 'not_found', 'resource_not_found');
    }
    // the run itself stays readable: a client polling it sees it stopped
    expect((await get(k, `/v1/automation-runs/${kept}`)).json()).toMatchObject({ id: kept, status: 'stopped', automation_id: removed });
    expectError(await get(k, `/v1/automations/${auto}/runs?status=queued`), 400, 'invalid_request', 'invalid_parameter', 'status');
    expectError(await get(k, `/v1/automations/${auto}/runs?contact_id=${acme.contacts.ann}`), 400, 'invalid_request', 'unknown_parameter', 'contact_id');
    expectError(await get(k, `/v1/automations/nope/runs`), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await get(acme.keys.wf, `/v1/automations/${auto}/runs`), 403, 'permission', 'insufficient_scope');
  });
});

describe('get an automation run', () => {
  it('detail: exact keys, failed_step_id, steps with t first, nothing a step sent', async () => {
    const res = await get(acme.keys.main, `/v1/automation-runs/${runs.ann}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(DETAIL_KEYS);
    expect(body).toMatchObject({ id: runs.ann, status: 'waiting', status_label: 'Waiting', failed_step_id: null, contact: { id: acme.contacts.ann, name: 'Ann Lee' } });
    expect(body.steps).toEqual([
      { step_id: 't', name: 'Contact is created', type: 'trigger', status: 'ok', started_at: at(1).toISOString(), ms: 0, error: null },
      { step_id: 'e1', name: 'Welcome email', type: 'email.send', status: 'ok', started_at: at(2).toISOString(), ms: 120, error: null },
      { step_id: 'w1', name: 'Wait a day', type: 'wait', status: 'waiting', started_at: at(3).toISOString(), ms: 0, error: null },
    ]);
    for (const st of body.steps) expect(Object.keys(st).sort()).toEqual(STEP_KEYS);
    for (const secret of ['SECRET', 'effect', 'ann@example.org', 'P1D']) expect(res.body).not.toContain(secret);
  });

  it('the trigger comes first whatever order it was recorded in; a skipped send says why', async () => {
    const body = (await get(acme.keys.main, `/v1/automation-runs/${runs.bob}`)).json();
    expect(body.steps.map((x: any) => [x.step_id, x.status, x.error])).toEqual([
      ['t', 'ok', null],
      ['e1', 'skipped', 'Contact is on do-not-contact'],
    ]);
  });

  it('a run with no recorded step still shows its trigger (named as in its version) first', async () => {
    const body = (await get(acme.keys.main, `/v1/automation-runs/${runs.liu}`)).json();
    expect(body.failed_step_id).toBe('e1');
    expect(body.steps).toEqual([
      { step_id: 't', name: 'Contact is created', type: 'trigger', status: 'ok', started_at: at(3).toISOString(), ms: 0, error: null },
    ]);
  });

  it('a test run and a run without a contact', async () => {
    expect((await get(acme.keys.main, `/v1/automation-runs/${runs.test}`)).json()).toMatchObject({ test: true, started_by: 'Olivia Owner', status_label: 'Running' });
    expect((await get(acme.keys.main, `/v1/automation-runs/${runs.none}`)).json()).toMatchObject({ contact: null, status_label: 'Completed', started_by: 'Schedule' });
  });

  it("another account's run → 404 exactly like an unknown id; scopes and ids checked", async () => {
    const foreign = await insertRun({ n: 1 }, s.other.id, s.other.automations.secret);
    const { request_id: _a, ...e1 } = expectError(await get(acme.keys.main, `/v1/automation-runs/${foreign}`), 404, 'not_found', 'resource_not_found');
    const { request_id: _b, ...e2 } = expectError(await get(acme.keys.main, `/v1/automation-runs/${uuidv7()}`), 404, 'not_found', 'resource_not_found');
    expect(e1).toEqual(e2);
    expect((await get(s.other.keys.main, `/v1/automation-runs/${foreign}`)).statusCode).toBe(200);
    const e = expectError(await get(acme.keys.wf, `/v1/automation-runs/${runs.ann}`), 403, 'permission', 'insufficient_scope');
    expect(e.message).toContain('automations:read');
    expectError(await get(acme.keys.main, '/v1/automation-runs/123'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await get(acme.keys.main, `/v1/automation-runs/${runs.ann}?steps=false`), 400, 'invalid_request', 'unknown_parameter', 'steps');
  });
});
