// Suppression at the moment of sending (docs/architecture.md §10.4; spec Enrollment rule 4): each
// rule skips the send with the reason in the step's error, writes nothing to the outbox, and the
// other steps still run. A contact who opts out while the run waits is checked again when the next
// email is due.
import { describe, expect, it } from 'vitest';
import { startTestRun } from '../../../src/services/automations/test-run.js';
import { OPERATOR } from '../../../src/services/audit/service.js';
import { runOperatorCommand } from '../../../src/cli/operator.js';
import {
  engineTestFile,
  enroll,
  insertAutomation,
  insertContact,
  outbox,
  startEngine,
  stepRows,
  waitForRun,
  type ContactFields,
} from './support.js';

const file = engineTestFile();
const { engines } = file;

const SENDS = [
  { id: 'e1', type: 'email.send', config: { subject: 'Hi', body: 'Hello {{first_name}}' } },
  { id: 's1', type: 'sms.send', config: { body: 'Text' } },
  { id: 'g', type: 'tag.add', config: { tag: 'reached' } },
];

async function runFor(fields: ContactFields, project = file.w.site): Promise<{ e1: string | null; s1: string | null; g: string; channels: string[] }> {
  const auto = await insertAutomation(file.t.db, file.w.acme, project, SENDS);
  const c = await insertContact(file.t.db, file.w.acme, fields);
  const run = await enroll(file.t.db, file.w.acme, auto, c);
  await waitForRun(file.t.db, run, 'succeeded');
  const steps = await stepRows(file.t.db, run);
  const by = (id: string) => steps.find((s) => s.step_id === id)!;
  expect(by('g').status).toBe('ok'); // other steps still run
  const status = (id: string) => (by(id).status === 'ok' ? null : `${by(id).status}: ${by(id).error}`);
  return { e1: status('e1'), s1: status('s1'), g: by('g').status, channels: (await outbox(file.t.db, run)).map((m) => m.channel) };
}

describe('suppression at send time', () => {
  it('sends both to a contact who may receive them', async () => {
    await startEngine(file.t.db, engines);
    expect(await runFor({})).toEqual({ e1: null, s1: null, g: 'ok', channels: ['email', 'sms'] });
  });

  it('do-not-contact skips email and text', async () => {
    await startEngine(file.t.db, engines);
    const r = await runFor({ do_not_contact: true });
    expect(r).toMatchObject({ e1: 'skipped: Skipped: contact is on do-not-contact', s1: 'skipped: Skipped: contact is on do-not-contact', channels: [] });
  });

  it('email opt-out skips the email only', async () => {
    await startEngine(file.t.db, engines);
    expect(await runFor({ email_opt_out: true })).toMatchObject({ e1: 'skipped: Skipped: contact opted out of email', s1: null, channels: ['sms'] });
  });

  it('no email address skips the email; no phone skips the text', async () => {
    await startEngine(file.t.db, engines);
    expect(await runFor({ email: null })).toMatchObject({ e1: 'skipped: Skipped: contact has no email address', s1: null });
    expect(await runFor({ phone: null })).toMatchObject({ e1: null, s1: 'skipped: Skipped: contact has no phone number', channels: ['email'] });
  });

  it('STOP skips the text', async () => {
    await startEngine(file.t.db, engines);
    expect(await runFor({ sms_stopped: true })).toMatchObject({ e1: null, s1: 'skipped: Skipped: contact replied STOP', channels: ['email'] });
  });

  it('SMS consent: required by default (none and revoked skip); a project may turn the requirement off', async () => {
    await startEngine(file.t.db, engines);
    expect(await runFor({ sms_consent: 'none' })).toMatchObject({ s1: 'skipped: Skipped: contact has not agreed to texts', channels: ['email'] });
    expect(await runFor({ sms_consent: 'revoked' })).toMatchObject({ s1: 'skipped: Skipped: contact revoked consent to texts' });
    // Project "plain" has sms_consent_required: false.
    expect(await runFor({ sms_consent: 'none' }, file.w.plain)).toMatchObject({ s1: null, channels: ['email', 'sms'] });
    // STOP and do-not-contact apply whatever the project says.
    expect(await runFor({ sms_consent: 'granted', sms_stopped: true }, file.w.plain)).toMatchObject({ s1: 'skipped: Skipped: contact replied STOP' });
  });

  it('a contact who opts out while the run waits between two emails gets only the first', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 'e1', type: 'email.send', config: { subject: 'One', body: '1' } },
      { id: 'w1', type: 'wait', config: { duration: 'PT1S' } },
      { id: 'e2', type: 'email.send', config: { subject: 'Two', body: '2' } },
      { id: 'n1', type: 'notify.team', config: { subject: 'Done', body: '' } },
    ]);
    const c = await insertContact(file.t.db, file.w.acme);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    await waitForRun(file.t.db, run, 'waiting');
    await file.t.db.query(`update contacts set email_opt_out = true where id = $1`, [c]);
    await waitForRun(file.t.db, run, 'succeeded');
    const steps = await stepRows(file.t.db, run);
    expect(steps.map((s) => [s.step_id, s.status, s.error])).toEqual([
      ['t', 'ok', null],
      ['e1', 'ok', null],
      ['w1', 'ok', null],
      ['e2', 'skipped', 'Skipped: contact opted out of email'],
      ['n1', 'ok', null],
    ]);
    const msgs = await outbox(file.t.db, run);
    expect(msgs.filter((m) => m.channel === 'email').map((m) => m.subject)).toEqual(['One']);
  });
});

describe('test runs', () => {
  it('`automations test` sends only to the testing user, changes no records, and moves no counter', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 'e1', type: 'email.send', config: { subject: 'Hi {{first_name}}', body: 'b' } },
      { id: 's1', type: 'sms.send', config: { body: 'Text for {{first_name}}' } },
      { id: 'n1', type: 'notify.team', config: { subject: 'Team', body: '' } },
      { id: 'g', type: 'tag.add', config: { tag: 'tested' } },
    ]);
    const c = await insertContact(file.t.db, file.w.acme, { first_name: 'Tess' });
    await startEngine(file.t.db, engines);
    const res = await runOperatorCommand(file.t.db, ['automations', 'test', auto, '--contact', c, '--by', file.w.users.sam, '--json']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const started = JSON.parse(res.stdout) as { id: string; test: boolean; tester_email: string };
    expect(started).toMatchObject({ test: true, tester_email: 'sam@acme.test' });
    await waitForRun(file.t.db, started.id, 'succeeded');
    const msgs = await outbox(file.t.db, started.id);
    expect(msgs.map((m) => [m.channel, m.to_address, m.subject])).toEqual([
      ['email', 'sam@acme.test', '[Test] Hi Tess'],
      ['email', 'sam@acme.test', '[Test] Text message'],
      ['team', 'sam@acme.test', '[Test] Team'],
    ]);
    const [contact] = await file.t.db.query<{ tags: string[] }>(`select tags from contacts where id = $1`, [c]);
    expect(contact.tags).toEqual([]);
    const [a] = await file.t.db.query<{ last_run_at: Date | null }>(`select last_run_at from automations where id = $1`, [auto]);
    expect(a.last_run_at).toBeNull();
    const [run] = await file.t.db.query<{ test: boolean; started_by: string }>(`select test, started_by from automation_runs where id = $1`, [started.id]);
    expect(run).toEqual({ test: true, started_by: 'Test by Sam Member' });
  });

  it('refuses an automation never published, and a user of another account', async () => {
    const draft = await insertAutomation(file.t.db, file.w.acme, file.w.site, [{ id: 'g', type: 'tag.add', config: { tag: 'x' } }]);
    await file.t.db.query(`update automations set status = 'draft', published_version = 0 where id = $1`, [draft]);
    await expect(startTestRun(file.t.db, { automationId: draft, contactId: file.w.contacts.ann, userId: file.w.users.olivia }, OPERATOR)).rejects.toThrow(/never been published/);
    const pub = await insertAutomation(file.t.db, file.w.acme, file.w.site, [{ id: 'g', type: 'tag.add', config: { tag: 'x' } }]);
    const [{ id: gina }] = await file.t.db.query<{ id: string }>(`select id from users where account_id = $1`, [file.w.globex]);
    const res = await runOperatorCommand(file.t.db, ['automations', 'test', pub, '--contact', file.w.contacts.ann, '--by', gina]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/no user .* in the automation's account/);
    const usage = await runOperatorCommand(file.t.db, ['automations', 'test', 'nope']);
    expect(usage.code).toBe(2);
  });
});
