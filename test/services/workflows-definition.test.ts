// A workflow's definition file (`workflows export`, `workflows create`): a fixture's workflow
// exports in the builder's format (ids for refs), and creating from an export gives back the
// same definition; a definition problem names the path inside the file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixture, type AccountSeedResult } from '../../src/fixtures/load.js';
import { DefinitionError } from '../../src/lib/json-fields.js';
import { OPERATOR } from '../../src/services/audit/service.js';
import { copyWorkflow, createWorkflow, exportWorkflow } from '../../src/services/workflows/manage.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
let A: AccountSeedResult;

beforeAll(async () => {
  t = await freshDb();
  const res = await seedFixture(
    t.db,
    {
      accounts: [
        {
          ref: 'a',
          name: 'A',
          projects: [{ ref: 'site', name: 'Site', items: [{ ref: 'about', kind: 'page', title: 'About', text: 'We make things.' }] }],
          workflows: [
            {
              ref: 'w',
              name: 'From a fixture',
              project: 'site',
              status: 'paused',
              blocks: [
                { id: 'src', kind: 'source.item', config: { item: 'about' } },
                { id: 'ag', kind: 'agent', config: { max_tokens: 50, prompt: 'Summarise {{src}}' } },
                { id: 'out', kind: 'output.project', config: { title: 'Summary' } },
              ],
              edges: [{ from: 'src', to: 'ag' }, { from: 'ag', to: 'out' }],
              schedule: '0 6 * * *',
              schedule_timezone: 'Europe/Berlin',
            },
          ],
        },
      ],
    },
    { erasureSecret: Buffer.from('t') },
  );
  A = res.accounts.a;
});
afterAll(() => t?.close());

describe('export and create', () => {
  it("exports a fixture's workflow with ids, keys in the file's order; creating from it is the identity", async () => {
    const exported = await exportWorkflow(t.db, { workflowId: A.workflows.w, accountId: A.id });
    expect(JSON.stringify(exported)).toBe(
      JSON.stringify({
        name: 'From a fixture',
        description: '',
        project_id: A.projects.site,
        status: 'paused',
        blocks: [
          { id: 'src', kind: 'source.item', config: { item_id: A.items.about } },
          { id: 'ag', kind: 'agent', config: { prompt: 'Summarise {{src}}', max_tokens: 50 } },
          { id: 'out', kind: 'output.project', config: { title: 'Summary' } },
        ],
        edges: [{ from: 'src', to: 'ag' }, { from: 'ag', to: 'out' }],
        schedule: '0 6 * * *',
        schedule_timezone: 'Europe/Berlin',
      }),
    );
    // Through JSON, as the CLI's file goes.
    const made = await createWorkflow(t.db, A.id, JSON.parse(JSON.stringify(exported)), OPERATOR);
    expect(JSON.stringify(await exportWorkflow(t.db, { workflowId: made.id, accountId: null }))).toBe(JSON.stringify(exported));
    const copy = await copyWorkflow(t.db, { workflowId: made.id, accountId: A.id }, OPERATOR);
    expect(await exportWorkflow(t.db, { workflowId: copy.id, accountId: A.id })).toEqual({ ...exported, name: 'Copy of From a fixture', status: 'draft', schedule: null });
  });

  it('refuses a definition naming the path inside it, and saves nothing', async () => {
    const before = await t.db.query('select count(*)::int as n from workflows');
    const err = await createWorkflow(t.db, A.id, { name: 'Bad', blocks: [{ id: 'x', kind: 'agent', config: { prompt: '' } }] }, OPERATOR).catch((e) => e);
    expect(err).toBeInstanceOf(DefinitionError);
    expect(err.message).toBe('blocks[0].config.prompt: block "x" (agent): Write the prompt for this AI block');
    expect(await t.db.query('select count(*)::int as n from workflows')).toEqual(before);
    await expect(exportWorkflow(t.db, { workflowId: A.workflows.w, accountId: '00000000-0000-7000-8000-000000000001' })).rejects.toMatchObject({ code: 'resource_not_found' });
  });
});
