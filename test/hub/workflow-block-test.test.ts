// "Test this block" (POST /hub/api/workflows/:id/blocks/:block/test): one saved block run on the
// settings being edited and sample inputs, with no run started and nothing billed by the
// development AI; approval and Save as page leave no mark. Hostile: another account's workflow
// (404), a block that is not saved (422 param block), oversized or too many inputs (422), bad
// settings (422 param config.<field>), signed out (401), no CSRF token (403), and the per-account
// rate (429 block_tests_limited with Retry-After). Members test, like they build.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { BLOCK_TESTS_PER_MINUTE, MAX_TEST_INPUT_CHARS, MAX_TEST_INPUTS } from '../../src/hub/workflows/schemas.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, HUB_ORIGIN, type HubClient } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let S: Record<string, AccountSeedResult>;
let member: HubClient;
let memberB: HubClient;
let owner: HubClient;
let wf: string;

function acct(ref: string): Record<string, unknown> {
  return {
    ref,
    name: `Account ${ref}`,
    credit_micros: 10_000_000,
    users: [
      { ref: 'owner', email: `owner@${ref}.example`, role: 'owner' },
      { ref: 'mem', email: `mem@${ref}.example`, role: 'member' },
    ],
    projects: [{ ref: 'site', name: 'Website', items: [{ ref: 'about', kind: 'page', title: 'About', text: 'We make things.' }] }],
  };
}

beforeAll(async () => {
  t = await testApp();
  S = await seed(t.db, acct('a'), acct('b'));
  member = await hubClient(t, { accountId: S.a.id, userId: S.a.users.mem, email: 'mem@a.example' });
  owner = await hubClient(t, { accountId: S.a.id, userId: S.a.users.owner, email: 'owner@a.example' });
  memberB = await hubClient(t, { accountId: S.b.id, userId: S.b.users.mem, email: 'mem@b.example' });
  const r = await member.post('/hub/api/workflows', {
    name: 'Digest',
    project_id: S.a.projects.site,
    blocks: [
      { id: 'src', kind: 'source.item', config: { item_id: S.a.items.about } },
      { id: 'ask', kind: 'agent', config: { prompt: 'Summarise {{src}} in one line.' } },
      { id: 'tpl', kind: 'transform.template', config: { template: '# Digest\n{{ask}}' } },
      { id: 'ok', kind: 'approval', config: { message: 'Publish it?' } },
      { id: 'out', kind: 'output.project', config: { title: 'Weekly digest' } },
    ],
    edges: [
      { from: 'src', to: 'ask' },
      { from: 'ask', to: 'tpl' },
      { from: 'tpl', to: 'ok' },
      { from: 'ok', to: 'out' },
    ],
  });
  expect(r.statusCode, r.body).toBe(201);
  wf = r.json().id;
});
afterAll(() => t?.close());

const url = (block: string, id = wf) => `/hub/api/workflows/${id}/blocks/${block}/test`;
const counts = async () => {
  const [row] = await t.db.query<{ runs: number; ledger: number; pages: number; credit: string }>(
    `select (select count(*)::int from workflow_runs) as runs, (select count(*)::int from billing_ledger) as ledger,
            (select count(*)::int from content_items where title = 'Weekly digest') as pages,
            (select credit_micros::text from accounts where id = $1) as credit`,
    [S.a.id],
  );
  return row;
};

describe('happy path', () => {
  it('runs the AI block on the sample input with the settings being edited: no run, nothing billed by the development AI', async () => {
    const before = await counts();
    const r = await member.post(url('ask'), { config: { prompt: 'Say hello to {{src}} please' }, inputs: { src: 'the whole team' } });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ status: 'succeeded', error: null, note: null, billed_micros: 0, development_ai: true });
    // The development AI echoes its prompt (its first words cut): the edited prompt and the sample are in it.
    expect(body.output.text).toContain('the whole team');
    expect(await counts()).toEqual(before);
  });

  it('uses the saved settings when none are sent, and renders a template from its inputs', async () => {
    const r = await member.post(url('tpl'), { inputs: { ask: 'A short summary.' } });
    expect(r.json()).toMatchObject({ status: 'succeeded', output: { text: '# Digest\nA short summary.' } });
  });

  it('reads a content item of the account for a source block', async () => {
    expect((await owner.post(url('src'), { inputs: {} })).json().output.text).toContain('We make things.');
  });

  it('an approval does not wait and Save as page saves nothing: each says what a run would do', async () => {
    const before = await counts();
    const ok = (await member.post(url('ok'), { inputs: { tpl: 'Draft text' } })).json();
    expect(ok).toMatchObject({ status: 'succeeded', output: { text: 'Draft text' } });
    expect(ok.note).toContain('waits here for a person');
    const out = (await member.post(url('out'), { inputs: { ok: 'Final text' } })).json();
    expect(out).toMatchObject({ status: 'succeeded', output: { text: 'Final text' } });
    expect(out.note).toContain('saved as the page “Weekly digest”');
    expect(await counts()).toEqual(before);
  });
});

describe('refusals', () => {
  it("another account's workflow is 404, whatever block it names", async () => {
    expectError(await memberB.post(url('ask'), { inputs: {} }), 404, 'not_found', 'resource_not_found');
    expectError(await member.post(url('ask', '00000000-0000-7000-8000-000000000000'), { inputs: {} }), 404, 'not_found', 'resource_not_found');
  });

  it('a block the saved workflow does not have is 422 param block', async () => {
    const e = expectError(await member.post(url('ghost'), { inputs: {} }), 422, 'invalid_request', 'invalid_field', 'block');
    expect(e.message).toContain('no saved block “ghost”');
  });

  it('oversized or too many inputs are refused before anything runs', async () => {
    const half = 'x'.repeat(MAX_TEST_INPUT_CHARS / 2 + 1);
    expectError(await member.post(url('tpl'), { inputs: { a: half, b: half } }), 422, 'invalid_request', 'invalid_field', 'inputs');
    const many = Object.fromEntries(Array.from({ length: MAX_TEST_INPUTS + 1 }, (_, i) => [`b${i}`, 'x']));
    expectError(await member.post(url('tpl'), { inputs: many }), 422, 'invalid_request', 'invalid_field', 'inputs');
    expectError(await member.post(url('tpl'), { inputs: { a: 42 } }), 422, 'invalid_request', 'invalid_field', 'inputs.a');
    expectError(await member.post(url('tpl'), {}), 400, 'invalid_request', 'missing_field', 'inputs');
  });

  it('settings the block cannot take are 422 at the field, in the builder\'s words', async () => {
    const e = expectError(await member.post(url('ask'), { config: { prompt: '  ' }, inputs: {} }), 422, 'invalid_request', 'invalid_field', 'config.prompt');
    expect(e.message).toBe('Write the prompt for this AI block');
    expectError(await member.post(url('ask'), { config: { prompt: 'x', colour: 'red' }, inputs: {} }), 422, 'invalid_request', 'invalid_field', 'config.colour');
  });

  it('signed out is 401, a missing CSRF token 403', async () => {
    expectError(await t.app.inject({ method: 'POST', url: url('ask'), payload: { inputs: {} } }), 401, 'authentication', 'not_signed_in');
    expectError(await member.request({ method: 'POST', url: url('ask'), payload: { inputs: {} }, headers: { 'x-csrf-token': '', origin: HUB_ORIGIN } }), 403, 'permission', 'csrf_failed');
  });

  it(`holds an account to ${BLOCK_TESTS_PER_MINUTE} tests a minute (429 with Retry-After); another account is not held back`, async () => {
    let last = await member.post(url('tpl'), { inputs: { ask: 'x' } });
    // Twice the limit and one: a minute's window that restarts midway still ends in a refusal.
    for (let i = 0; i < 2 * BLOCK_TESTS_PER_MINUTE + 1 && last.statusCode === 200; i++) last = await member.post(url('tpl'), { inputs: { ask: 'x' } });
    expectError(last, 429, 'rate_limit', 'block_tests_limited');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    // Account b's own workflow still tests.
    const b = await memberB.post('/hub/api/workflows', { name: 'B', blocks: [{ id: 't', kind: 'source.text', config: { text: 'hi' } }] });
    expect((await memberB.post(url('t', b.json().id), { inputs: {} })).json()).toMatchObject({ status: 'succeeded', output: { text: 'hi' } });
  });
});
