// `switchboard runs …` and `switchboard worker`: arguments, messages and exit codes. The moves
// themselves (approve, reject, cancel) are exercised against the engine in statuses.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkOperatorArgs, runOperatorCommand } from '../../src/cli/operator.js';
import { main } from '../../src/main.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { insertWorkflow, runRow, seedAccounts } from './support.js';

let t: TestDb;
let acme: string;
let globex: string;
beforeAll(async () => {
  t = await freshDb();
  ({ acme, globex } = await seedAccounts(t.db));
});
afterAll(() => t?.close());

const runs = (...argv: string[]) => runOperatorCommand(t.db, ['runs', ...argv]);
const UNKNOWN = '0190a8a0-0000-7000-8000-000000000000';

describe('runs start', () => {
  it('queues a manual run in the workflow\u2019s account, which never counts as an API start', async () => {
    const wf = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]);
    const r = await runs('start', '--workflow', wf);
    expect(r.code, r.stderr).toBe(0);
    const id = /started run ([0-9a-f-]{36}) /.exec(r.stdout)![1];
    expect(r.stdout).toBe(`started run ${id} of workflow ${wf} (account ${acme}); status queued\n`);
    const row = await t.db.query<{ trigger: string; key_id: string | null; status: string; summary: string }>(
      `select trigger, key_id, status, summary from workflow_runs where id = $1`,
      [id],
    );
    expect(row[0]).toEqual({ trigger: 'manual', key_id: null, status: 'queued', summary: 'Queued' });

    const j = await runs('start', '--workflow', wf, '--account', acme, '--json');
    expect(JSON.parse(j.stdout)).toMatchObject({ workflow_id: wf, account_id: acme, status: 'queued', trigger: 'manual' });
  });

  it('refuses an unknown workflow, one of another account, and one with no blocks (exit 1)', async () => {
    const wf = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]);
    expect(await runs('start', '--workflow', UNKNOWN)).toMatchObject({ code: 1, stderr: `error: no workflow ${UNKNOWN}\n` });
    expect(await runs('start', '--workflow', wf, '--account', globex)).toMatchObject({ code: 1, stderr: `error: no workflow ${wf} in account ${globex}\n` });
    const empty = await insertWorkflow(t.db, acme, []);
    expect((await runs('start', '--workflow', empty)).stderr).toMatch(/has no blocks: add blocks before starting it/);
  });
});

describe('runs show', () => {
  it('prints the run and its steps, as text or JSON', async () => {
    const wf = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]);
    const id = JSON.parse((await runs('start', '--workflow', wf, '--json')).stdout).id as string;
    expect((await runs('show', id)).stdout).toBe(`run ${id} of workflow ${wf}: queued (Queued); billed 0 micros\nno steps yet\n`);
    expect(JSON.parse((await runs('show', id, '--json')).stdout)).toMatchObject({ id, account_id: acme, status: 'queued', steps: [], billed_micros: 0, finished_at: null });
    expect(await runs('show', UNKNOWN)).toMatchObject({ code: 1, stderr: `error: no run ${UNKNOWN}\n` });
    expect((await runs('show', id, '--account', globex)).code).toBe(1);
    await runs('cancel', id);
    expect((await runRow(t.db, id)).status).toBe('cancelled');
  });
});

describe('arguments', () => {
  it('refuses bad arguments with exit code 2 and the usage, before touching the store', () => {
    for (const [argv, msg] of [
      [['runs'], 'runs needs an action'],
      [['runs', 'restart', UNKNOWN], 'unknown runs action "restart"'],
      [['runs', 'approve'], 'the run id is required'],
      [['runs', 'approve', 'abc'], 'the run id must be a UUID, got "abc"'],
      [['runs', 'cancel', UNKNOWN, UNKNOWN], 'unexpected argument'],
      [['runs', 'reject', UNKNOWN, '--account', 'x'], '--account must be a UUID'],
      [['runs', 'start'], '--workflow is required'],
      [['runs', 'start', '--workflow', UNKNOWN, '--now'], 'unknown option --now'],
    ] as const) {
      const r = checkOperatorArgs(argv);
      expect(r?.code, argv.join(' ')).toBe(2);
      expect(r!.stderr).toContain(msg);
      expect(r!.stderr).toContain('switchboard runs start --workflow ID');
    }
    expect(checkOperatorArgs(['runs', 'approve', UNKNOWN])).toBeNull();
  });

  it('approving an unknown run is refused with exit code 1', async () => {
    expect(await runs('approve', UNKNOWN)).toMatchObject({ code: 1, stderr: `error: no run ${UNKNOWN}\n` });
  });
});

describe('switchboard worker', () => {
  it('on the embedded store (no DATABASE_URL, whichever store this suite runs on) says that serve runs the engine itself (exit 1)', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const saved = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      expect(await main(['worker'])).toBe(1);
      expect(String(err.mock.calls[0][0])).toMatch(/a separate worker needs PostgreSQL .* `switchboard serve` \(role all\) runs the engine itself/);
      err.mockClear();
      expect(await main(['worker', '--now'])).toBe(2);
    } finally {
      if (saved !== undefined) process.env.DATABASE_URL = saved;
      err.mockRestore();
    }
  });
});
