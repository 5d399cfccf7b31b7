// Templates the engine renders (issue 23: a subject such as `Hi {{first_name` was accepted at create
// and publish, and every run reaching the step then failed in a hot loop). Every field the engine
// renders with Mustache is checked wherever an automation can become runnable: a draft save lists
// it as a problem on its field, and publishing, creating it published, a test run of the draft, a
// fixture and the CLI's publish refuse it with the field's path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/cli/operator.js';
import type { StepType } from '../../src/domain/automation.js';
import { STEP_SCHEMAS } from '../../src/domain/step-schemas.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { DefinitionError, validateFixture } from '../../src/fixtures/validate.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { account, expectError, seed } from '../http/fixtures.js';
import { memoryContext } from '../cli/support.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let member: HubClient;

beforeAll(async () => {
  t = await testApp();
  const acme = account('acme', { tier: 'enterprise' });
  s = await seed(t.db, {
    ...acme,
    users: [...(acme.users as object[]), { ref: 'adam', email: 'adam@acme.example', role: 'member', name: 'Adam' }],
    projects: [{ ref: 'p', name: 'Newsletter', settings: { sms_consent_required: false } }],
    contacts: [{ ref: 'ann', email: 'ann@example.org', first_name: 'Ann' }],
  });
  member = await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.adam, email: 'adam@acme.example' });
});
afterAll(() => t?.close());

/** Each field the engine renders: step type, the field, the other settings the step needs. */
const RENDERED: ReadonlyArray<[StepType, string, Record<string, unknown>]> = [
  ['email.send', 'subject', { body: '<p>x</p>' }],
  ['email.send', 'body', { subject: 'Hi' }],
  ['sms.send', 'body', {}],
  ['notify.team', 'subject', {}],
  ['notify.team', 'body', {}],
  ['task.create', 'title', {}],
  ['task.create', 'description', {}],
  ['field.set', 'value', { field: 'first_name' }],
  ['ai.write', 'prompt', {}],
];

const BROKEN: ReadonlyArray<[string, string, RegExp]> = [
  ['an unclosed tag', 'Hi {{first_name', /has a "\{\{" that is never closed with "\}\}"/],
  ['an unclosed section', '{{#tags}}x', /opens a section \{\{#tags\}\} that is never closed/],
  ['a section never opened', 'x{{/tags}}', /closes a section \{\{\/tags\}\} that was never opened/],
  ['bad delimiters', '{{=a=}}', /changes the \{\{ \}\} delimiters/],
];

const definition = (type: string, config: Record<string, unknown>, status = 'draft') => ({
  project_id: s.acme.projects.p,
  name: `T ${type}`,
  status,
  trigger: { type: 'manual', label: 'By hand', config: {} },
  run_only_if: null,
  reenroll: 'always',
  steps: [{ id: 'a', name: 'A', type, config }],
});

describe('a template the engine cannot render', () => {
  it.each(RENDERED)('%s config.%s: a draft saves and lists it; publish and a test run refuse it with the path', async (type, field, rest) => {
    for (const [, template, words] of BROKEN) {
      const created = await member.post('/hub/api/automations', definition(type, { ...rest, [field]: template }));
      expect(created.statusCode, created.body).toBe(201);
      const { automation, problems } = created.json();
      expect(problems).toEqual([{ path: `steps[0].config.${field}`, message: expect.stringMatching(words) }]);
      // In the builder's words, under the field's own label ("Subject cannot be read: …").
      const label = STEP_SCHEMAS[type].fields.find((f) => f.name === field)!.label;
      expect(problems[0].message.startsWith(`${label} cannot be read: `)).toBe(true);
      const pub = expectError(await member.post(`/hub/api/automations/${automation.id}/publish`), 422, 'invalid_request', 'automation_not_publishable', `steps[0].config.${field}`);
      expect(pub.message).toMatch(words);
      const test = await member.post(`/hub/api/automations/${automation.id}/test`, { contact_id: s.acme.contacts.ann });
      expectError(test, 422, 'invalid_request', 'automation_not_publishable', `steps[0].config.${field}`);
      // Corrected in a draft save, it publishes.
      const fixed = await member.put(`/hub/api/automations/${automation.id}/draft`, { steps: [{ id: 'a', name: 'A', type, config: { ...rest, [field]: 'Hello {{first_name}}' } }] });
      expect(fixed.statusCode, fixed.body).toBe(200);
      expect(fixed.json().problems).toEqual([]);
      expect((await member.post(`/hub/api/automations/${automation.id}/publish`)).statusCode).toBe(200);
    }
  });

  it('creating it published is refused and creates nothing', async () => {
    const before = await t.db.query('select count(*)::int as n from automations');
    expectError(await member.post('/hub/api/automations', definition('email.send', { subject: 'Hi {{first_name', body: 'x' }, 'published')), 422, 'invalid_request', 'automation_not_publishable', 'steps[0].config.subject');
    expect(await t.db.query('select count(*)::int as n from automations')).toEqual(before);
  });

  it('a fixture refuses a published or paused automation with one, naming the JSON path; a draft may keep it', () => {
    const fixture = (status: string) => ({
      accounts: [
        {
          ref: 'a',
          name: 'A',
          users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
          projects: [{ ref: 'p', name: 'P' }],
          automations: [
            { ref: 'ok', name: 'Fine', project: 'p', status: 'published', trigger: { type: 'manual' }, steps: [{ id: 'e', name: 'E', type: 'end' }] },
            { ref: 'm', name: 'M', project: 'p', status, trigger: { type: 'manual' }, steps: [{ id: 'e', name: 'E', type: 'email.send', config: { subject: 'Hi {{first_name', body: 'x' } }] },
          ],
        },
      ],
    });
    for (const status of ['published', 'paused']) {
      let err: unknown;
      try {
        validateFixture(fixture(status));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DefinitionError);
      expect((err as DefinitionError).path).toBe('accounts[0].automations[1].steps[0].config.subject');
      expect((err as DefinitionError).detail).toMatch(/never closed.*\(a \w+ automation is run as written\)$/);
    }
    expect(() => validateFixture(fixture('draft'))).not.toThrow();
  });

  it('the CLI: automations publish refuses it with the path, and publishes once it is fixed', async () => {
    const created = await member.post('/hub/api/automations', definition('sms.send', { body: 'Hi {{#tags}}' }));
    const id = created.json().automation.id;
    const r = await runOperatorCommand(t.db, ['automations', 'publish', id], memoryContext({}));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/steps\[0\]\.config\.body: Text cannot be read: opens a section \{\{#tags\}\} that is never closed/);
    const fix = await runOperatorCommand(t.db, ['automations', 'edit', id, 'edit.json'], memoryContext({ 'edit.json': JSON.stringify({ steps: [{ id: 'a', name: 'A', type: 'sms.send', config: { body: 'Hi' } }] }) }));
    expect(fix.code, fix.stderr).toBe(0);
    expect((await runOperatorCommand(t.db, ['automations', 'publish', id], memoryContext({}))).code).toBe(0);
  });

  it('a step name stands in for a missing subject or title as written, never as a template', async () => {
    for (const type of ['notify.team', 'task.create']) {
      const created = await member.post('/hub/api/automations', { ...definition(type, {}, 'published'), steps: [{ id: 'a', name: 'Call {{first_name', type, config: {} }] });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().problems).toEqual([]);
    }
  });
});
