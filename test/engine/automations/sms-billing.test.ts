// Texts are billed per segment (docs/architecture.md §10.7: SMS is a billable event): a ledger row
// `sms` in the transaction that queues the message, the account's balance moved with it, the key's
// month spend too; no credit → the step fails "Not sent: out of credit" and nothing is queued; test
// runs (to the tester's email) are free. Segment counting follows GSM 03.38 / UCS-2.
import { describe, expect, it } from 'vitest';
import { smsSegments } from '../../../src/domain/sms-segments.js';
import { engineTestFile, enroll, insertAutomation, insertContact, outbox, startEngine, stepRows, waitForRun } from './support.js';

const PER_SEGMENT = 8_000; // the default SWITCHBOARD_SMS_MICROS_PER_SEGMENT

describe('smsSegments', () => {
  it('counts GSM-7 septets: 160 in one segment, 153 per segment once split; extension characters take two', () => {
    expect(smsSegments('')).toEqual({ encoding: 'gsm7', segments: 1 });
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'gsm7', segments: 1 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'gsm7', segments: 2 });
    expect(smsSegments('a'.repeat(306))).toEqual({ encoding: 'gsm7', segments: 2 });
    expect(smsSegments('a'.repeat(307))).toEqual({ encoding: 'gsm7', segments: 3 });
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'gsm7', segments: 1 });
    expect(smsSegments('€'.repeat(81))).toEqual({ encoding: 'gsm7', segments: 2 });
    expect(smsSegments('Ça coûte 5 £ à Zürich')).toEqual({ encoding: 'ucs2', segments: 1 }); // û is not GSM
    expect(smsSegments('Öl für Åse: ÄÖÜ äöü ñ ß é')).toEqual({ encoding: 'gsm7', segments: 1 });
  });

  it('any other character makes the text UCS-2: 70 units in one segment, 67 once split; an emoji takes two units', () => {
    expect(smsSegments('я'.repeat(70))).toEqual({ encoding: 'ucs2', segments: 1 });
    expect(smsSegments('я'.repeat(71))).toEqual({ encoding: 'ucs2', segments: 2 });
    expect(smsSegments('😀'.repeat(35))).toEqual({ encoding: 'ucs2', segments: 1 });
    expect(smsSegments('😀'.repeat(36))).toEqual({ encoding: 'ucs2', segments: 2 });
    expect(smsSegments('a'.repeat(134) + 'я')).toEqual({ encoding: 'ucs2', segments: 3 });
  });
});

const file = engineTestFile();
const { engines } = file;

const ledger = (runId: string) =>
  file.t.db.query<{ feature: string; micros: string | number; effect_key: string }>(
    'select feature, micros, effect_key from billing_ledger where automation_run_id = $1 order by at',
    [runId],
  );
const credit = async (accountId: string) =>
  Number((await file.t.db.query<{ c: string }>('select credit_micros as c from accounts where id = $1', [accountId]))[0].c);

describe('sms.send billing', () => {
  it('bills each text per segment, once, with the balance moved by exactly the ledger', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 's1', type: 'sms.send', config: { body: 'Short one' } },
      { id: 's2', type: 'sms.send', config: { body: 'x'.repeat(200) } },
    ]);
    const c = await insertContact(file.t.db, file.w.acme);
    const before = await credit(file.w.acme);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    await waitForRun(file.t.db, run, 'succeeded');
    const rows = await ledger(run);
    expect(rows.map((r) => [r.feature, Number(r.micros), r.effect_key])).toEqual([
      ['sms', PER_SEGMENT, `${run}:s1`],
      ['sms', 2 * PER_SEGMENT, `${run}:s2`],
    ]);
    expect(before - (await credit(file.w.acme))).toBe(3 * PER_SEGMENT);
    expect((await outbox(file.t.db, run)).map((m) => m.channel)).toEqual(['sms', 'sms']);
  });

  it('a suppressed text is not billed', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [{ id: 's1', type: 'sms.send', config: { body: 'Hi' } }]);
    const c = await insertContact(file.t.db, file.w.acme, { sms_stopped: true });
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    await waitForRun(file.t.db, run, 'succeeded');
    expect((await stepRows(file.t.db, run)).map((s) => s.status)).toEqual(['ok', 'skipped']);
    expect(await ledger(run)).toEqual([]);
  });

  it('out of credit: the step fails "Not sent: out of credit", nothing is queued or billed', async () => {
    const auto = await insertAutomation(file.t.db, file.w.globex, file.w.globexSite, [{ id: 's1', type: 'sms.send', config: { body: 'Hi' } }]);
    const c = await insertContact(file.t.db, file.w.globex);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.globex, auto, c);
    const row = await waitForRun(file.t.db, run, 'failed');
    expect(row.failed_step_id).toBe('s1');
    const steps = await stepRows(file.t.db, run);
    expect(steps.map((s) => [s.step_id, s.status, s.error])).toEqual([
      ['t', 'ok', null],
      ['s1', 'failed', 'Not sent: out of credit'],
    ]);
    expect(await outbox(file.t.db, run)).toEqual([]);
    expect(await ledger(run)).toEqual([]);
    expect(await credit(file.w.globex)).toBe(0);
  });

  it('a test run texts the tester by email, free of charge', async () => {
    const auto = await insertAutomation(file.t.db, file.w.globex, file.w.globexSite, [{ id: 's1', type: 'sms.send', config: { body: 'Hi' } }]);
    const c = await insertContact(file.t.db, file.w.globex);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.globex, auto, c, { test: true, testerEmail: 'gina@globex.test' });
    await waitForRun(file.t.db, run, 'succeeded');
    expect((await outbox(file.t.db, run)).map((m) => m.channel)).toEqual(['email']);
    expect(await ledger(run)).toEqual([]);
  });
});
