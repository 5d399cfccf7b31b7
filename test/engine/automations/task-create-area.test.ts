// task.create and work management opened in the hub (issue 27): a project that never opened the
// area keeps skipping the step; once an owner opens it, the step creates a real item through the
// same insert as the hub's items (the project's next number, after the hub's own and after a
// deleted one), recorded in the step's output and read by /v1's reads like any other item.
import { describe, expect, it } from 'vitest';
import { OPERATOR } from '../../../src/services/audit/service.js';
import { openWorkArea } from '../../../src/services/workmgmt/area.js';
import { createWorkItem, deleteWorkItem } from '../../../src/services/workmgmt/items.js';
import { getWmItem } from '../../../src/services/workmgmt/read-store.js';
import { engineTestFile, enroll, insertAutomation, insertContact, startEngine, stepRows, waitForRun } from './support.js';

const file = engineTestFile();
const { engines } = file;

async function runTask(projectId: string, email: string): Promise<{ status: string; error: string | null; output: Record<string, unknown> | null }> {
  const auto = await insertAutomation(file.t.db, file.w.acme, projectId, [
    { id: 'k1', type: 'task.create', config: { title: 'Call {{first_name}}', description: 'Lead from {{email}}' } },
  ]);
  const c = await insertContact(file.t.db, file.w.acme, { first_name: 'Lena', email });
  if (engines.length === 0) await startEngine(file.t.db, engines);
  const run = await enroll(file.t.db, file.w.acme, auto, c);
  await waitForRun(file.t.db, run, 'succeeded');
  const k1 = (await stepRows(file.t.db, run)).find((s) => s.step_id === 'k1')!;
  return { status: k1.status, error: k1.error, output: k1.output };
}

describe('task.create in a project that opens work management in the hub', () => {
  it('skips while the project has not opened the area, and writes nothing', async () => {
    expect(await runTask(file.w.plain, 'lena@example.org')).toEqual({ status: 'skipped', error: 'Skipped: project has no work management', output: null });
    const rows = await file.t.db.query('select 1 from wm_items where account_id = $1 and project_id = $2', [file.w.acme, file.w.plain]);
    expect(rows).toEqual([]);
  });

  it('once opened, creates a real item with the next number, after the hub\'s items and a deleted one', async () => {
    const { acme, plain } = file.w;
    await openWorkArea(file.t.db, acme, plain, 'OPS', OPERATOR);
    expect(await createWorkItem(file.t.db, acme, plain, { type: 'story', title: 'From the hub' })).toBe('OPS-1');
    expect(await createWorkItem(file.t.db, acme, plain, { type: 'bug', title: 'Deleted soon' })).toBe('OPS-2');
    await deleteWorkItem(file.t.db, acme, plain, 'OPS-2', OPERATOR);
    expect(await runTask(plain, 'lena2@example.org')).toEqual({ status: 'ok', error: null, output: { key: 'OPS-3' } });
    const item = await getWmItem(file.t.db, acme, plain, 3);
    expect(item).toMatchObject({ type: 'task', title: 'Call Lena', description: 'Lead from lena2@example.org', status: 'todo', assignee: null, labels: [] });
  });
});
