// Every step kind, run by a real Engine over a real database: the trigger step first, the ledger
// of each step, what lands in the outbox, and how a run ends.
import { describe, expect, it } from 'vitest';
import { engineTestFile, enroll, insertAutomation, insertContact, outbox, startEngine, stepRows, waitForRun } from './support.js';

const file = engineTestFile();
const { engines } = file;

describe('step kinds', () => {
  it('email.send and sms.send render the contact fields into the outbox, with the step effect key', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Hi {{first_name}} & co', body: '<p>{{first_name}} {{last_name}} <b>&</b></p>' } },
      { id: 's1', name: 'Text', type: 'sms.send', config: { body: 'Hey {{first_name}} & friends' } },
    ], { label: 'Contact is created' });
    const c = await insertContact(file.t.db, file.w.acme, { first_name: 'Tom & Jerry', last_name: 'Lee', email: 'tom@example.org', phone: '+15550100002' });
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    const row = await waitForRun(file.t.db, run, 'succeeded');
    expect(row.finished_at).not.toBeNull();
    const steps = await stepRows(file.t.db, run);
    expect(steps.map((s) => [s.step_id, s.type, s.status, s.name])).toEqual([
      ['t', 'trigger', 'ok', 'Contact is created'],
      ['e1', 'email.send', 'ok', 'Welcome'],
      ['s1', 'sms.send', 'ok', 'Text'],
    ]);
    const msgs = await outbox(file.t.db, run);
    expect(msgs).toHaveLength(2);
    const email = msgs.find((m) => m.channel === 'email')!;
    expect(email).toMatchObject({ to_address: 'tom@example.org', subject: 'Hi Tom & Jerry & co', step_id: 'e1', effect_key: `${run}:e1` });
    // Email bodies are HTML: contact values are escaped; texts are not.
    // Marketing email: the body ends with an unsubscribe link, and the headers offer one-click.
    const [link] = /http\S+\/unsubscribe\/\S+/.exec(email.body) ?? [''];
    expect(email.body).toBe(`<p>Tom &amp; Jerry Lee <b>&</b></p>\n\n--\nTo stop receiving these emails, unsubscribe: ${link}\n`);
    const [{ headers }] = await file.t.db.query<{ headers: Record<string, string> }>('select headers from outbox where effect_key = $1', [`${run}:e1`]);
    expect(headers).toEqual({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    const sms = msgs.find((m) => m.channel === 'sms')!;
    expect(sms).toMatchObject({ to_address: '+15550100002', body: 'Hey Tom & Jerry & friends', effect_key: `${run}:s1` });
  });

  it('tag.add, field.set, branch (yes and no) and end', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 'b1', type: 'branch', config: { field: 'lifecycle_stage', op: 'eq', value: 'customer' }, branches: { yes: 'tag', no: 'lead' } },
      { id: 'tag', type: 'tag.add', config: { tag: 'vip' }, next: 'x' },
      { id: 'lead', type: 'field.set', config: { field: 'lifecycle_stage', value: 'marketing_qualified' } },
      { id: 'name', type: 'field.set', config: { field: 'first_name', value: 'Renamed' } },
      { id: 'x', type: 'end' },
      { id: 'never', type: 'tag.add', config: { tag: 'after-end' } },
    ]);
    const customer = await insertContact(file.t.db, file.w.acme, { lifecycle_stage: 'customer', tags: ['a'] });
    const lead = await insertContact(file.t.db, file.w.acme, { lifecycle_stage: 'lead' });
    await startEngine(file.t.db, engines);
    const r1 = await enroll(file.t.db, file.w.acme, auto, customer);
    const r2 = await enroll(file.t.db, file.w.acme, auto, lead);
    await waitForRun(file.t.db, r1, 'succeeded');
    await waitForRun(file.t.db, r2, 'succeeded');
    expect((await stepRows(file.t.db, r1)).map((s) => `${s.step_id}:${s.status}`)).toEqual(['t:ok', 'b1:ok', 'tag:ok', 'x:ok']);
    expect((await stepRows(file.t.db, r2)).map((s) => `${s.step_id}:${s.status}`)).toEqual(['t:ok', 'b1:ok', 'lead:ok', 'name:ok', 'x:ok']);
    const rows = await file.t.db.query<{ id: string; tags: string[]; lifecycle_stage: string; first_name: string }>(
      `select id, tags, lifecycle_stage, first_name from contacts where id = any ($1::uuid[])`,
      [[customer, lead]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(customer)).toMatchObject({ tags: ['a', 'vip'], lifecycle_stage: 'customer', first_name: 'Pat' });
    expect(byId.get(lead)).toMatchObject({ tags: [], lifecycle_stage: 'marketing_qualified', first_name: 'Renamed' });
  });

  it('notify.team writes one team message per account user; task.create makes a task in the project', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 'n1', type: 'notify.team', config: { subject: 'New lead {{email}}', body: 'Say hello to {{first_name}}' } },
      { id: 'k1', type: 'task.create', config: { title: 'Call {{first_name}}' } },
    ]);
    const before = await file.t.db.query<{ n: number }>(`select wm_next_number as n from projects where id = $1`, [file.w.site]);
    const c = await insertContact(file.t.db, file.w.acme, { first_name: 'Lena', email: 'lena@example.org' });
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    await waitForRun(file.t.db, run, 'succeeded');
    const msgs = await outbox(file.t.db, run);
    expect(msgs.map((m) => [m.channel, m.to_address, m.subject])).toEqual([
      ['team', 'olivia@acme.test', 'New lead lena@example.org'],
      ['team', 'sam@acme.test', 'New lead lena@example.org'],
    ]);
    const items = await file.t.db.query<{ type: string; title: string; number: number }>(
      `select type, title, number from wm_items where account_id = $1 and project_id = $2`,
      [file.w.acme, file.w.site],
    );
    expect(items).toEqual([{ type: 'task', title: 'Call Lena', number: before[0].n }]);
    const k1 = (await stepRows(file.t.db, run)).find((s) => s.step_id === 'k1')!;
    expect(k1.output).toEqual({ key: `WEB-${before[0].n}` });
  });

  it('task.create skips in a project that never opened work management', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.plain, [{ id: 'k1', type: 'task.create', config: { title: 'x' } }, { id: 'g', type: 'tag.add', config: { tag: 'went-on' } }]);
    const c = await insertContact(file.t.db, file.w.acme);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    await waitForRun(file.t.db, run, 'succeeded');
    const steps = await stepRows(file.t.db, run);
    expect(steps.map((s) => [s.step_id, s.status, s.error])).toEqual([
      ['t', 'ok', null],
      ['k1', 'skipped', 'Skipped: project has no work management'],
      ['g', 'ok', null],
    ]);
  });

  it('ai.write is billed once to the account and its text feeds later steps', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 'ai', type: 'ai.write', config: { prompt: 'Write a welcome line for {{first_name}}', max_tokens: 50 } },
      { id: 'e1', type: 'email.send', config: { subject: 'Hello', body: '{{{steps.ai.text}}}' } },
    ]);
    const c = await insertContact(file.t.db, file.w.acme, { first_name: 'Ada' });
    const [{ credit: before }] = await file.t.db.query<{ credit: number }>(`select credit_micros::int8 as credit from accounts where id = $1`, [file.w.acme]);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    await waitForRun(file.t.db, run, 'succeeded');
    const ledger = await file.t.db.query<{ feature: string; micros: number; effect_key: string }>(
      `select feature, micros::int8 as micros, effect_key from billing_ledger where automation_run_id = $1`,
      [run],
    );
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ feature: 'llm.tokens', effect_key: `${run}:ai` });
    expect(Number(ledger[0].micros)).toBeGreaterThan(0);
    const [{ credit: after }] = await file.t.db.query<{ credit: number }>(`select credit_micros::int8 as credit from accounts where id = $1`, [file.w.acme]);
    expect(Number(before) - Number(after)).toBe(Number(ledger[0].micros));
    const ai = (await stepRows(file.t.db, run)).find((s) => s.step_id === 'ai')!;
    const [msg] = await outbox(file.t.db, run);
    expect(String(ai.output?.text).length).toBeGreaterThan(0);
    expect(msg.body.startsWith(`${String(ai.output?.text)}\n\n--\nTo stop receiving these emails, unsubscribe: `)).toBe(true);
  });

  it('a step that fails ends the run failed with failed_step_id and error', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 'g', type: 'tag.add', config: { tag: 'ok' } },
      { id: 'bad', name: 'Set a field', type: 'field.set', config: { field: 'email', value: 'x@y.z' } },
      { id: 'after', type: 'tag.add', config: { tag: 'never' } },
    ]);
    const c = await insertContact(file.t.db, file.w.acme);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    const row = await waitForRun(file.t.db, run, 'failed');
    expect(row.failed_step_id).toBe('bad');
    expect(row.error).toMatch(/^Failed: Set a field: config.field must be one of/);
    expect(row.finished_at).not.toBeNull();
    expect((await stepRows(file.t.db, run)).map((s) => `${s.step_id}:${s.status}`)).toEqual(['t:ok', 'g:ok', 'bad:failed']);
  });

  it('a run with no contact (a schedule) skips its contact steps and runs the others', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 'e1', type: 'email.send', config: { subject: 's', body: 'b' } },
      { id: 's1', type: 'sms.send', config: { body: 'b' } },
      { id: 'g', type: 'tag.add', config: { tag: 'x' } },
      { id: 'n1', type: 'notify.team', config: { subject: 'Daily', body: 'ran' } },
    ]);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, null);
    await waitForRun(file.t.db, run, 'succeeded');
    expect((await stepRows(file.t.db, run)).map((s) => [s.step_id, s.status, s.error])).toEqual([
      ['t', 'ok', null],
      ['e1', 'skipped', 'Skipped: no contact'],
      ['s1', 'skipped', 'Skipped: no contact'],
      ['g', 'skipped', 'Skipped: no contact'],
      ['n1', 'ok', null],
    ]);
    expect((await outbox(file.t.db, run)).map((m) => m.channel)).toEqual(['team', 'team']);
  });

  it('a run executes the steps of its pinned version, not the latest', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [{ id: 'g', type: 'tag.add', config: { tag: 'v1' } }]);
    await file.t.db.query(
      `insert into automation_versions (account_id, automation_id, version, trigger, steps) values ($1, $2, 2, '{"type":"manual","label":"x"}', $3)`,
      [file.w.acme, auto, JSON.stringify([{ id: 'g', name: 'g', type: 'tag.add', config: { tag: 'v2' } }])],
    );
    await file.t.db.query(`update automations set published_version = 2 where id = $1`, [auto]);
    const c = await insertContact(file.t.db, file.w.acme);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c); // version 1
    await waitForRun(file.t.db, run, 'succeeded');
    const [{ tags }] = await file.t.db.query<{ tags: string[] }>(`select tags from contacts where id = $1`, [c]);
    expect(tags).toEqual(['v1']);
  });
});
