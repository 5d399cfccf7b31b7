// A run keeps the definition it was queued with: an edit saved while it waits for approval, or
// deleting its workflow, changes nothing about what it executes. A deleted workflow cannot be
// started by hand and its schedule no longer fires; its runs stay in the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlockRegistry } from '../../src/engine/blocks/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { tickSchedules } from '../../src/engine/schedules/ticker.js';
import { OPERATOR } from '../../src/services/audit/service.js';
import { Refusal } from '../../src/services/refusal.js';
import { moveRun } from '../../src/services/runs/by-user.js';
import { startManualRun } from '../../src/services/runs/service.js';
import { createWorkflow, deleteWorkflow, replaceWorkflow } from '../../src/services/workflows/manage.js';
import { seedAccounts, steps, testConfig, testEngine, waitForRun } from '../engine/support.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
let engine: Engine;
let accountId: string;

beforeAll(async () => {
  t = await freshDb();
  ({ acme: accountId } = await seedAccounts(t.db, ['acme']));
  engine = testEngine(t.db, { pollMs: 20 }, { blocks: createBlockRegistry(testConfig()) });
  await engine.start();
});
afterAll(async () => {
  await engine?.stop();
  await t?.close();
});

/** source.text → approval → transform.template: a run waits at `ok` until approved. */
const held = (text: string) => ({
  name: 'Held',
  status: 'active',
  blocks: [
    { id: 'src', kind: 'source.text', config: { text } },
    { id: 'ok', kind: 'approval', config: { message: 'Go on?' } },
    { id: 'final', kind: 'transform.template', config: { template: 'Final: {{ok}}' } },
  ],
  edges: [{ from: 'src', to: 'ok' }, { from: 'ok', to: 'final' }],
});

const other = {
  name: 'Other',
  status: 'active',
  blocks: [
    { id: 'intro', kind: 'source.text', config: { text: 'the new text' } },
    { id: 'shout', kind: 'transform.template', config: { template: 'New: {{intro}}' } },
  ],
  edges: [{ from: 'intro', to: 'shout' }],
};

async function startHeld(workflowId: string): Promise<string> {
  const { run } = await startManualRun(t.db, { workflowId, accountId });
  await waitForRun(t.db, run.id, 'awaiting_approval');
  return run.id;
}

const approve = (runId: string) => moveRun(t.db, { accountId, runId, move: 'approve', actor: OPERATOR });

describe('a run in flight keeps its definition', () => {
  it('an edit saved while it awaits approval changes nothing it executes; the next run takes the edit', async () => {
    const w = await createWorkflow(t.db, accountId, held('the old text'), OPERATOR);
    const runId = await startHeld(w.id);
    await replaceWorkflow(t.db, { workflowId: w.id, accountId }, other, OPERATOR);
    await approve(runId);
    await waitForRun(t.db, runId, 'succeeded');
    const done = await steps(t.db, runId);
    expect(done.map((s) => [s.node_id, s.node_kind, s.status])).toEqual([
      ['src', 'source.text', 'succeeded'],
      ['ok', 'approval', 'succeeded'],
      ['final', 'transform.template', 'succeeded'],
    ]);
    expect(done[2].output?.text).toBe('Final: the old text');

    const { run: next } = await startManualRun(t.db, { workflowId: w.id, accountId });
    await waitForRun(t.db, next.id, 'succeeded');
    expect((await steps(t.db, next.id)).map((s) => [s.node_id, s.output?.text])).toEqual([
      ['intro', 'the new text'],
      ['shout', 'New: the new text'],
    ]);
  });

  it('deleting the workflow lets a run in flight finish on its own blocks', async () => {
    const w = await createWorkflow(t.db, accountId, held('kept'), OPERATOR);
    const runId = await startHeld(w.id);
    await deleteWorkflow(t.db, { workflowId: w.id, accountId }, OPERATOR);
    await approve(runId);
    await waitForRun(t.db, runId, 'succeeded');
    expect((await steps(t.db, runId)).map((s) => s.output?.text)).toEqual(['kept', 'kept', 'Final: kept']);
  });
});

describe('a deleted workflow', () => {
  it('cannot be started by hand (runs start, Run now)', async () => {
    const w = await createWorkflow(t.db, accountId, other, OPERATOR);
    await deleteWorkflow(t.db, { workflowId: w.id, accountId }, OPERATOR);
    await expect(startManualRun(t.db, { workflowId: w.id, accountId })).rejects.toThrow(Refusal);
    await expect(startManualRun(t.db, { workflowId: w.id, accountId: null })).rejects.toThrow(`no workflow ${w.id}`);
    await expect(deleteWorkflow(t.db, { workflowId: w.id, accountId }, OPERATOR)).rejects.toMatchObject({ code: 'resource_not_found' });
  });

  it('is not started by its schedule; a live one due at the same time is', async () => {
    await engine.stop();
    const every = { ...other, schedule: '* * * * *' };
    const gone = await createWorkflow(t.db, accountId, { ...every, name: 'Gone' }, OPERATOR);
    const live = await createWorkflow(t.db, accountId, { ...every, name: 'Live' }, OPERATOR);
    await deleteWorkflow(t.db, { workflowId: gone.id, accountId }, OPERATOR);
    // Both due now (the delete cleared one; set it again, as a tick racing the delete might see it).
    await t.db.query(`update workflows set schedule_next_at = now() - interval '1 minute' where id = any($1::uuid[])`, [[gone.id, live.id]]);
    expect(await tickSchedules(t.db, 0)).toBe(1);
    const runs = await t.db.query<{ workflow_id: string }>(`select workflow_id from workflow_runs where workflow_id = any($1::uuid[])`, [[gone.id, live.id]]);
    expect(runs).toEqual([{ workflow_id: live.id }]);
  });
});
