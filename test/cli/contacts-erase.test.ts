// `switchboard contacts erase ID --account ACCOUNT_ID`: the person's data is gone (contact fields,
// their messages, stored API answers that carried them), only an HMAC of the address is kept so
// the API refuses it afterwards, their running and waiting runs stop; erasing twice is fine; the
// refusals (exit 1) and usage errors (exit 2); the same answer through the admin socket.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAdminRequest } from '../../src/admin/client.js';
import { socketPath } from '../../src/admin/protocol.js';
import { startAdminServer, type AdminServer } from '../../src/admin/server.js';
import { checkOperatorArgs, filesContext, runOperatorCommand } from '../../src/cli/operator.js';
import { ERASURE_SECRET } from '../../src/secrets/one-way.js';
import { seedFixture, type AccountSeedResult } from '../../src/fixtures/load.js';
import { erasedEmailHmac } from '../../src/secrets/one-way.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { loadSecrets } from '../../src/secrets/store.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError } from '../http/fixtures.js';
import { memoryContext } from './support.js';

const REASON = 'Contact erased at their request';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
let c: Record<string, string>;
let secret: Buffer;
let runs: Record<'running' | 'waiting' | 'done' | 'cys', string>;
let msgs: Record<'ofRun' | 'toEmail' | 'toPhone' | 'team' | 'cys' | 'otherAccount', string>;

const erase = (id: string, accountId = acme.id) => runOperatorCommand(t.db, ['contacts', 'erase', id, '--account', accountId], memoryContext({}));
const api = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url,
    headers: { ...bearer(acme.keys.main), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const contactRow = async (id: string) => (await t.db.query<Record<string, unknown>>('select * from contacts where id = $1', [id]))[0];
const runRow = async (id: string) =>
  (await t.db.query<Record<string, unknown>>('select status, error, finished_at, next_at from automation_runs where id = $1', [id]))[0];
const outboxIds = async () => (await t.db.query<{ id: string }>('select id from outbox order by id')).map((r) => r.id);

async function insertRun(accountId: string, automationId: string, contactId: string, status: string): Promise<string> {
  const id = uuidv7();
  await t.db.query(
    `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, version, next_at, finished_at)
     values ($1, $2, $3, $4, $5, 'By hand', 1, case when $5 = 'waiting' then now() + interval '1 day' end,
             case when $5 = 'succeeded' then now() end)`,
    [accountId, id, automationId, contactId, status],
  );
  return id;
}

async function insertMessage(accountId: string, channel: string, to: string, runId: string | null): Promise<string> {
  const id = uuidv7();
  await t.db.query(
    `insert into outbox (account_id, id, channel, status, to_address, subject, body, message_id, automation_run_id)
     values ($1, $2, $3, 'sent', $4, 'Hi', 'Hello Ann', $5, $6)`,
    [accountId, id, channel, to, `<${id}@test>`, runId],
  );
  return id;
}

beforeAll(async () => {
  t = await testApp();
  [{ secret }] = await loadSecrets(t.db, ERASURE_SECRET);
  const base = account('acme', {
    projects: ['p'],
    keys: [{ ref: 'main', scopes: ['contacts:read', 'contacts:write', 'automations:read'] }],
  });
  s = (
    await seedFixture(
      t.db,
      {
        accounts: [
          {
            ...base,
            users: [...(base.users as object[]), { ref: 'adam', email: 'adam@acme.example', role: 'member' }],
            // Two automations: a contact has at most one active run in each.
            automations: ['flow', 'flow2'].map((ref) => ({
              ref, name: ref, project: 'p', status: 'published', trigger: { type: 'manual', label: 'By hand' }, steps: [{ id: 'e1', name: 'Mail', type: 'email.send', config: {} }],
            })),
            contacts: [
              { ref: 'ann', email: 'Ann@Example.org', first_name: 'Ann', last_name: 'Lee', phone: '+1 (555) 0100', lifecycle_stage: 'lead', sms_consent: 'granted', tags: ['vip'], assignee: 'adam', email_opt_out: true },
              { ref: 'cy', email: 'cy@example.org', first_name: 'Cy' },
              { ref: 'old', email: 'old@example.org', first_name: 'Old', archived: true },
              { ref: 'twice', email: 'twice@example.org' },
              { ref: 'socket', email: 'socket@example.org' },
            ],
          },
          { ...account('other'), contacts: [{ ref: 'theirs', email: 'theirs@example.org' }] },
        ],
      },
      { erasureSecret: secret },
    )
  ).accounts;
  acme = s.acme;
  c = acme.contacts;
  const { flow, flow2 } = acme.automations;
  runs = {
    running: await insertRun(acme.id, flow, c.ann, 'running'),
    waiting: await insertRun(acme.id, flow2, c.ann, 'waiting'),
    done: await insertRun(acme.id, flow, c.ann, 'succeeded'),
    cys: await insertRun(acme.id, flow, c.cy, 'running'),
  };
  await t.db.query(
    `insert into automation_run_steps (account_id, run_id, seq, step_id, name, type, status, started_at) values ($1, $2, 1, 'e1', 'Mail', 'email.send', 'running', now())`,
    [acme.id, runs.running],
  );
  msgs = {
    ofRun: await insertMessage(acme.id, 'email', 'someone-else@example.org', runs.done),
    toEmail: await insertMessage(acme.id, 'email', ' ANN@example.ORG', null),
    toPhone: await insertMessage(acme.id, 'sms', '+15550100', null),
    team: await insertMessage(acme.id, 'team', 'adam@acme.example', runs.running),
    cys: await insertMessage(acme.id, 'email', 'cy@example.org', runs.cys),
    otherAccount: await insertMessage(s.other.id, 'email', 'ann@example.org', null),
  };
});
afterAll(() => t?.close());

describe('contacts erase', () => {
  it('clears the person, keeps only the HMAC, stops their active runs and deletes their messages, in one go', async () => {
    const r = await erase(c.ann);
    expect(r).toEqual({
      code: 0,
      stdout: `contact ${c.ann} erased: personal data cleared, address kept only as an HMAC; 2 automation runs stopped, 4 messages deleted\n`,
      stderr: '',
    });
    expect(await contactRow(c.ann)).toMatchObject({
      email: null, email_normalized: null, first_name: null, last_name: null, phone: null, lifecycle_stage: null, tags: [], assignee: null,
      email_opt_out: false, sms_consent: 'none', erased_at: expect.any(Date),
    });
    expect(await t.db.query('select email_hmac from erased_emails where account_id = $1', [acme.id])).toEqual([
      { email_hmac: erasedEmailHmac(secret, 'ann@example.org') },
    ]);
    for (const id of [runs.running, runs.waiting]) {
      expect(await runRow(id)).toEqual({ status: 'stopped', error: REASON, finished_at: expect.any(Date), next_at: null });
    }
    expect(await runRow(runs.done)).toMatchObject({ status: 'succeeded', error: null });
    expect(await runRow(runs.cys)).toMatchObject({ status: 'running' });
    expect(await t.db.query('select status, error from automation_run_steps where run_id = $1', [runs.running])).toEqual([{ status: 'skipped', error: REASON }]);
    expect(await outboxIds()).toEqual([msgs.cys, msgs.otherAccount].sort());
  });

  it('the API no longer finds them, refuses their address everywhere, and runs still name them as erased', async () => {
    expectError(await api('GET', `/v1/contacts/${c.ann}`), 404, 'not_found', 'resource_not_found');
    expect((await api('GET', '/v1/contacts?q=ann')).json().data).toEqual([]);
    expectError(await api('PATCH', `/v1/contacts/${c.ann}`, { first_name: 'Ann' }), 404, 'not_found', 'resource_not_found');
    expectError(await api('POST', '/v1/contacts', { email: ' ann@EXAMPLE.org' }), 409, 'conflict', 'contact_do_not_contact', 'email');
    expectError(await api('PATCH', `/v1/contacts/${c.cy}`, { email: 'Ann@example.org' }), 409, 'conflict', 'contact_do_not_contact', 'email');
    const run = (await api('GET', `/v1/automation-runs/${runs.running}`)).json();
    expect(run).toMatchObject({ contact: { id: c.ann, name: 'Erased contact' }, status: 'stopped', error: REASON });
  });

  it('erasing again is fine and says so; nothing changes', async () => {
    const first = await erase(c.twice);
    expect(first.code).toBe(0);
    const before = await contactRow(c.twice);
    const again = await erase(c.twice);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `contact ${c.twice} was already erased (at ${(before.erased_at as Date).toISOString()}); nothing left to erase (0 automation runs stopped, 0 messages deleted)\n`,
    );
    expect(await contactRow(c.twice)).toEqual(before);
  });

  it('an archived contact can be erased too', async () => {
    expect((await erase(c.old)).code).toBe(0);
    expect(await contactRow(c.old)).toMatchObject({ email: null, first_name: null, erased_at: expect.any(Date), archived_at: expect.any(Date) });
    expect((await api('POST', '/v1/contacts', { email: 'old@example.org' })).statusCode).toBe(409);
  });

  it("a stored answer of an idempotent create carried the person: it is dropped, and replaying that key is refused", async () => {
    const key = { 'idempotency-key': `erase-${uuidv7()}` };
    const created = await api('POST', '/v1/contacts', { email: 'ida@example.org', first_name: 'Ida' }, key);
    expect(created.statusCode, created.body).toBe(201);
    expect((await erase(created.json().id)).code).toBe(0);
    expect(await t.db.query(`select 1 from idempotency_keys where response_body::text like '%ida@example.org%'`)).toEqual([]);
    expectError(await api('POST', '/v1/contacts', { email: 'ida@example.org', first_name: 'Ida' }, key), 409, 'conflict', 'contact_do_not_contact', 'email');
  });

  it('an unknown contact, or one of another account → exit 1 with a clear message, nothing written', async () => {
    const unknown = uuidv7();
    expect(await erase(unknown)).toEqual({ code: 1, stdout: '', stderr: `error: no contact ${unknown} in account ${acme.id}\n` });
    const theirs = s.other.contacts.theirs;
    expect(await erase(theirs)).toEqual({ code: 1, stdout: '', stderr: `error: no contact ${theirs} in account ${acme.id}\n` });
    expect(await contactRow(theirs)).toMatchObject({ email: 'theirs@example.org', erased_at: null });
  });

  it.each([
    [['contacts'], /contacts needs an action: erase/],
    [['contacts', 'forget', uuidv7(), '--account', uuidv7()], /unknown contacts action "forget"/],
    [['contacts', 'erase', '--account', uuidv7()], /the contact id is required/],
    [['contacts', 'erase', 'ann', '--account', uuidv7()], /the contact id must be a UUID, got "ann"/],
    [['contacts', 'erase', uuidv7()], /--account is required/],
    [['contacts', 'erase', uuidv7(), '--account', 'acme'], /--account must be a UUID/],
    [['contacts', 'erase', uuidv7(), '--account', uuidv7(), '--force'], /unknown option --force/],
  ])('%j → usage error, exit 2 (also before any store is opened)', async (argv, message) => {
    const r = await runOperatorCommand(t.db, argv, memoryContext({}));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('switchboard contacts erase CONTACT_ID --account ACCOUNT_ID');
    expect(checkOperatorArgs(argv)).toEqual(r);
  });

  it('through the admin socket (serve on the embedded store) it answers exactly as run directly', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-erase-'));
    let admin: AdminServer | null = null;
    try {
      admin = await startAdminServer(socketPath(dir), (req) => runOperatorCommand(t.db, req.argv, filesContext(req.files ?? {}, 'server')), {
        info: () => {},
        warn: () => {},
      });
      const argv = ['contacts', 'erase', c.socket, '--account', acme.id];
      const send = () => sendAdminRequest(admin!.path, { argv, cwd: '/', files: {} }, { connectTimeoutMs: 2000, responseTimeoutMs: 10_000 });
      expect(await send()).toMatchObject({ code: 0, stdout: expect.stringMatching(/^contact .* erased: /) });
      expect(await contactRow(c.socket)).toMatchObject({ email: null, erased_at: expect.any(Date) });
      expect(await send()).toEqual(await erase(c.socket));
    } finally {
      await admin?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
