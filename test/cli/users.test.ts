// `switchboard users add|list|set-role|remove`: the hub's user rules through the operator CLI,
// each change with its operator audit entry.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/cli/operator.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { UNKNOWN, makeAccount } from './support.js';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

const users = (...args: string[]) => runOperatorCommand(t.db, ['users', ...args]);
const audit = (accountId: string) =>
  t.db.query<{ action: string; actor_kind: string; object_id: string; detail: Record<string, unknown> }>(
    `select action, actor_kind, object_id, detail from audit_log where account_id = $1 order by id`,
    [accountId],
  );

describe('users add', () => {
  it('adds a user without a password and prints a one-time link whose hash is stored', async () => {
    const a = await makeAccount(t.db);
    const r = await users('add', '--account', a.id, '--email', 'New.Person@Test.example', '--name', 'New Person', '--role', 'admin', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ email: 'New.Person@Test.example', role: 'admin', emailed: false });
    const token = new URL(out.set_password_url).searchParams.get('token')!;
    expect(out.set_password_url).toMatch(/\/set-password\?token=/);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await t.db.query<{ token_hash: Buffer; purpose: string; expires_at: Date; user_id: string }>(
      `select token_hash, purpose, expires_at, user_id from user_tokens where account_id = $1`,
      [a.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: 'set_password', user_id: out.user_id });
    expect(Buffer.compare(rows[0].token_hash, createHash('sha256').update(token).digest())).toBe(0);
    expect(rows[0].expires_at.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const [u] = await t.db.query<{ password_hash: string | null; name: string }>(`select password_hash, name from users where id = $1`, [out.user_id]);
    expect(u).toEqual({ password_hash: null, name: 'New Person' });
    expect(await audit(a.id)).toEqual([
      { action: 'user.added', actor_kind: 'operator', object_id: out.user_id, detail: { email: 'New.Person@Test.example', role: 'admin', emailed: false } },
    ]);
    // The text form says the link is shown once; the default role is member.
    const text = await users('add', '--account', a.id, '--email', 'plain@test.example');
    expect(text.stdout).toMatch(/added plain@test\.example \(member\)/);
    expect(text.stdout).toMatch(/not shown again/);
  });

  it('refuses an email the account has (any case), naming the user', async () => {
    const a = await makeAccount(t.db);
    const r = await users('add', '--account', a.id, '--email', 'ADMIN@test.example');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(`already has a user with the email admin@test.example (user ${a.admin})`);
  });

  it('refuses a bad email (1), bad arguments (2) and an unknown account (1)', async () => {
    const a = await makeAccount(t.db);
    expect((await users('add', '--account', a.id, '--email', 'not-an-email')).stderr).toMatch(/email is not valid/);
    expect((await users('add', '--account', a.id, '--email', 'x@test.example', '--role', 'boss')).code).toBe(2);
    expect((await users('add', '--account', a.id)).stderr).toMatch(/--email is required/);
    expect((await users('frob', '--account', a.id)).stderr).toMatch(/unknown users action "frob"/);
    expect((await users()).stderr).toMatch(/users needs an action/);
    const r = await users('list', '--account', UNKNOWN);
    expect(r).toMatchObject({ code: 1 });
    expect(r.stderr).toMatch(`no account ${UNKNOWN}`);
  });
});

describe('users list', () => {
  it('lists the account users only, oldest first, as a table and JSON', async () => {
    const a = await makeAccount(t.db);
    await makeAccount(t.db);
    const j = JSON.parse((await users('list', '--account', a.id, '--json')).stdout);
    expect(j.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      ['owner@test.example', 'owner'],
      ['admin@test.example', 'admin'],
      ['member@test.example', 'member'],
    ]);
    expect(j[0]).toMatchObject({ id: a.owner, has_password: false });
    const text = (await users('list', '--account', a.id)).stdout;
    expect(text).toMatch(/^ID\s+EMAIL\s+NAME\s+ROLE/);
    expect(text).toContain(a.member);
  });
});

describe('users set-role', () => {
  it('changes a role and records from and to', async () => {
    const a = await makeAccount(t.db);
    const r = await users('set-role', '--account', a.id, '--user', a.member, '--role', 'admin');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(`user ${a.member} (member@test.example) is now admin`);
    expect((await audit(a.id)).at(-1)).toMatchObject({ action: 'user.role_changed', object_id: a.member, detail: { from: 'member', to: 'admin' } });
  });

  it('refuses to demote the last owner, and allows it once another owner exists', async () => {
    const a = await makeAccount(t.db);
    const r = await users('set-role', '--account', a.id, '--user', a.owner, '--role', 'admin');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/last owner/);
    expect((await users('set-role', '--account', a.id, '--user', a.admin, '--role', 'owner')).code).toBe(0);
    expect((await users('set-role', '--account', a.id, '--user', a.owner, '--role', 'member')).code).toBe(0);
  });

  it('refuses a user of another account as unknown', async () => {
    const a = await makeAccount(t.db);
    const b = await makeAccount(t.db);
    const r = await users('set-role', '--account', a.id, '--user', b.member, '--role', 'admin');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No such user/);
  });
});

describe('users remove', () => {
  it('removes a user, ends their sessions, unassigns their contacts and records it', async () => {
    const a = await makeAccount(t.db);
    await t.db.query(
      `insert into hub_sessions (token_hash, email, user_ids, account_id, user_id, csrf_token) values ($1, 'member@test.example', $2::uuid[], $3, $4, 'c')`,
      [Buffer.from('aa', 'hex'), [a.member], a.id, a.member],
    );
    const contact = uuidv7();
    await t.db.query(`insert into contacts (account_id, id, email, email_normalized, assignee) values ($1, $2, 'c@x.example', 'c@x.example', $3)`, [a.id, contact, a.member]);
    const r = await users('remove', '--account', a.id, '--user', a.member);
    expect(r.code, r.stderr).toBe(0);
    expect(await t.db.query(`select 1 from users where id = $1`, [a.member])).toHaveLength(0);
    expect(await t.db.query(`select 1 from hub_sessions where $1::uuid = any (user_ids)`, [a.member])).toHaveLength(0);
    expect((await t.db.query<{ assignee: string | null }>(`select assignee from contacts where id = $1`, [contact]))[0].assignee).toBeNull();
    expect((await audit(a.id)).at(-1)).toMatchObject({ action: 'user.removed', object_id: a.member, detail: { email: 'member@test.example', unassigned_contacts: 1 } });
  });

  it('refuses the last owner, and a user whose keys still work; hands over keys that no longer do', async () => {
    const a = await makeAccount(t.db);
    expect((await users('remove', '--account', a.id, '--user', a.owner)).stderr).toMatch(/last owner and cannot be removed/);
    const key = uuidv7();
    await t.db.query(
      `insert into api_keys (id, account_id, hash, prefix, name, created_by) values ($1, $2, $3, 'svc_live_abcd', 'k', $4)`,
      [key, a.id, Buffer.from(key.replace(/-/g, ''), 'hex'), a.admin],
    );
    const refused = await users('remove', '--account', a.id, '--user', a.admin);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/1 API key\(s\) still in use; revoke or roll them first/);
    await t.db.query(`update api_keys set revoked_at = now() where id = $1`, [key]);
    expect((await users('remove', '--account', a.id, '--user', a.admin)).code).toBe(0);
    const [k] = await t.db.query<{ created_by: string }>(`select created_by from api_keys where id = $1`, [key]);
    expect(k.created_by).toBe(a.owner);
    expect((await audit(a.id)).at(-1)?.detail).toMatchObject({ old_keys_handed_over: 1 });
  });
});

describe('users reset-password', () => {
  it('prints a new one-time link for the user with that email (any case); earlier links stop working; audited', async () => {
    const a = await makeAccount(t.db);
    const first = JSON.parse((await users('reset-password', '--account', a.id, '--email', 'Member@Test.example', '--json')).stdout);
    expect(first).toMatchObject({ user_id: a.member, email: 'member@test.example', emailed: false });
    const text = await users('reset-password', '--account', a.id, '--email', 'member@test.example');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/member@test\.example .* sets a new password here .*not shown again/);
    const url = /https?:\S+\/set-password\?token=[A-Za-z0-9_-]{43}/.exec(text.stdout)![0];
    const live = await t.db.query<{ token_hash: Buffer }>(`select token_hash from user_tokens where user_id = $1 and used_at is null`, [a.member]);
    expect(live).toHaveLength(1);
    expect(Buffer.compare(live[0].token_hash, createHash('sha256').update(new URL(url).searchParams.get('token')!).digest())).toBe(0);
    expect((await audit(a.id)).map((e) => [e.action, e.actor_kind, e.object_id])).toEqual([
      ['user.password_link_sent', 'operator', a.member],
      ['user.password_link_sent', 'operator', a.member],
    ]);
  });

  it('refuses an email the account has no user with (1), a missing --email (2) and an unknown account (1)', async () => {
    const a = await makeAccount(t.db);
    const none = await users('reset-password', '--account', a.id, '--email', 'nobody@test.example');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(`account ${a.id} has no user with the email nobody@test.example`);
    const missing = await users('reset-password', '--account', a.id);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--email is required/);
    const unknown = await users('reset-password', '--account', UNKNOWN, '--email', 'member@test.example');
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toMatch(`no account ${UNKNOWN}`);
  });
});
