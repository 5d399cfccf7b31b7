// Waits and resumes: a wait parks the run (no lease, next_at = run_at) and any engine carries it on
// when due, including a new engine after a restart; a step left `running` by a dead worker runs
// again without a second message; pausing holds waiting runs; erasure or archiving stops a run.
import { describe, expect, it } from 'vitest';
import { releaseHeldRuns } from '../../../src/engine/automations/store.js';
import { claimAutomationRuns } from '../../../src/queue/automation-run-store.js';
import { engineTestFile, enroll, insertAutomation, insertContact, outbox, runRow, sleep, startEngine, stepRows, waitForRun } from './support.js';

const file = engineTestFile();
const { engines } = file;

const TWO_EMAILS = [
  { id: 'e1', type: 'email.send', config: { subject: 'One', body: '1' } },
  { id: 'w1', name: 'Wait a second', type: 'wait', config: { duration: 'PT1S' } },
  { id: 'e2', type: 'email.send', config: { subject: 'Two', body: '2' } },
];

describe('waits', () => {
  it('a wait parks the run as waiting with next_at, then carries on when due', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, TWO_EMAILS);
    const c = await insertContact(file.t.db, file.w.acme);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    const waiting = await waitForRun(file.t.db, run, 'waiting');
    expect(waiting.next_at).not.toBeNull();
    expect(waiting.run_at.getTime()).toBe(waiting.next_at!.getTime());
    expect(waiting.lease_owner).toBeNull();
    const during = await stepRows(file.t.db, run);
    expect(during.map((s) => `${s.step_id}:${s.status}`)).toEqual(['t:ok', 'e1:ok', 'w1:waiting']);
    const done = await waitForRun(file.t.db, run, 'succeeded');
    expect(done.next_at).toBeNull();
    expect((await stepRows(file.t.db, run)).map((s) => `${s.step_id}:${s.status}`)).toEqual(['t:ok', 'e1:ok', 'w1:ok', 'e2:ok']);
    expect((await outbox(file.t.db, run)).map((m) => m.subject)).toEqual(['One', 'Two']);
  });

  it('a wait `until` a time in the past does not wait; one in the future does', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    // Far enough ahead that a loaded machine still reaches the wait before it comes due.
    const soon = new Date(Date.now() + 5_000).toISOString();
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 'w0', type: 'wait', config: { until: past } },
      { id: 'w1', type: 'wait', config: { until: soon } },
      { id: 'g', type: 'tag.add', config: { tag: 'x' } },
    ]);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, await insertContact(file.t.db, file.w.acme));
    const waiting = await waitForRun(file.t.db, run, 'waiting');
    expect(waiting.next_at!.toISOString()).toBe(soon);
    await waitForRun(file.t.db, run, 'succeeded');
  });

  it('a waiting run resumes on a new engine after the first one stopped (a restart)', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, TWO_EMAILS);
    const c = await insertContact(file.t.db, file.w.acme);
    const first = await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    await waitForRun(file.t.db, run, 'waiting');
    await first.stop();
    await sleep(1_200); // the wait comes due while no engine runs
    expect((await runRow(file.t.db, run)).status).toBe('waiting');
    const second = await startEngine(file.t.db, engines);
    await waitForRun(file.t.db, run, 'succeeded');
    expect(second.stats.claimed).toBeGreaterThanOrEqual(1);
    expect((await outbox(file.t.db, run)).map((m) => m.subject)).toEqual(['One', 'Two']);
  });

  it('a step left running by a dead worker (lease expired) runs again and writes exactly one message', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [
      { id: 'e1', type: 'email.send', config: { subject: 'Once', body: '1' } },
      { id: 'g', type: 'tag.add', config: { tag: 'after' } },
    ]);
    const c = await insertContact(file.t.db, file.w.acme);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    // A worker claimed it, recorded the trigger and started e1, then died: no engine is running yet.
    const [claimed] = await claimAutomationRuns(file.t.db, 'dead-worker', 60_000, 1);
    expect(claimed.id).toBe(run);
    await file.t.db.query(
      `insert into automation_run_steps (account_id, run_id, seq, step_id, name, type, status, started_at, finished_at)
       values ($1, $2, 1, 't', 'Enrolled by hand', 'trigger', 'ok', now(), now()),
              ($1, $2, 2, 'e1', 'e1', 'email.send', 'running', now(), null)`,
      [file.w.acme, run],
    );
    await file.t.db.query(`update automation_runs set lease_expires_at = now() - interval '1 second' where id = $1`, [run]);
    await startEngine(file.t.db, engines);
    const done = await waitForRun(file.t.db, run, 'succeeded');
    expect(done.attempt).toBe(2);
    expect((await stepRows(file.t.db, run)).map((s) => `${s.seq}:${s.step_id}:${s.status}`)).toEqual(['1:t:ok', '2:e1:ok', '3:g:ok']);
    expect(await outbox(file.t.db, run)).toHaveLength(1);
  });

  it('a resumed send whose message was already written finds it instead of writing another', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [{ id: 'e1', type: 'email.send', config: { subject: 'Once', body: '1' } }]);
    const c = await insertContact(file.t.db, file.w.acme);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    await claimAutomationRuns(file.t.db, 'dead-worker', 60_000, 1);
    await file.t.db.query(
      `insert into automation_run_steps (account_id, run_id, seq, step_id, name, type, status, started_at)
       values ($1, $2, 1, 't', 't', 'trigger', 'ok', now()), ($1, $2, 2, 'e1', 'e1', 'email.send', 'running', now())`,
      [file.w.acme, run],
    );
    await file.t.db.query(
      `insert into outbox (account_id, id, channel, to_address, subject, body, message_id, automation_run_id, step_id, effect_key)
       values ($1, gen_random_uuid(), 'email', 'x@example.org', 'Once', '1', '<m@x>', $2, 'e1', $3)`,
      [file.w.acme, run, `${run}:e1`],
    );
    await file.t.db.query(`update automation_runs set lease_expires_at = now() - interval '1 second' where id = $1`, [run]);
    await startEngine(file.t.db, engines);
    await waitForRun(file.t.db, run, 'succeeded');
    expect(await outbox(file.t.db, run)).toHaveLength(1);
  });
});

describe('paused automations and contacts that go away', () => {
  it('pausing holds a waiting run past its time; resuming lets it carry on', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, TWO_EMAILS);
    const c = await insertContact(file.t.db, file.w.acme);
    await startEngine(file.t.db, engines);
    const run = await enroll(file.t.db, file.w.acme, auto, c);
    const waiting = await waitForRun(file.t.db, run, 'waiting');
    await file.t.db.query(`update automations set status = 'paused' where id = $1`, [auto]);
    await sleep(Math.max(0, waiting.next_at!.getTime() - Date.now()) + 600);
    const held = await runRow(file.t.db, run);
    expect(held.status).toBe('waiting');
    expect(held.run_at.getTime()).toBeGreaterThan(Date.now()); // looked at, and put back
    expect((await stepRows(file.t.db, run)).map((s) => `${s.step_id}:${s.status}`)).toEqual(['t:ok', 'e1:ok', 'w1:waiting']);
    expect(await outbox(file.t.db, run)).toHaveLength(1);
    await file.t.db.transaction(async (tx) => {
      await tx.query(`update automations set status = 'published' where id = $1`, [auto]);
      expect(await releaseHeldRuns(tx, file.w.acme, auto)).toBe(1);
    });
    await waitForRun(file.t.db, run, 'succeeded');
    expect(await outbox(file.t.db, run)).toHaveLength(2);
  });

  it('a contact erased while the run waits stops the run; archived likewise', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, TWO_EMAILS);
    const erased = await insertContact(file.t.db, file.w.acme);
    const archived = await insertContact(file.t.db, file.w.acme);
    await startEngine(file.t.db, engines);
    const r1 = await enroll(file.t.db, file.w.acme, auto, erased);
    const r2 = await enroll(file.t.db, file.w.acme, auto, archived);
    await waitForRun(file.t.db, r1, 'waiting');
    await waitForRun(file.t.db, r2, 'waiting');
    await file.t.db.query(`update contacts set erased_at = now(), email = null, first_name = null where id = $1`, [erased]);
    await file.t.db.query(`update contacts set archived_at = now() where id = $1`, [archived]);
    const s1 = await waitForRun(file.t.db, r1, 'stopped');
    const s2 = await waitForRun(file.t.db, r2, 'stopped');
    expect(s1.error).toBe('Stopped: contact was erased');
    expect(s2.error).toBe('Stopped: contact was archived');
    expect(s1.finished_at).not.toBeNull();
    const steps = await stepRows(file.t.db, r1);
    expect(steps.map((s) => [s.step_id, s.status, s.error])).toEqual([
      ['t', 'ok', null],
      ['e1', 'ok', null],
      ['w1', 'skipped', 'Stopped: contact was erased'],
    ]);
    expect(await outbox(file.t.db, r1)).toHaveLength(1);
  });

  it('a run stopped from outside while a worker holds it is not written to again', async () => {
    const auto = await insertAutomation(file.t.db, file.w.acme, file.w.site, [{ id: 'g', type: 'tag.add', config: { tag: 'x' } }]);
    const run = await enroll(file.t.db, file.w.acme, auto, await insertContact(file.t.db, file.w.acme));
    await claimAutomationRuns(file.t.db, 'someone', 60_000, 1);
    await file.t.db.query(`update automation_runs set status = 'stopped', error = 'Stopped by an operator', finished_at = now() where id = $1`, [run]);
    await file.t.db.query(`update automation_runs set lease_expires_at = now() - interval '1 second' where id = $1`, [run]);
    await startEngine(file.t.db, engines);
    await sleep(300);
    expect((await runRow(file.t.db, run)).status).toBe('stopped');
    expect(await stepRows(file.t.db, run)).toEqual([]);
  });
});
