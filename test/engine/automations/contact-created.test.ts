// The contact.created trigger: a new contact starts every published automation of its account
// whose running version has that trigger, with the Run-only-if filter applied (a miss is a skipped
// run); drafts, paused automations, other trigger types and other accounts start nothing. Fixtures
// fire it only with --fire-triggers; a contact a webhook creates fires it, one it finds does not.
// (The contacts API fires it too: test/api/contacts*.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../../src/cli/operator.js';
import { fireContactCreated } from '../../../src/engine/automations/contact-created.js';
import { seedFixture } from '../../../src/fixtures/load.js';
import { loadSecrets } from '../../../src/secrets/store.js';
import { testApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let secret: Buffer;
const steps = [{ id: 'e1', name: 'Hello', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }];

function fixture(ref: string, contacts: Array<Record<string, unknown>>) {
  return {
    accounts: [
      {
        ref,
        name: ref,
        users: [{ ref: 'o', email: `o@${ref}.example`, role: 'owner' }],
        projects: [{ ref: 'p', name: 'P' }],
        automations: [
          {
            ref: 'welcome',
            name: 'Welcome',
            project: 'p',
            status: 'published',
            trigger: { type: 'contact.created', label: 'Contact is created' },
            run_only_if: { field: 'lifecycle_stage', op: 'in', value: ['lead', 'subscriber'] },
            steps,
          },
          { ref: 'plain', name: 'Plain', project: 'p', status: 'published', trigger: { type: 'contact.created', label: 'New contact' }, steps },
          { ref: 'draft', name: 'Draft', project: 'p', trigger: { type: 'contact.created', label: 'Contact is created' }, steps },
          { ref: 'paused', name: 'Paused', project: 'p', status: 'paused', trigger: { type: 'contact.created', label: 'Contact is created' }, steps },
          { ref: 'manual', name: 'Manual', project: 'p', status: 'published', trigger: { type: 'manual', label: 'By hand' }, steps },
          { ref: 'form', name: 'Form', project: 'p', status: 'published', trigger: { type: 'webhook', label: 'Form posted' }, steps },
        ],
        contacts,
      },
    ],
  };
}

async function runsOf(accountId: string) {
  return t.db.query<{ automation_id: string; contact_id: string; status: string; started_by: string }>(
    `select automation_id, contact_id, status, started_by from automation_runs where account_id = $1 order by started_by, status`,
    [accountId],
  );
}

beforeAll(async () => {
  t = await testApp();
  [{ secret }] = await loadSecrets(t.db, 'erasure');
});
afterAll(() => t?.close());

describe('contact.created', () => {
  it('a fixture fires nothing by default: its contacts already exist', async () => {
    const s = (await seedFixture(t.db, fixture('quiet', [{ ref: 'ann', email: 'ann@x.example', lifecycle_stage: 'lead' }]), { erasureSecret: secret })).accounts;
    expect(await runsOf(s.quiet.id)).toEqual([]);
  });

  it('with fireContactCreated, each live contact starts every published contact.created automation, filter applied', async () => {
    const s = (
      await seedFixture(
        t.db,
        fixture('loud', [
          { ref: 'ann', email: 'ann@x.example', lifecycle_stage: 'lead' },
          { ref: 'cus', email: 'cus@x.example', lifecycle_stage: 'customer' },
          { ref: 'old', email: 'old@x.example', archived: true },
          { ref: 'gone', email: 'gone@x.example', erased: true },
        ]),
        { erasureSecret: secret, fireContactCreated: true },
      )
    ).accounts.loud;
    const runs = await runsOf(s.id);
    const by = (a: string, c: string) => runs.filter((r) => r.automation_id === s.automations[a] && r.contact_id === s.contacts[c]);
    expect(by('welcome', 'ann')).toEqual([expect.objectContaining({ status: 'running', started_by: 'Contact is created' })]);
    expect(by('welcome', 'cus')).toEqual([expect.objectContaining({ status: 'skipped' })]);
    expect(by('plain', 'ann')).toEqual([expect.objectContaining({ status: 'running', started_by: 'New contact' })]);
    expect(by('plain', 'cus')).toHaveLength(1);
    // Drafts, paused and other trigger types start nothing; archived and erased contacts neither.
    expect(runs).toHaveLength(4);
    const [{ last_run_at }] = await t.db.query<{ last_run_at: Date | null }>('select last_run_at from automations where id = $1', [s.automations.welcome]);
    expect(last_run_at).toBeInstanceOf(Date);
  });

  it('firing twice for one contact enrolls once (already in; never re-enrolled)', async () => {
    const s = (await seedFixture(t.db, fixture('twice', [{ ref: 'ann', email: 'ann@x.example', lifecycle_stage: 'lead' }]), { erasureSecret: secret })).accounts.twice;
    const first = await t.db.transaction((tx) => fireContactCreated(tx, s.id, s.contacts.ann));
    expect(first.map((f) => f.outcome.status)).toEqual(['started', 'started']);
    const second = await t.db.transaction((tx) => fireContactCreated(tx, s.id, s.contacts.ann));
    expect(second.map((f) => f.outcome)).toEqual([
      { status: 'ignored', reason: 'already_enrolled' },
      { status: 'ignored', reason: 'already_enrolled' },
    ]);
    expect(await runsOf(s.id)).toHaveLength(2);
  });

  it('a contact created by a webhook fires it; one the webhook finds does not', async () => {
    const s = (await seedFixture(t.db, fixture('hooked', [{ ref: 'kim', email: 'kim@x.example', lifecycle_stage: 'lead' }]), { erasureSecret: secret })).accounts.hooked;
    const out = await runOperatorCommand(t.db, ['automations', 'webhook', s.automations.form, '--account', s.id]);
    const url = /\/hooks\/automations\/[A-Za-z0-9_-]+/.exec(out.stdout)![0];
    const post = (email: string) => t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: { email } });
    const created = await post('new@x.example');
    expect(created.json()).toMatchObject({ contact_created: true, status: 'started' });
    const found = await post('KIM@x.example');
    expect(found.json()).toMatchObject({ contact_created: false, status: 'started' });
    const runs = await runsOf(s.id);
    const newId = created.json().contact_id;
    expect(runs.filter((r) => r.contact_id === newId).map((r) => r.started_by).sort()).toEqual(['Contact is created', 'New contact', 'Webhook']);
    // No filter field on the new contact: the welcome filter does not match, so that run is skipped.
    expect(runs.find((r) => r.contact_id === newId && r.automation_id === s.automations.welcome)?.status).toBe('skipped');
    expect(runs.filter((r) => r.contact_id === s.contacts.kim).map((r) => r.started_by)).toEqual(['Webhook']);
  });

  it('`seed --fire-triggers` fires it; plain `seed` does not', async () => {
    const files = new Map<string, string>();
    const ctx = (name: string, body: unknown) => {
      files.set(name, JSON.stringify(body));
      return { via: 'local' as const, readFile: async (f: string) => files.get(f)! };
    };
    const plain = await runOperatorCommand(t.db, ['seed', 'plain.json', '--json'], ctx('plain.json', fixture('cli1', [{ ref: 'a', email: 'a@x.example', lifecycle_stage: 'lead' }])));
    expect(plain.code).toBe(0);
    expect(await runsOf(JSON.parse(plain.stdout).accounts.cli1.id)).toEqual([]);
    const fired = await runOperatorCommand(
      t.db,
      ['seed', 'fired.json', '--json', '--fire-triggers'],
      ctx('fired.json', fixture('cli2', [{ ref: 'a', email: 'a@x.example', lifecycle_stage: 'lead' }])),
    );
    expect(fired.code).toBe(0);
    expect(await runsOf(JSON.parse(fired.stdout).accounts.cli2.id)).toHaveLength(2);
  });
});
