// last_run is kept on the workflow row by a trigger: the most recently created run, with its
// current status, whoever changes it; an older run's changes never take its place; a run never
// moves the workflow's updated_at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueWorkflowRun as insertRun } from '../../src/queue/enqueue.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer } from '../http/fixtures.js';

let t: TestApp;
let S: Awaited<ReturnType<typeof seedFixture>>['accounts'];
beforeAll(async () => {
  t = await testApp();
  S = (
    await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'a',
            name: 'a',
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            keys: [{ ref: 'k', name: 'k', scopes: ['workflows:read'] }],
            workflows: [{ ref: 'wf', name: 'w', blocks: [{ id: 'a', kind: 'source.text', config: { text: 'x' } }], edges: [] }],
          },
        ],
      },
      { erasureSecret: Buffer.from('t') },
    )
  ).accounts;
});
afterAll(() => t?.close());

const workflow = async () =>
  (await t.app.inject({ method: 'GET', url: `/v1/workflows/${S.a.workflows.wf}`, headers: bearer(S.a.keys.k) })).json();
const add = () =>
  t.db.transaction((tx) => insertRun(tx, { accountId: S.a.id, workflowId: S.a.workflows.wf, trigger: 'manual', keyId: null, startDelayMs: 0 }));
const setStatus = (id: string, status: string) => t.db.query('update workflow_runs set status = $2 where id = $1', [id, status]);

describe('last_run on the workflow row', () => {
  it('follows the newest run and its status, and ignores older runs', async () => {
    const before = await workflow();
    expect(before.last_run).toBeNull();
    const older = await add();
    const newer = await add();
    expect((await workflow()).last_run).toEqual({ id: newer.id, status: 'queued', at: newer.created_at.toISOString() });
    await setStatus(older.id, 'failed');
    expect((await workflow()).last_run.id).toBe(newer.id);
    await setStatus(newer.id, 'succeeded');
    const after = await workflow();
    expect(after.last_run).toEqual({ id: newer.id, status: 'succeeded', at: newer.created_at.toISOString() });
    expect(after.updated_at).toBe(before.updated_at);
  });
});
