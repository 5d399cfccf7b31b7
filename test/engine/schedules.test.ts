// Scheduled runs: a workflow's cron starts runs with trigger `schedule`, each occurrence exactly
// once even with several tickers, never counted toward the API limits; bad schedules are refused
// when the fixture is loaded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { createEngine } from '../../src/engine/engine.js';
import { nextOccurrence } from '../../src/engine/schedules/cron.js';
import { tickSchedules } from '../../src/engine/schedules/ticker.js';
import { DefinitionError } from '../../src/lib/json-fields.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
let S: Awaited<ReturnType<typeof seedFixture>>['accounts'];
const blocks = [{ id: 'a', kind: 'source.text', config: { text: 'x' } }];

beforeAll(async () => {
  t = await freshDb();
  S = (
    await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'a',
            name: 'a',
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            workflows: [
              { ref: 'hourly', name: 'hourly', status: 'active', blocks, edges: [], schedule: '0 * * * *' },
              { ref: 'paris', name: 'paris', status: 'active', blocks, edges: [], schedule: '30 9 * * 1-5', schedule_timezone: 'Europe/Paris' },
              { ref: 'plain', name: 'plain', status: 'active', blocks, edges: [] },
            ],
          },
        ],
      },
      { erasureSecret: Buffer.from('t') },
    )
  ).accounts;
});
afterAll(() => t?.close());

async function nextAt(id: string): Promise<Date | null> {
  const [r] = await t.db.query<{ schedule_next_at: Date | null }>('select schedule_next_at from workflows where id = $1', [id]);
  return r.schedule_next_at;
}

async function runsOf(id: string): Promise<{ trigger: string; key_id: string | null }[]> {
  return t.db.query('select trigger, key_id from workflow_runs where workflow_id = $1', [id]);
}

describe('workflow schedules', () => {
  it('computes the next occurrence at load, in the schedule time zone', async () => {
    const hourly = await nextAt(S.a.workflows.hourly);
    expect(hourly!.getUTCMinutes()).toBe(0);
    expect(hourly!.getTime()).toBeGreaterThan(Date.now());
    expect(hourly!.getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect(await nextAt(S.a.workflows.plain)).toBeNull();
    // 09:30 in Paris is 08:30 UTC in winter, 07:30 in summer
    const paris = nextOccurrence('30 9 * * 1-5', 'Europe/Paris', new Date('2026-12-01T00:00:00Z'))!;
    expect(paris.toISOString()).toBe('2026-12-01T08:30:00.000Z');
  });

  it('starts one schedule run per due occurrence, even with several tickers at once', async () => {
    await t.db.query(`update workflows set schedule_next_at = now() - interval '1 second' where id = $1`, [S.a.workflows.hourly]);
    const started = await Promise.all([tickSchedules(t.db, 0), tickSchedules(t.db, 0), tickSchedules(t.db, 0)]);
    expect(started.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await runsOf(S.a.workflows.hourly)).toEqual([{ trigger: 'schedule', key_id: null }]);
    expect((await nextAt(S.a.workflows.hourly))!.getTime()).toBeGreaterThan(Date.now());
    expect(await tickSchedules(t.db, 0)).toBe(0);
  });

  it('a schedule missed for days starts one run, not one per missed occurrence', async () => {
    await t.db.query(`update workflows set schedule_next_at = now() - interval '3 days' where id = $1`, [S.a.workflows.paris]);
    expect(await tickSchedules(t.db, 0)).toBe(1);
    expect((await runsOf(S.a.workflows.paris)).length).toBe(1);
    expect((await nextAt(S.a.workflows.paris))!.getTime()).toBeGreaterThan(Date.now());
  });

  it.each(['draft', 'paused'])('a %s workflow does not run on its schedule: the due time moves on, and once active it fires from then', async (status) => {
    const id = S.a.workflows.hourly;
    const before = (await runsOf(id)).length;
    await t.db.query(`update workflows set status = $2, schedule_next_at = now() - interval '2 hours' where id = $1`, [id, status]);
    expect(await tickSchedules(t.db, 0)).toBe(0);
    expect((await runsOf(id)).length).toBe(before);
    expect((await nextAt(id))!.getTime()).toBeGreaterThan(Date.now());
    expect(await tickSchedules(t.db, 0)).toBe(0);
    await t.db.query(`update workflows set status = 'active', schedule_next_at = now() - interval '1 second' where id = $1`, [id]);
    expect(await tickSchedules(t.db, 0)).toBe(1);
    expect((await runsOf(id)).length).toBe(before + 1);
  });

  it('a running engine starts due schedules and runs them to the end', async () => {
    const config = configWith({});
    const engine = createEngine(t.db, configWith({ engine: { ...config.engine, pollMs: 50 } }));
    await engine.start();
    try {
      await t.db.query(`update workflows set schedule_next_at = now() where id = $1`, [S.a.workflows.plain]);
      await t.db.query(`update workflows set schedule = '*/5 * * * *' where id = $1`, [S.a.workflows.plain]);
      const deadline = Date.now() + 10_000;
      let runs: { status: string; trigger: string }[] = [];
      while (Date.now() < deadline) {
        runs = await t.db.query('select status, trigger from workflow_runs where workflow_id = $1', [S.a.workflows.plain]);
        if (runs.length && runs[0].status === 'succeeded') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(runs).toEqual([{ status: 'succeeded', trigger: 'schedule' }]);
    } finally {
      await engine.stop();
    }
  });

  it('refuses a bad cron expression or time zone when the fixture is loaded', async () => {
    for (const [schedule, tz] of [['every day', 'UTC'], ['0 9 * * *', 'Mars/Olympus']]) {
      const bad = { accounts: [{ ref: 'b', name: 'b', workflows: [{ ref: 'w', name: 'w', blocks, edges: [], schedule, schedule_timezone: tz }] }] };
      const err = await seedFixture(t.db, bad, { erasureSecret: Buffer.from('t') }).catch((e) => e);
      expect(err).toBeInstanceOf(DefinitionError);
      expect(err.message).toMatch(/^accounts\[0\]\.workflows\[0\]\.schedule: /);
    }
  });
});
