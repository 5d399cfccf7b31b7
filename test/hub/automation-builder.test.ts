// The automation builder's hub API (issue 13): create from a definition, the editor, draft saves,
// the diff, versions with who published them, copy, delete; /v1's published_version and
// has_unpublished_changes follow every step; cross-account ids are 404; changes are audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixture, type AccountSeedResult } from '../../src/fixtures/load.js';
import { ERASURE_SECRET } from '../../src/secrets/one-way.js';
import { loadSecrets } from '../../src/secrets/store.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { account, bearer, expectError } from '../http/fixtures.js';
import { auditOf, insertRun } from './audience-support.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let owner: HubClient;
let member: HubClient;
let other: HubClient;

const SCOPES = ['automations:read', 'automations:enroll', 'contacts:read'] as const;

beforeAll(async () => {
  t = await testApp();
  const [erasure] = await loadSecrets(t.db, ERASURE_SECRET);
  const acme = account('acme', { tier: 'enterprise', keys: [{ ref: 'main', scopes: [...SCOPES] }] });
  const fixture = {
    accounts: [
      {
        ...acme,
        users: [...(acme.users as object[]), { ref: 'adam', email: 'adam@acme.example', role: 'member', name: 'Adam Smith' }],
        projects: [
          { ref: 'p1', name: 'Newsletter', settings: { sms_consent_required: false, max_automations_per_contact: 3 } },
          { ref: 'p2', name: 'Shop' },
        ],
        contacts: [{ ref: 'ann', email: 'ann@example.org', first_name: 'Ann' }],
        automations: [{ ref: 'seeded', name: 'Seeded', project: 'p1', status: 'published', trigger: { type: 'manual', label: 'By hand' }, steps: [{ id: 'n', name: 'N', type: 'end' }] }],
      },
      { ...account('other', { keys: [{ ref: 'main', scopes: [...SCOPES] }] }), projects: [{ ref: 'q', name: 'Theirs' }] },
    ],
  };
  s = (await seedFixture(t.db, fixture, { erasureSecret: erasure.secret })).accounts;
  owner = await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.owner, email: 'owner@acme.example' });
  member = await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.adam, email: 'adam@acme.example' });
  other = await hubClient(t, { accountId: s.other.id, userId: s.other.users.owner, email: 'owner@other.example' });
});
afterAll(() => t?.close());

const base = (id: string) => `/hub/api/automations/${id}`;

/** A complete definition: contact created → email → wait a minute → SMS. */
type Def = Record<string, unknown> & { steps: Array<Record<string, unknown>> };

export const welcome = (projectId: string, extra: Record<string, unknown> = {}): Def => ({
  project_id: projectId,
  name: 'Welcome',
  status: 'draft',
  trigger: { type: 'contact.created', label: 'Contact is created', config: {} },
  run_only_if: null,
  reenroll: 'never',
  steps: [
    { id: 'e1', name: 'Welcome email', type: 'email.send', config: { subject: 'Hi {{first_name}}', body: '<p>Welcome</p>' }, next: 'w1' },
    { id: 'w1', name: 'Wait', type: 'wait', config: { duration: 'PT1M' }, next: 's1' },
    { id: 's1', name: 'Text', type: 'sms.send', config: { body: 'Hello again' } },
  ],
  ...extra,
});

async function v1(id: string) {
  return t.app.inject({ method: 'GET', url: `/v1/automations/${id}`, headers: bearer(s.acme.keys.main) });
}

async function create(body: unknown, c: HubClient = member): Promise<{ automation: { id: string }; [k: string]: unknown }> {
  const res = await c.post('/hub/api/automations', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('POST /hub/api/automations and GET …/editor', () => {
  it('creates a draft in a project of the account (audited) and shows it as the editor', async () => {
    const body = welcome(s.acme.projects.p1);
    const created = await create(body);
    const id = created.automation.id;
    expect(created).toEqual({
      automation: expect.objectContaining({ id, name: 'Welcome', status: 'draft', published_version: 0, has_unpublished_changes: false, project_id: s.acme.projects.p1 }),
      draft: body,
      published: null,
      problems: [],
      project: { id: s.acme.projects.p1, name: 'Newsletter', sms_consent_required: false, max_automations_per_contact: 3 },
      sms_micros_per_segment: t.config.delivery.smsMicrosPerSegment,
      webhook: { configured: false },
    });
    const read = await member.get(`${base(id)}/editor`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual(created);
    expect(await auditOf(t, s.acme.id, id)).toEqual([{ action: 'automation.created', actor_label: expect.stringContaining('adam@acme.example'), detail: { name: 'Welcome', status: 'draft', version: 0 } }]);
    expect((await v1(id)).json()).toMatchObject({ id, status: 'draft', published_version: 0 });
  });

  it('creating it published publishes version 1 by the person; paused stays paused', async () => {
    const pub = await create(welcome(s.acme.projects.p1, { status: 'published', name: 'Live' }));
    expect(pub.automation).toMatchObject({ status: 'published', published_version: 1, has_unpublished_changes: false });
    expect(pub.published).toEqual(pub.draft);
    const versions = (await member.get(`${base(pub.automation.id)}/versions`)).json();
    expect(versions.data).toEqual([{ version: 1, published_at: expect.any(String), published_by: expect.stringContaining('adam@acme.example') }]);
    const paused = await create(welcome(s.acme.projects.p2, { status: 'paused', name: 'Held' }));
    expect(paused.automation).toMatchObject({ status: 'paused', published_version: 1 });
    expect((await v1(paused.automation.id)).json()).toMatchObject({ status: 'paused', published_version: 1, has_unpublished_changes: false });
  });

  it('lists the step configs, the schedule and the filter that block publishing as problems; a draft saves anyway', async () => {
    const body = welcome(s.acme.projects.p1, {
      trigger: { type: 'schedule', label: 'Every Monday', config: { cron: '61 9 * * 1' } },
      run_only_if: { field: 'shoe_size', op: 'eq', value: 42 },
    });
    body.steps[0].config = { subject: '  ', body: '<p>x</p>' };
    body.steps[1].config = {};
    const created = await create(body);
    expect(created.problems).toEqual([
      { path: 'trigger.config.cron', message: "The schedule '61 9 * * 1' is not valid: 61 is not a possible minute; use five fields, minute hour day month weekday, e.g. '0 9 * * 1' for Mondays at 9:00." },
      { path: 'run_only_if.field', message: expect.stringMatching(/^Run only if: Choose the contact field \(one of email, /) },
      { path: 'steps[0].config.subject', message: 'Fill in the subject' },
      { path: 'steps[1].config.duration', message: 'Fill in exactly one of duration or until' },
    ]);
    const refused = expectError(await member.post(`${base(created.automation.id)}/publish`), 422, 'invalid_request', 'automation_not_publishable', 'trigger.config.cron');
    expect(refused.message).toContain("The schedule '61 9 * * 1' is not valid");
    // Fixing the schedule and the filter leaves the first step's subject as the first problem.
    await member.put(`${base(created.automation.id)}/draft`, { trigger: { type: 'schedule', label: 'Mondays', config: { cron: '0 9 * * 1', timezone: 'Europe/Paris' } }, run_only_if: { field: 'email', op: 'exists' } });
    expectError(await member.post(`${base(created.automation.id)}/publish`), 422, 'invalid_request', 'automation_not_publishable', 'steps[0].config.subject');
    // Created published with a problem: refused the same way, nothing created.
    const bad = welcome(s.acme.projects.p1, { status: 'published', name: 'Broken' });
    bad.steps[2].config = { body: 'x', colour: 'red' };
    const e = expectError(await member.post('/hub/api/automations', bad), 422, 'invalid_request', 'automation_not_publishable', 'steps[2].config.colour');
    expect(e.message).toContain('steps[2].config.colour: “colour” is not a setting here');
    expect((await t.db.query(`select 1 from automations where name = 'Broken'`)).length).toBe(0);
  });
});

/** Fixture automation (the same content with `project` for project_id and a ref) → its refusal, as the fixture validator names it. */
async function fixtureRefusal(def: Record<string, unknown>): Promise<{ path: string; detail: string }> {
  const { project_id: _p, ...rest } = def;
  const { DefinitionError, validateFixture } = await import('../../src/fixtures/validate.js');
  const fx = { accounts: [{ ref: 'a', name: 'A', users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }], projects: [{ ref: 'p', name: 'P' }], automations: [{ ref: 'm', project: 'p', ...rest }] }] };
  try {
    validateFixture(fx);
  } catch (err) {
    // Paths, and paths named in a message, are the body's: below accounts[0].automations[0].
    const strip = (x: string) => x.replaceAll('accounts[0].automations[0].', '');
    if (err instanceof DefinitionError) return { path: strip(err.path), detail: strip(err.detail) };
    throw err;
  }
  throw new Error('the fixture accepted it');
}

describe('every structural rule: the hub says what a fixture says, at the body path', () => {
  const p = () => s.acme.projects.p1;
  const withStep = (i: number, step: Record<string, unknown>) => {
    const d = welcome(p());
    (d.steps as unknown[])[i] = step;
    return d;
  };
  const cases: Array<[string, () => Record<string, unknown>, string]> = [
    ['an empty name', () => welcome(p(), { name: ' ' }), 'name'],
    ['an unknown status', () => welcome(p(), { status: 'live' }), 'status'],
    ['an unknown trigger type', () => welcome(p(), { trigger: { type: 'deal.stage_changed', label: '', config: {} } }), 'trigger.type'],
    ['an unknown trigger field', () => welcome(p(), { trigger: { type: 'webhook', secret: 'x' } }), 'trigger.secret'],
    ['a published automation without a trigger type', () => welcome(p(), { status: 'published', trigger: { type: null, label: '', config: {} } }), 'trigger'],
    ['a bad reenroll', () => welcome(p(), { reenroll: 'sometimes' }), 'reenroll'],
    ['run_only_if not an object', () => welcome(p(), { run_only_if: 'always' }), 'run_only_if'],
    ['steps not a list', () => welcome(p(), { steps: {} }), 'steps'],
    ['an unknown step type', () => withStep(2, { id: 's1', name: 'Fax', type: 'fax.send', config: {} }), 'steps[2].type'],
    ['a reserved step id', () => withStep(2, { id: 't', name: 'T', type: 'end', config: {} }), 'steps[2].id'],
    ['a duplicate step id', () => withStep(2, { id: 'e1', name: 'Again', type: 'end', config: {} }), 'steps[2].id'],
    ['next to a missing step', () => withStep(2, { id: 's1', name: 'T', type: 'end', config: {}, next: 'zz' }), 'steps[2].next'],
    ['a step leading to itself', () => withStep(2, { id: 's1', name: 'T', type: 'end', config: {}, next: 's1' }), 'steps[2].next'],
    ['branches on a send step', () => withStep(2, { id: 's1', name: 'T', type: 'sms.send', config: {}, branches: { yes: 'e1' } }), 'steps[2].branches'],
    ['a branch to a missing step', () => withStep(2, { id: 's1', name: 'B', type: 'branch', config: {}, branches: { yes: 'zz' } }), 'steps[2].branches.yes'],
    ['an unknown step field', () => withStep(2, { id: 's1', name: 'T', type: 'end', config: {}, colour: 'red' }), 'steps[2].colour'],
    ['an empty step name', () => withStep(2, { id: 's1', name: '', type: 'end', config: {} }), 'steps[2].name'],
  ];

  it.each(cases)('%s', async (_what, make, path) => {
    const def = make();
    const fixture = await fixtureRefusal(def);
    expect(fixture.path).toBe(path);
    const created = expectError(await member.post('/hub/api/automations', def), 422, 'invalid_request', 'invalid_field', path);
    expect(created.message).toBe(fixture.detail);
    // The same edit of an existing draft (the fields a draft save takes) is refused the same way.
    const { project_id: _p, status, ...edit } = def;
    if (status !== 'draft') return;
    const target = (await create(welcome(p(), { name: 'Target' }))).automation.id;
    const saved = expectError(await member.put(`${base(target)}/draft`, edit), 422, 'invalid_request', 'invalid_field', path);
    expect(saved.message).toBe(fixture.detail);
  });

  it('refuses a project of another account or none with the fixture’s words at project_id; an unknown field is unknown_field', async () => {
    const foreign = expectError(await member.post('/hub/api/automations', welcome(s.other.projects.q)), 422, 'invalid_request', 'invalid_field', 'project_id');
    expect(foreign.message).toBe(`no project with ref ${JSON.stringify(s.other.projects.q)} in this account`);
    const { project_id: _p, ...none } = welcome('');
    expect(expectError(await member.post('/hub/api/automations', none), 422, 'invalid_request', 'invalid_field', 'project_id').message).toBe('missing (required)');
    expectError(await member.post('/hub/api/automations', { ...welcome(s.acme.projects.p1), ref: 'x' }), 422, 'invalid_request', 'unknown_field', 'ref');
    expectError(await member.put(`${base(s.acme.projects.p1)}/draft`, { colour: 'red' }), 422, 'invalid_request', 'unknown_field', 'colour');
  });
});

describe('publishing, the diff and the versions, as /v1 reports them', () => {
  it('draft → publish → edit → publish v2 → edit back: published_version and has_unpublished_changes', async () => {
    const id = (await create(welcome(s.acme.projects.p1, { name: 'Cycle' }))).automation.id;
    const state = async () => {
      const [a, d] = await Promise.all([v1(id), member.get(`${base(id)}/diff`)]);
      const { published_version, has_unpublished_changes } = a.json();
      expect(d.json().has_changes).toBe(has_unpublished_changes);
      return { published_version, has_unpublished_changes, diff: d.json() };
    };
    expect(await state()).toMatchObject({ published_version: 0, has_unpublished_changes: false, diff: { from_version: 0, steps: { added: [{ id: 'e1' }, { id: 'w1' }, { id: 's1' }] } } });
    const pub = await member.post(`${base(id)}/publish`);
    expect(pub.statusCode, pub.body).toBe(200);
    expect(await state()).toMatchObject({ published_version: 1, has_unpublished_changes: false });

    const v1Steps = welcome('').steps;
    const edited = [{ ...v1Steps[0], config: { subject: 'Hello {{first_name}}', body: '<p>Welcome</p>' } }, v1Steps[1], { id: 'x', name: 'Done', type: 'end', config: {} }];
    edited[1] = { ...edited[1], next: 'x' };
    const saved = await member.put(`${base(id)}/draft`, { steps: edited, reenroll: 'always' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ automation: { has_unpublished_changes: true, published_version: 1 }, draft: { reenroll: 'always' }, published: { reenroll: 'never' } });
    const after = await state();
    expect(after).toMatchObject({ published_version: 1, has_unpublished_changes: true });
    expect(after.diff).toEqual({
      from_version: 1,
      steps: {
        added: [edited[2]],
        removed: [v1Steps[2]],
        changed: [
          { id: 'e1', fields: ['config'], before: v1Steps[0], after: edited[0] },
          { id: 'w1', fields: ['next'], before: v1Steps[1], after: edited[1] },
        ],
        reordered: false,
      },
      trigger_changed: false,
      run_only_if_changed: false,
      reenroll_changed: true,
      name_changed: false,
      has_changes: true,
      // Both sides' settings, for the publish dialog to word each change (issue 25, item 10).
      settings: {
        published: { name: 'Cycle', trigger: saved.json().published.trigger, run_only_if: null, reenroll: 'never' },
        draft: { name: 'Cycle', trigger: saved.json().draft.trigger, run_only_if: null, reenroll: 'always' },
      },
    });

    await owner.post(`${base(id)}/publish`);
    expect(await state()).toMatchObject({ published_version: 2, has_unpublished_changes: false });
    // Back to version 2's content with keys in another order: no change.
    const reordered = edited.map((st) => Object.fromEntries(Object.entries(st).reverse()));
    expect((await member.put(`${base(id)}/draft`, { reenroll: 'never' })).statusCode).toBe(200);
    expect(await state()).toMatchObject({ has_unpublished_changes: true });
    await member.put(`${base(id)}/draft`, { steps: reordered, reenroll: 'always' });
    expect(await state()).toMatchObject({ published_version: 2, has_unpublished_changes: false, diff: { has_changes: false, steps: { added: [], removed: [], changed: [] } } });

    const versions = (await member.get(`${base(id)}/versions`)).json().data;
    expect(versions.map((v: { version: number; published_by: string }) => [v.version, v.published_by])).toEqual([
      [2, expect.stringContaining('owner@acme.example')],
      [1, expect.stringContaining('adam@acme.example')],
    ]);
    const one = await member.get(`${base(id)}/versions/1`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual({ ...versions[1], definition: { ...welcome(s.acme.projects.p1, { name: 'Cycle', status: 'published' }) } });
    expect((await member.get(`${base(id)}/versions/2`)).json().definition).toMatchObject({ reenroll: 'always', steps: edited });
    expectError(await member.get(`${base(id)}/versions/3`), 404, 'not_found', 'resource_not_found');
    expectError(await member.get(`${base(id)}/versions/0`), 400, 'invalid_request', 'invalid_id', 'version');
    const actions = (await auditOf(t, s.acme.id, id)).map((e) => [e.action, e.detail]);
    expect(actions).toEqual([
      ['automation.created', { name: 'Cycle', status: 'draft', version: 0 }],
      ['automation.published', { version: 1 }],
      ['automation.published', { version: 2 }],
    ]);
  });

  it('a fixture’s version 1 says no publisher', async () => {
    const res = await member.get(`${base(s.acme.automations.seeded)}/versions`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([{ version: 1, published_at: expect.any(String), published_by: null }]);
  });
});

describe('copy and delete', () => {
  it('copies as a draft "Copy of <name>" without the webhook secret (audited)', async () => {
    const src = await create(welcome(s.acme.projects.p2, { status: 'published', name: 'Original' }));
    await t.db.query(`update automations set webhook_secret = 'hash' where id = $1`, [src.automation.id]);
    const res = await member.post(`${base(src.automation.id)}/copy`);
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json();
    expect(copy.automation).toMatchObject({ name: 'Copy of Original', status: 'draft', published_version: 0 });
    expect(copy.draft).toEqual({ ...(src.draft as object), name: 'Copy of Original', status: 'draft' });
    expect(copy.webhook).toEqual({ configured: false });
    expect((await member.get(`${base(src.automation.id)}/editor`)).json().webhook).toEqual({ configured: true });
    expect(await auditOf(t, s.acme.id, copy.automation.id)).toEqual([
      { action: 'automation.created', actor_label: expect.any(String), detail: { name: 'Copy of Original', status: 'draft', copied_from: src.automation.id } },
    ]);
  });

  it('deletes (admin): active runs end stopped, /v1 and the hub answer 404, enrollment is refused, finished runs stay', async () => {
    const id = (await create(welcome(s.acme.projects.p1, { status: 'published', name: 'Doomed' }))).automation.id;
    const waiting = await insertRun(t, s.acme.id, id, s.acme.contacts.ann, 'waiting');
    const done = await insertRun(t, s.acme.id, id, null, 'succeeded');
    expectError(await member.delete(base(id)), 403, 'permission', 'role_forbidden');
    const res = await owner.delete(base(id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id, deleted: true });
    const runs = await t.db.query<{ id: string; status: string; error: string | null }>(`select id, status, error from automation_runs where automation_id = $1 order by id`, [id]);
    expect(Object.fromEntries(runs.map((r) => [r.id, [r.status, r.error]]))).toEqual({
      [waiting]: ['stopped', 'The automation was deleted in the hub'],
      [done]: ['succeeded', null],
    });
    expectError(await v1(id), 404, 'not_found', 'resource_not_found');
    for (const path of ['', '/editor', '/diff', '/versions']) expectError(await member.get(`${base(id)}${path}`), 404, 'not_found', 'resource_not_found');
    expectError(await member.put(`${base(id)}/draft`, { name: 'Back' }), 404, 'not_found', 'resource_not_found');
    expectError(await owner.delete(base(id)), 404, 'not_found', 'resource_not_found');
    const enroll = await t.app.inject({
      method: 'POST',
      url: `/v1/automations/${id}/enrollments`,
      headers: { ...bearer(s.acme.keys.main), 'idempotency-key': 'deleted-1', 'content-type': 'application/json' },
      payload: { contact_ids: [s.acme.contacts.ann] },
    });
    expectError(enroll, 404, 'not_found', 'resource_not_found');
    expect(await auditOf(t, s.acme.id, id)).toContainEqual({ action: 'automation.deleted', actor_label: expect.stringContaining('owner@acme.example'), detail: { stopped_runs: 1 } });
  });
});

describe('security', () => {
  it('another account’s automation is 404 on every builder route; CSRF is required', async () => {
    const id = (await create(welcome(s.acme.projects.p1, { name: 'Mine' }))).automation.id;
    for (const path of ['/editor', '/diff', '/versions', '/versions/1']) expectError(await other.get(`${base(id)}${path}`), 404, 'not_found', 'resource_not_found');
    expectError(await other.put(`${base(id)}/draft`, { name: 'Theirs' }), 404, 'not_found', 'resource_not_found');
    expectError(await other.post(`${base(id)}/copy`), 404, 'not_found', 'resource_not_found');
    expectError(await other.delete(base(id)), 404, 'not_found', 'resource_not_found');
    const noCsrf = await member.request({ method: 'POST', url: '/hub/api/automations', payload: welcome(s.acme.projects.p1), headers: { 'x-csrf-token': '' } });
    expect(noCsrf.statusCode).toBe(403);
    expect((await member.get(`${base(id)}/editor`)).json().draft.name).toBe('Mine');
  });
});
