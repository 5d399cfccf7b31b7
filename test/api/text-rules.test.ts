// The written rules for what text and email addresses may contain (src/lib/text.ts,
// src/lib/email.ts; README "Text and addresses"), as the API applies them: a single-line field
// (names, titles, tags, phone) takes no control character; a multi-line one (Markdown, HTML) keeps
// tab and line breaks but no other control; an address has nothing invisible or look-alike in it.
// Every refusal is 422 invalid_field naming the field, writes nothing and uses up no key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/cli/operator.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let acme: AccountSeedResult;
let hook: string;
const SCOPES = ['contacts:read', 'contacts:write', 'content:read', 'content:write'] as const;

beforeAll(async () => {
  t = await testApp();
  const s = await seed(t.db, {
    ...account('acme', { tier: 'enterprise', keys: [{ ref: 'main', scopes: [...SCOPES] }], projects: ['site'] }),
    automations: [
      {
        ref: 'form',
        name: 'Form',
        project: 'site',
        status: 'published',
        trigger: { type: 'webhook', label: 'Form posted' },
        steps: [{ id: 'e1', name: 'Hello', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }],
      },
    ],
    contacts: [{ ref: 'ann', email: 'ann@example.org', first_name: 'Ann' }],
  });
  acme = s.acme;
  const out = await runOperatorCommand(t.db, ['automations', 'webhook', acme.automations.form, '--account', acme.id]);
  expect(out.code).toBe(0);
  hook = /\/hooks\/automations\/[A-Za-z0-9_-]+/.exec(out.stdout)![0];
});
afterAll(() => t?.close());

const send = (method: 'POST' | 'PATCH', url: string, body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...bearer(acme.keys.main), 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });
const createContact = (body: unknown, headers: Record<string, string> = {}) => send('POST', '/v1/contacts', body, headers);
const count = async (table: string) =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from ${table} where account_id = $1`, [acme.id]))[0].n;

describe('email addresses: one rule', () => {
  it.each([
    ['fullwidth letters (NFKC would change them)', 'ＡＮＮ@example.org'],
    ['a fullwidth @', 'ann＠example.org'],
    ['a right-to-left override in the local part', 'ann\u202e@example.org'],
    ['a bidi isolate in the domain', 'ann@exa\u2067mple.org'],
    ['a zero-width joiner', 'an\u200dn@example.org'],
    ['a soft hyphen', 'an\u00adn@example.org'],
    ['a C1 control', 'ann\u0085@example.org'],
    ['a decomposed accent (NFKC composes it)', 'zoe\u0301@example.org'],
    ['a comma (two addresses to a mailer)', 'ann,bob@example.org'],
    ['a doubled dot', 'ann..lee@example.org'],
    ['a domain label with an underscore', 'ann@ex_ample.org'],
    ['a domain ending in a dot', 'ann@example.org.'],
    ['a bare IP address', 'ann@192.168.0.1'],
    ['an invalid IDN label', 'ann@xn--zz.example'],
  ])('%s → 422 invalid_field email; nothing written', async (_what, email) => {
    const before = await count('contacts');
    expectError(await createContact({ email }), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await send('PATCH', `/v1/contacts/${acme.contacts.ann}`, { email }), 422, 'invalid_request', 'invalid_field', 'email');
    expect(await count('contacts')).toBe(before);
  });

  it('the message says what is wrong with it', async () => {
    const e = expectError(await createContact({ email: 'ＡＮＮ@example.org' }), 422, 'invalid_request', 'invalid_field', 'email');
    expect(e.message).toMatch(/^The field email is not an email address: .*NFKC/);
  });

  it('a refused address uses up no Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'bad-email-key-0001' };
    expectError(await createContact({ email: 'ＫＥＹ@example.org' }, headers), 422, 'invalid_request', 'invalid_field', 'email');
    const ok = await createContact({ email: 'key@example.org' }, headers);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.headers['idempotent-replay']).toBeUndefined();
  });

  it('an internationalised address is accepted as written, and its domain in Unicode or ASCII (xn--) form is one address', async () => {
    const res = await createContact({ email: 'Zoë@Bücher.example' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().email).toBe('Zoë@Bücher.example');
    const again = await createContact({ email: 'zoë@xn--bcher-kva.example' });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'contact_exists', param: 'email', resource_id: res.json().id });
    const found = await t.app.inject({ method: 'GET', url: `/v1/contacts?email=${encodeURIComponent('ZOË@xn--BCHER-kva.example')}`, headers: bearer(acme.keys.main) });
    expect(found.json().data.map((c: { id: string }) => c.id)).toEqual([res.json().id]);
  });

  it('the webhook trigger applies the same rule', async () => {
    const post = (body: unknown) => t.app.inject({ method: 'POST', url: hook, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const before = await count('contacts');
    expectError(await post({ email: 'ＷＥＢ@example.org' }), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await post({ email: 'web\u202e@example.org' }), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await post({ email: 'web@example.org', first_name: 'We\u0007b' }), 422, 'invalid_request', 'invalid_field', 'first_name');
    expect(await count('contacts')).toBe(before);
    const ok = await post({ email: 'web@bücher.example' });
    expect(ok.statusCode, ok.body).toBe(202);
  });
});

describe('single-line fields: no control character', () => {
  it.each([
    ['first_name', { first_name: 'Ann\nLee' }],
    ['first_name', { first_name: 'Ann\tLee' }],
    ['last_name', { last_name: 'Lee\u001b[31m' }],
    ['last_name', { last_name: 'Lee\u0085' }],
    ['last_name', { last_name: 'Lee\u007f' }],
    ['first_name', { first_name: 'Ann\u2028Lee' }],
    ['tags', { tags: ['ok', 'bad\r'] }],
  ])('contacts: %s %j → 422 invalid_field naming it, on create and update; nothing written', async (param, fields) => {
    const before = await count('contacts');
    const e = expectError(await createContact({ email: 'ctl@example.org', ...fields }), 422, 'invalid_request', 'invalid_field', param);
    expect(e.message).toContain('one line of text');
    expectError(await send('PATCH', `/v1/contacts/${acme.contacts.ann}`, fields), 422, 'invalid_request', 'invalid_field', param);
    expect(await count('contacts')).toBe(before);
    const ann = await t.app.inject({ method: 'GET', url: `/v1/contacts/${acme.contacts.ann}`, headers: bearer(acme.keys.main) });
    expect(ann.json()).toMatchObject({ first_name: 'Ann', last_name: null, tags: [] });
  });

  it('a page title: a control inside it is refused, surrounding blanks (a trailing newline) are still trimmed', async () => {
    const url = `/v1/projects/${acme.projects.site}/items`;
    const before = await count('content_items');
    expectError(await send('POST', url, { title: 'Launch\u0000', markdown: 'x' }), 422, 'invalid_request', 'invalid_field', 'title');
    expectError(await send('POST', url, { title: 'Launch\nnotes', markdown: 'x' }), 422, 'invalid_request', 'invalid_field', 'title');
    expectError(await send('POST', url, { title: 'Launch\u009bnotes', markdown: 'x' }), 422, 'invalid_request', 'invalid_field', 'title');
    expect(await count('content_items')).toBe(before);
    const ok = await send('POST', url, { title: ' Launch notes\n', markdown: 'x' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().title).toBe('Launch notes');
  });

  it('ordinary text, right-to-left names and emoji are single lines', async () => {
    const res = await createContact({ email: 'rtl@example.org', first_name: 'שרה', last_name: 'Zoë 🎉', tags: ['日本'] });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('multi-line fields: tab and line breaks, no other control', () => {
  const url = () => `/v1/projects/${acme.projects.site}/items`;

  it('Markdown and HTML keep tab, LF and CR', async () => {
    const markdown = '# Notes\r\n\n\tcode\n';
    const res = await send('POST', url(), { title: 'Tabs', markdown });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().text).toBe(markdown);
  });

  it.each([
    ['markdown', '# Notes\u0007'],
    ['markdown', 'a\u000bb'],
    ['html', '<p>x\u0090y</p>'],
    ['html', '<p>\u001b</p>'],
  ])('%s with %j → 422 invalid_field naming it; no page written', async (field, value) => {
    const before = await count('content_items');
    const e = expectError(await send('POST', url(), { title: 'Bad', [field]: value }), 422, 'invalid_request', 'invalid_field', field);
    expect(e.message).toContain('other than tab, line feed and carriage return');
    expect(await count('content_items')).toBe(before);
  });
});
