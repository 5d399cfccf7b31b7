// The builders' starters (src/domain/starters.ts): every one is a definition the server's own
// validator accepts and the hub's create route makes as a draft in the project picked: never
// published or active, no schedule, nothing run. An automation starter has no problem that would
// block publishing, so a person only reviews and publishes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTOMATION_STARTERS, automationFromStarter, WORKFLOW_STARTERS, workflowFromStarter } from '../../src/domain/starters.js';
import { publishProblems } from '../../src/services/automations/publish-rules.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { makeAccount, type TestAccount } from '../cli/support.js';

let t: TestApp;
let a: TestAccount;
let member: HubClient;
let projectId: string;
beforeAll(async () => {
  t = await testApp();
  a = await makeAccount(t.db);
  member = await hubClient(t, { accountId: a.id, userId: a.member, email: 'member@test.example' });
  projectId = (await member.post('/hub/api/projects', { name: 'Starters' })).json().id;
});
afterAll(() => t?.close());

describe('the catalogue', () => {
  it('has at least five starters per builder, each with a unique id, a title and a summary', () => {
    for (const list of [WORKFLOW_STARTERS, AUTOMATION_STARTERS]) {
      expect(list.length).toBeGreaterThanOrEqual(5);
      expect(new Set(list.map((s) => s.id)).size).toBe(list.length);
      for (const s of list) expect(s.title.length * s.summary.length).toBeGreaterThan(0);
    }
  });
});

describe('workflow starters', () => {
  it.each(WORKFLOW_STARTERS.map((s) => [s.id, s] as const))('%s creates a draft with no schedule through POST /hub/api/workflows', async (_, s) => {
    const res = await member.post('/hub/api/workflows', workflowFromStarter(s, projectId));
    expect(res.statusCode, res.body).toBe(201);
    const { id, definition } = res.json();
    expect(definition).toMatchObject({ status: 'draft', schedule: null, project_id: projectId, name: s.definition.name });
    expect(definition.blocks).toEqual(s.definition.blocks);
    expect(definition.edges).toEqual(s.definition.edges);
    expect(await t.db.query(`select 1 from workflow_runs where workflow_id = $1`, [id])).toHaveLength(0);
  });
});

describe('automation starters', () => {
  it.each(AUTOMATION_STARTERS.map((s) => [s.id, s] as const))('%s passes the publish rules and creates a draft through POST /hub/api/automations', async (_, s) => {
    expect(publishProblems(s.definition)).toEqual([]);
    const res = await member.post('/hub/api/automations', automationFromStarter(s, projectId));
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.problems).toEqual([]);
    expect(body.published).toBeNull();
    expect(body.automation).toMatchObject({ status: 'draft', published_version: 0 });
    expect(body.draft).toMatchObject({ project_id: projectId, name: s.definition.name, trigger: s.definition.trigger, reenroll: s.definition.reenroll });
    expect(body.draft.steps).toEqual(s.definition.steps);
    expect(await t.db.query(`select 1 from automation_runs where automation_id = $1`, [body.automation.id])).toHaveLength(0);
  });
});

describe('security', () => {
  it("a starter in another account's project is refused and nothing is made", async () => {
    const other = await makeAccount(t.db);
    const theirs = await hubClient(t, { accountId: other.id, userId: other.owner, email: 'owner@test.example' });
    const theirProject = (await theirs.post('/hub/api/projects', { name: 'Theirs' })).json().id;
    const wf = await member.post('/hub/api/workflows', workflowFromStarter(WORKFLOW_STARTERS[0], theirProject));
    const auto = await member.post('/hub/api/automations', automationFromStarter(AUTOMATION_STARTERS[0], theirProject));
    for (const res of [wf, auto]) expect([404, 422]).toContain(res.statusCode);
    expect(await t.db.query(`select 1 from workflows where project_id = $1 union all select 1 from automations where project_id = $1`, [theirProject])).toHaveLength(0);
  });
});
