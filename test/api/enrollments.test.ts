// POST /v1/automations/{id}/enrollments: the enrollment rules and every skip reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixture } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, UUID_RE } from '../http/fixtures.js';

let t: TestApp;
let S: Awaited<ReturnType<typeof seedFixture>>['accounts'];
let n = 0;

const steps = [{ id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Hi {{first_name}}', body: 'Hello' } }];
const automation = (ref: string, status: string, extra: Record<string, unknown> = {}) => ({
  ref,
  name: ref,
  project: 'site',
  status,
  trigger: { type: 'contact.created', label: 'Contact is created' },
  steps,
  ...extra,
});

beforeAll(async () => {
  t = await testApp();
  const contacts = Array.from({ length: 520 }, (_, i) => ({ ref: `c${i}`, email: `c${i}@example.org`, first_name: `C${i}` }));
  S = (
    await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'a',
            name: 'a',
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            keys: [
              { ref: 'k', name: 'CRM sync', scopes: ['automations:enroll', 'automations:read'] },
              { ref: 'ro', name: 'read only', scopes: ['automations:read'] },
            ],
            projects: [
              { ref: 'site', name: 'Site', settings: { max_automations_per_contact: 2 } },
            ],
            automations: [
              automation('welcome', 'published', {
                run_only_if: { field: 'lifecycle_stage', op: 'in', value: ['customer'] },
              }),
              automation('again', 'published', { reenroll: 'always' }),
              automation('third', 'published'),
              automation('draft', 'draft'),
              automation('paused', 'paused'),
            ],
            contacts: [
              ...contacts,
              { ref: 'gone', email: 'gone@example.org', erased: true },
              { ref: 'old', email: 'old@example.org', archived: true },
              { ref: 'dnc', email: 'dnc@example.org', do_not_contact: true },
            ],
          },
          {
            ref: 'b',
            name: 'b',
            users: [{ ref: 'o', email: 'o@b.example', role: 'owner' }],
            keys: [{ ref: 'k', name: 'k', scopes: ['automations:enroll'] }],
            projects: [{ ref: 'site', name: 'Site' }],
            automations: [automation('welcome', 'published')],
            contacts: [{ ref: 'x', email: 'x@example.org' }],
          },
        ],
      },
      { erasureSecret: Buffer.from('t') },
    )
  ).accounts;
});
afterAll(() => t?.close());

function enroll(automationRef: string, contactIds: unknown, opts: { key?: string; account?: string; apiKey?: string; automationId?: string } = {}) {
  const account = opts.account ?? 'a';
  return t.app.inject({
    method: 'POST',
    url: `/v1/automations/${opts.automationId ?? S[account].automations[automationRef]}/enrollments`,
    headers: { ...bearer(opts.apiKey ?? S[account].keys.k), 'idempotency-key': opts.key ?? `enroll-key-${n++}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ contact_ids: contactIds }),
  });
}
const c = (ref: string) => S.a.contacts[ref];
const runCount = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from automation_runs'))[0].n;

describe('enrollment: happy path', () => {
  it('enrolls contacts, ignoring the trigger type and the Run-only-if filter', async () => {
    const r = await enroll('welcome', [c('c0'), c('c1')]);
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(Object.keys(body).sort()).toEqual(['automation_id', 'enrolled', 'runs', 'skipped']);
    expect(body).toMatchObject({ automation_id: S.a.automations.welcome, enrolled: 2, skipped: [] });
    expect(body.runs.map((x: { contact_id: string }) => x.contact_id)).toEqual([c('c0'), c('c1')]);
    for (const run of body.runs) expect(run.id).toMatch(UUID_RE);
    const [row] = await t.db.query<{ status: string; started_by: string; version: number; test: boolean }>(
      'select status, started_by, version, test from automation_runs where id = $1',
      [body.runs[0].id],
    );
    expect(row).toMatchObject({ version: 1, test: false });
    expect(row.started_by).toMatch(/^API key "CRM sync" \(svc_live_[0-9A-Za-z]{6}…\)$/);
  });

  it('enrolls a contact on do-not-contact (its email steps skip them later)', async () => {
    expect((await enroll('third', [c('dnc')])).json()).toMatchObject({ enrolled: 1, skipped: [] });
  });

  it('enrolls 500 contacts in one request', async () => {
    const ids = Array.from({ length: 500 }, (_, i) => c(`c${i + 20}`));
    const r = await enroll('again', ids);
    expect(r.statusCode).toBe(200);
    expect(r.json().enrolled).toBe(500);
  });

  it('a retry with the same key and body returns the first answer and enrolls nobody twice', async () => {
    const before = await runCount();
    const first = await enroll('third', [c('c5')], { key: 'enroll-replay-1' });
    const again = await enroll('third', [c('c5')], { key: 'enroll-replay-1' });
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(await runCount()).toBe(before + 1);
    expectError(await enroll('third', [c('c6')], { key: 'enroll-replay-1' }), 422, 'invalid_request', 'idempotency_key_reused', 'Idempotency-Key');
  });
});

describe('enrollment: skip reasons', () => {
  it('not_found for unknown, other accounts\' and archived contacts; erased for erased ones', async () => {
    const unknown = uuidv7();
    const body = (await enroll('third', [unknown, S.b.contacts.x, c('old'), c('gone')])).json();
    expect(body.enrolled).toBe(0);
    expect(body.skipped).toEqual([
      { contact_id: unknown, reason: 'not_found' },
      { contact_id: S.b.contacts.x, reason: 'not_found' },
      { contact_id: c('old'), reason: 'not_found' },
      { contact_id: c('gone'), reason: 'erased' },
    ]);
  });

  it('already_enrolled while running or waiting, and for an id given twice', async () => {
    await enroll('welcome', [c('c2')]);
    const body = (await enroll('welcome', [c('c2'), c('c3'), c('c3')])).json();
    expect(body.runs.map((r: { contact_id: string }) => r.contact_id)).toEqual([c('c3')]);
    expect(body.skipped).toEqual([
      { contact_id: c('c2'), reason: 'already_enrolled' },
      { contact_id: c('c3'), reason: 'already_enrolled' },
    ]);
  });

  it('enrolled_before once a run ended (runs once per contact), unless the automation re-enrolls', async () => {
    await enroll('welcome', [c('c4')]);
    await t.db.query(`update automation_runs set status = 'succeeded', finished_at = now() where contact_id = $1`, [c('c4')]);
    expect((await enroll('welcome', [c('c4')])).json().skipped).toEqual([{ contact_id: c('c4'), reason: 'enrolled_before' }]);
    await enroll('again', [c('c4')]);
    await t.db.query(`update automation_runs set status = 'succeeded', finished_at = now() where contact_id = $1`, [c('c4')]);
    expect((await enroll('again', [c('c4')])).json()).toMatchObject({ enrolled: 1 });
  });

  it('too_many_automations at the project limit', async () => {
    await enroll('welcome', [c('c10')]);
    await enroll('again', [c('c10')]);
    expect((await enroll('third', [c('c10')])).json().skipped).toEqual([{ contact_id: c('c10'), reason: 'too_many_automations' }]);
  });
});

describe('enrollment: errors', () => {
  it('draft or paused → 409 automation_not_published, nobody enrolled', async () => {
    const before = await runCount();
    expectError(await enroll('draft', [c('c11')]), 409, 'conflict', 'automation_not_published');
    expectError(await enroll('paused', [c('c11')]), 409, 'conflict', 'automation_not_published');
    expect(await runCount()).toBe(before);
  });

  it.each([
    [[], 'contact_ids'],
    [Array.from({ length: 501 }, () => uuidv7()), 'contact_ids'],
    [['not-a-uuid'], 'contact_ids'],
    ['x', 'contact_ids'],
  ])('contact_ids %#: 422 invalid_field', async (ids, param) => {
    expectError(await enroll('third', ids), 422, 'invalid_request', 'invalid_field', param);
  });

  it('missing contact_ids → 400 missing_field; another field → 422 unknown_field; no key → 400', async () => {
    const post = (payload: string, key: string | null = `k-${n++}-abcdefgh`) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/automations/${S.a.automations.third}/enrollments`,
        headers: { ...bearer(S.a.keys.k), 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
        payload,
      });
    expectError(await post('{}'), 400, 'invalid_request', 'missing_field', 'contact_ids');
    expectError(await post(`{"contact_ids":["${c('c12')}"],"dry_run":true}`), 422, 'invalid_request', 'unknown_field', 'dry_run');
    expectError(await post(`{"contact_ids":["${c('c12')}"]}`, null), 400, 'invalid_request', 'missing_idempotency_key', 'Idempotency-Key');
  });

  it('another account\'s automation → 404; a key without automations:enroll → 403', async () => {
    expectError(await enroll('third', [c('c12')], { automationId: S.b.automations.welcome }), 404, 'not_found', 'resource_not_found');
    const e = expectError(await enroll('third', [c('c12')], { apiKey: S.a.keys.ro }), 403, 'permission', 'insufficient_scope');
    expect(e.message).toContain('automations:enroll');
  });
});
