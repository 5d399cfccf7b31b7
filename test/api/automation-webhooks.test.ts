// Webhook triggers: `automations webhook` gives a URL with a secret; POSTing a contact to it
// finds or creates the contact and starts a run with the Run-only-if filter applied; wrong
// secrets, bad bodies, erased addresses, paused automations and floods get the catalogue's errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/cli/operator.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { loadSecrets, rotateSecret } from '../../src/secrets/store.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { expectError } from '../http/fixtures.js';

let t: TestApp;
let S: Awaited<ReturnType<typeof seedFixture>>['accounts'];
const urls: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  const [erasure] = await loadSecrets(t.db, 'erasure');
  const steps = [{ id: 'e1', name: 'Hello', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }];
  S = (
    await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'a',
            name: 'a',
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            projects: [{ ref: 'p', name: 'P' }],
            automations: [
              {
                ref: 'form',
                name: 'Form',
                project: 'p',
                status: 'published',
                trigger: { type: 'webhook', label: 'Form posted' },
                run_only_if: { field: 'email', op: 'contains', value: '@example.org' },
                steps,
              },
              { ref: 'paused', name: 'Paused', project: 'p', status: 'paused', trigger: { type: 'webhook', label: 'Hook' }, steps },
            ],
            contacts: [{ ref: 'known', email: 'known@example.org', first_name: 'Kim' }, { ref: 'gone', email: 'gone@example.org', erased: true }],
          },
        ],
      },
      { erasureSecret: erasure.secret },
    )
  ).accounts;
  for (const ref of ['form', 'paused']) {
    const out = await runOperatorCommand(t.db, ['automations', 'webhook', S.a.automations[ref], '--account', S.a.id]);
    expect(out.code).toBe(0);
    urls[ref] = /\/hooks\/automations\/[A-Za-z0-9_-]+/.exec(out.stdout)![0];
  }
});
afterAll(() => t?.close());

const post = (url: string, body: unknown, type = 'application/json') =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload: typeof body === 'string' ? body : JSON.stringify(body) });

describe('webhook triggers', () => {
  it('creates the contact and starts a run when the filter matches', async () => {
    const r = await post(urls.form, { email: 'New.Person@Example.org', first_name: 'New' });
    expect(r.statusCode).toBe(202);
    const body = r.json();
    expect(body).toMatchObject({ automation_id: S.a.automations.form, contact_created: true, status: 'started', reason: null });
    const [run] = await t.db.query<{ status: string; started_by: string; contact_id: string }>(
      'select status, started_by, contact_id from automation_runs where id = $1',
      [body.run_id],
    );
    expect(run).toMatchObject({ status: 'running', started_by: 'Webhook', contact_id: body.contact_id });
    const [c] = await t.db.query<{ email: string; assignee: string | null }>('select email, assignee from contacts where id = $1', [body.contact_id]);
    expect(c).toEqual({ email: 'New.Person@Example.org', assignee: null });
  });

  it('finds an existing contact by email; a filter miss is a skipped run', async () => {
    const hit = (await post(urls.form, { email: 'KNOWN@example.org' })).json();
    expect(hit).toMatchObject({ contact_id: S.a.contacts.known, contact_created: false, status: 'started' });
    const miss = (await post(urls.form, { email: 'someone@elsewhere.test' })).json();
    expect(miss.status).toBe('skipped');
    const [run] = await t.db.query<{ status: string }>('select status from automation_runs where id = $1', [miss.run_id]);
    expect(run.status).toBe('skipped');
  });

  it('refuses wrong secrets, bad bodies, erased addresses and paused automations', async () => {
    expectError(await post('/hooks/automations/not-the-secret', { email: 'x@example.org' }), 404, 'not_found', 'route_not_found');
    expectError(await post(urls.form, { email: 'not an email' }), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await post(urls.form, { email: 'x@example.org', admin: true }), 422, 'invalid_request', 'unknown_field', 'admin');
    expectError(await post(urls.form, {}), 400, 'invalid_request', 'missing_field', 'email');
    expectError(await post(urls.form, 'email=x', 'application/x-www-form-urlencoded'), 415, 'invalid_request', 'unsupported_media_type');
    expectError(await post(urls.form, { email: 'x@example.org', first_name: 'y'.repeat(20_000) }), 413, 'invalid_request', 'body_too_large');
    expectError(await post(urls.form, { email: 'GONE@example.org' }), 409, 'conflict', 'contact_do_not_contact', 'email');
    expectError(await post(urls.paused, { email: 'p@example.org' }), 409, 'conflict', 'automation_not_published');
  });

  it('a new secret replaces the old URL at once', async () => {
    const old = urls.form;
    const out = await runOperatorCommand(t.db, ['automations', 'webhook', S.a.automations.form, '--account', S.a.id]);
    const fresh = /\/hooks\/automations\/[A-Za-z0-9_-]+/.exec(out.stdout)![0];
    expectError(await post(old, { email: 'z@example.org' }), 404, 'not_found', 'route_not_found');
    expect((await post(fresh, { email: 'z@example.org' })).statusCode).toBe(202);
    urls.form = fresh;
  });

  it('takes at most 60 calls a minute per automation', async () => {
    // Wait for a window with room, so the calls below share one window.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
    const answers: number[] = [];
    for (let i = 0; i < 62; i++) answers.push((await post(urls.paused, { email: `flood${i}@example.org` })).statusCode);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    const r = await post(urls.paused, { email: 'last@example.org' });
    expectError(r, 429, 'rate_limit', 'rate_limited');
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

// Last in the file: it rotates the account-wide erasure secret.
describe('after the erasure secret is rotated', () => {
  it('an address erased under the old secret is still refused (every kept version is checked)', async () => {
    await rotateSecret(t.db, 'erasure');
    expect((await loadSecrets(t.db, 'erasure')).length).toBeGreaterThan(1);
    expectError(await post(urls.form, { email: 'gone@example.org' }), 409, 'conflict', 'contact_do_not_contact', 'email');
  });
});
