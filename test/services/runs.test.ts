// src/services/runs: a run started by hand (CLI, the hub's "Run now", a chat) names its trigger and
// who started it, and is refused for an unknown or empty workflow before anything is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixture } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { Refusal } from '../../src/services/refusal.js';
import { startManualRun } from '../../src/services/runs/service.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
let A: Awaited<ReturnType<typeof seedFixture>>['accounts']['a'];
let otherAccount: string;

beforeAll(async () => {
  t = await freshDb();
  const seeded = (
    await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'a',
            name: 'a',
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            workflows: [
              { ref: 'wf', name: 'w', blocks: [{ id: 'src', kind: 'source.text', config: { text: 'x' } }], edges: [] },
              { ref: 'empty', name: 'e', blocks: [], edges: [] },
            ],
          },
          { ref: 'b', name: 'b', users: [{ ref: 'o', email: 'o@b.example', role: 'owner' }] },
        ],
      },
      { erasureSecret: Buffer.from('t') },
    )
  ).accounts;
  A = seeded.a;
  otherAccount = seeded.b.id;
});
afterAll(() => t?.close());

const runRow = async (id: string) =>
  (await t.db.query<{ trigger: string; started_by_user: string | null; key_id: string | null; status: string }>(
    'select trigger, started_by_user, key_id, status from workflow_runs where id = $1',
    [id],
  ))[0];

describe('starting a run by hand', () => {
  it('is manual by default, with no key', async () => {
    const r = await startManualRun(t.db, { workflowId: A.workflows.wf, accountId: null });
    expect(r.accountId).toBe(A.id);
    expect(await runRow(r.run.id)).toEqual({ trigger: 'manual', started_by_user: null, key_id: null, status: 'queued' });
  });

  it('records a chat start and the person who started it', async () => {
    const r = await startManualRun(t.db, { workflowId: A.workflows.wf, accountId: A.id, trigger: 'chat', startedByUser: A.users.o });
    expect(await runRow(r.run.id)).toMatchObject({ trigger: 'chat', started_by_user: A.users.o });
  });

  it('refuses an unknown workflow, another account\'s workflow, and an empty workflow, writing nothing', async () => {
    const before = (await t.db.query<{ n: number }>('select count(*)::int as n from workflow_runs'))[0].n;
    await expect(startManualRun(t.db, { workflowId: uuidv7(), accountId: null })).rejects.toThrow(Refusal);
    await expect(startManualRun(t.db, { workflowId: A.workflows.wf, accountId: otherAccount })).rejects.toThrow(/no workflow/);
    await expect(startManualRun(t.db, { workflowId: A.workflows.empty, accountId: A.id })).rejects.toThrow(/has no blocks/);
    expect((await t.db.query<{ n: number }>('select count(*)::int as n from workflow_runs'))[0].n).toBe(before);
  });
});
