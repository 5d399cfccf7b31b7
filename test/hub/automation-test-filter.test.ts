// Send test and the Run-only-if filter (issue 25, item 10): a test runs for the contact chosen
// whatever the filter says, and its answer says whether that contact matches the filter of what
// was tested (the draft's, or the version's), so the builder can say a real run would skip them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTOMATION_STARTERS, automationFromStarter } from '../../src/domain/starters.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { makeAccount, type TestAccount } from '../cli/support.js';

let t: TestApp;
let acct: TestAccount;
let member: HubClient;
let projectId: string;
let plain: string;
let inactive: string;
beforeAll(async () => {
  t = await testApp();
  acct = await makeAccount(t.db);
  member = await hubClient(t, { accountId: acct.id, userId: acct.member, email: 'member@test.example' });
  projectId = (await member.post('/hub/api/projects', { name: 'P' })).json().id;
  plain = (await member.post('/hub/api/contacts', { email: 'plain@example.org', first_name: 'Pat' })).json().id;
  inactive = (await member.post('/hub/api/contacts', { email: 'idle@example.org', first_name: 'Ida', tags: ['inactive'] })).json().id;
});
afterAll(() => t?.close());

/** The re-engagement starter: Run only if tags contains "inactive". */
const filtered = async (): Promise<string> => {
  const starter = AUTOMATION_STARTERS.find((s) => s.id === 're-engagement')!;
  const res = await member.post('/hub/api/automations', automationFromStarter(starter, projectId));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().automation.id;
};
const test = (id: string, body: object) => member.post(`/hub/api/automations/${id}/test`, body);
const CONDITION = { field: 'tags', op: 'contains', value: 'inactive' };

describe('the filter in the answer', () => {
  it('a contact the filter does not match: the test runs anyway, and the answer says they would be skipped', async () => {
    const id = await filtered();
    const res = await test(id, { contact_id: plain });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().filter).toEqual({ condition: CONDITION, matches: false, error: null });
    expect(res.json().run).toMatchObject({ test: true });
    // Not a skipped run: the test really runs its steps for them.
    expect(res.json().run.status).not.toBe('skipped');
  });

  it('a contact the filter matches: matches true', async () => {
    const id = await filtered();
    expect((await test(id, { contact_id: inactive })).json().filter).toEqual({ condition: CONDITION, matches: true, error: null });
  });

  it('no filter: null', async () => {
    const id = await filtered();
    expect((await member.put(`/hub/api/automations/${id}/draft`, { run_only_if: null })).statusCode).toBe(200);
    expect((await test(id, { contact_id: plain })).json().filter).toBeNull();
  });

  it("a version's test reads that version's filter, not the draft's", async () => {
    const id = await filtered();
    expect((await member.post(`/hub/api/automations/${id}/publish`)).statusCode).toBe(200);
    const other = { field: 'first_name', op: 'eq', value: 'Pat' };
    expect((await member.put(`/hub/api/automations/${id}/draft`, { run_only_if: other })).statusCode).toBe(200);
    expect((await test(id, { contact_id: plain, version: 1 })).json().filter).toEqual({ condition: CONDITION, matches: false, error: null });
    expect((await test(id, { contact_id: plain })).json().filter).toEqual({ condition: other, matches: true, error: null });
  });
});

describe('security', () => {
  it("another account's contact is 404 and starts nothing", async () => {
    const id = await filtered();
    const other = await makeAccount(t.db);
    const theirs = await hubClient(t, { accountId: other.id, userId: other.owner, email: 'owner@test.example' });
    const contact = (await theirs.post('/hub/api/contacts', { email: 'theirs@example.org' })).json().id;
    expect((await test(id, { contact_id: contact })).statusCode).toBe(404);
    expect(await t.db.query(`select 1 from automation_runs where automation_id = $1`, [id])).toHaveLength(0);
  });

  it('signed out 401; without the CSRF token 403', async () => {
    const id = await filtered();
    expect((await t.app.inject({ method: 'POST', url: `/hub/api/automations/${id}/test`, payload: { contact_id: plain } })).statusCode).toBe(401);
    expect((await member.request({ method: 'POST', url: `/hub/api/automations/${id}/test`, payload: { contact_id: plain }, headers: { 'x-csrf-token': 'x' } })).statusCode).toBe(403);
  });
});
