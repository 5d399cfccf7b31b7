import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysCommand } from '../../src/cli/keys.js';
import { findKeyForAuth } from '../../src/keys/store.js';
import { createKey } from '../../src/services/keys/service.js';
import { hashKey } from '../../src/lib/api-keys.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { UNKNOWN, keyValueIn, makeAccount, type TestAccount } from './support.js';

let t: TestDb;
let acct: TestAccount;

beforeAll(async () => {
  t = await freshDb();
  acct = await makeAccount(t.db);
});
afterAll(() => t?.close());

const keys = (...args: string[]) => keysCommand(t.db, args);

async function create(a: TestAccount, name: string, ...extra: string[]): Promise<{ id: string; key: string }> {
  const r = await keys('create', '--account', a.id, '--by', a.owner, '--name', name, '--json', ...extra);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('keys create', () => {
  it('prints the key value once with its id, and the key authenticates', async () => {
    const r = await keys('create', '--account', acct.id, '--by', acct.admin, '--name', 'CRM sync', '--scopes', 'workflows:read,usage:read');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const value = keyValueIn(r)!;
    expect(value).toBeTruthy();
    expect(r.stdout.split(value).length).toBe(2); // exactly once
    expect(r.stdout).toMatch(/created key [0-9a-f-]{36} \("CRM sync"\)/);
    const row = await findKeyForAuth(t.db, hashKey(value));
    expect(row).toMatchObject({ account_id: acct.id, name: 'CRM sync', scopes: ['workflows:read', 'usage:read'], revoked_at: null });
  });

  it('--json gives id, key, prefix, scopes, expiry and cap', async () => {
    const other = await makeAccount(t.db);
    const r = await keys(
      'create', '--account', other.id, '--by', other.owner, '--name', 'Reporting',
      '--scopes', 'usage:read', '--expires', '2099-06-30T00:00:00Z', '--cap', '5000000', '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({
      account_id: other.id,
      name: 'Reporting',
      scopes: ['usage:read'],
      expires_at: '2099-06-30T00:00:00.000Z',
      monthly_spend_cap_micros: 5000000,
    });
    expect(j.key.startsWith(j.prefix)).toBe(true);
    const row = await findKeyForAuth(t.db, hashKey(j.key));
    expect(row?.key_id).toBe(j.id);
  });

  it('refuses a creator who is a member, or not in the account, with exit 1', async () => {
    const r = await keys('create', '--account', acct.id, '--by', acct.member, '--name', 'x');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/only an owner or admin of the account creates keys/);
    const r2 = await keys('create', '--account', acct.id, '--by', UNKNOWN, '--name', 'x');
    expect(r2.code).toBe(1);
    expect(r2.stderr).toMatch(/no user/);
    const r3 = await keys('create', '--account', UNKNOWN, '--by', acct.owner, '--name', 'x');
    expect(r3.code).toBe(1);
    expect(r3.stderr).toMatch(/no account/);
  });

  it('refuses the 11th active key with the rule in the message; revoked and expired keys do not count', async () => {
    const a = await makeAccount(t.db);
    // One revoked and one expired key first: neither is active.
    await t.db.transaction(async (tx) => {
      for (const [name, extra] of [['revoked', { revoked: true }], ['expired', { expiresAt: new Date(Date.now() - 1000) }]] as const) {
        await createKey(tx, { accountId: a.id, createdBy: a.owner, name, scopes: [], expiresAt: null, monthlySpendCapMicros: null, ...extra });
      }
    });
    const made = [];
    for (let i = 1; i <= 10; i++) made.push(await create(a, `k${i}`));
    const r = await keys('create', '--account', a.id, '--by', a.owner, '--name', 'eleventh');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/already has 10 active keys, the most it may have; revoke one first/);
    // Revoking one makes room again.
    expect((await keys('revoke', '--account', a.id, '--key', made[0].id)).code).toBe(0);
    expect((await keys('create', '--account', a.id, '--by', a.owner, '--name', 'eleventh')).code).toBe(0);
  });

  it.each([
    [['--by', 'OWNER', '--name', 'n'], /--account is required/],
    [['--account', 'nope', '--by', 'OWNER', '--name', 'n'], /--account must be a UUID, got "nope"/],
    [['--account', 'ACCT', '--name', 'n'], /--by is required/],
    [['--account', 'ACCT', '--by', '12', '--name', 'n'], /--by must be a UUID/],
    [['--account', 'ACCT', '--by', 'OWNER'], /--name is required/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', '   '], /--name must not be blank/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--scopes', 'workflows:write'], /unknown scope "workflows:write"; scopes are workflows:read/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--scopes', 'usage:read,'], /empty scope/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--cap', '0'], /--cap must be from 1/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--cap', '1.5'], /--cap must be a whole number/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--cap', '-3'], /--cap was given a value starting with "-"/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--cap=-3'], /--cap must be a whole number/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--json=yes'], /--json/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--expires', 'tomorrow'], /--expires must be an ISO 8601 date/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--expires', '2099-02-30'], /--expires must be an ISO 8601 date/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--expires', '2099-01-01T10:00:00'], /with a zone/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--expires', '2001-01-01'], /--expires must be in the future/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', '--colour', 'red'], /unknown option --colour/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name', 'n', 'extra'], /unexpected argument "extra"/],
    [['--account', 'ACCT', '--by', 'OWNER', '--name'], /--name needs a value/],
  ])('refuses bad arguments with exit 2: %j', async (args, message) => {
    const filled = args.map((a) => (a === 'ACCT' ? acct.id : a === 'OWNER' ? acct.owner : a));
    const r = await keys('create', ...filled);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/Usage:/);
  });

  it('accepts a date-only or offset expiry', async () => {
    const a = await makeAccount(t.db);
    expect((await create(a, 'd', '--expires', '2099-01-31')) as unknown).toMatchObject({ expires_at: '2099-01-31T00:00:00.000Z' });
    expect((await create(a, 'o', '--expires', '2099-01-31T12:00:00+02:00')) as unknown).toMatchObject({ expires_at: '2099-01-31T10:00:00.000Z' });
  });
});

describe('keys list', () => {
  it('shows prefix, state, cap and last use, never a secret', async () => {
    const a = await makeAccount(t.db);
    const k1 = await create(a, 'first', '--cap', '7000', '--scopes', 'usage:read');
    const k2 = await create(a, 'second');
    const expired = await t.db.transaction((tx) =>
      createKey(tx, { accountId: a.id, createdBy: a.owner, name: 'old', scopes: [], expiresAt: new Date(Date.now() - 60_000), monthlySpendCapMicros: null }),
    );
    await keys('revoke', '--account', a.id, '--key', k2.id);
    await t.db.query('update api_keys set last_used_at = $2 where id = $1', [k1.id, new Date('2030-01-02T03:04:05.006Z')]);

    const text = await keys('list', '--account', a.id);
    expect(text.code).toBe(0);
    for (const v of [k1.key, k2.key, expired.value]) expect(text.stdout).not.toContain(v);
    expect(text.stdout).toMatch(/^ID\s+PREFIX\s+STATE\s+CAP_MICROS\s+EXPIRES\s+LAST_USED\s+SCOPES\s+NAME\n/);
    const line = (id: string) => text.stdout.split('\n').find((l) => l.startsWith(id))!;
    expect(line(k1.id)).toMatch(/svc_live_\w{6}…\s+active\s+7000\s+never\s+2030-01-02T03:04:05\.006Z\s+usage:read\s+first$/);
    expect(line(k2.id)).toMatch(/\srevoked\s+none\s/);
    expect(line(expired.id)).toMatch(/\sexpired\s/);

    const j = await keys('list', '--account', a.id, '--json');
    const parsed = JSON.parse(j.stdout);
    expect(parsed.account_id).toBe(a.id);
    expect(parsed.keys.map((k: { state: string }) => k.state)).toEqual(['active', 'revoked', 'expired']);
    expect(parsed.keys[0]).toMatchObject({ id: k1.id, name: 'first', monthly_spend_cap_micros: 7000, last_used_at: '2030-01-02T03:04:05.006Z', scopes: ['usage:read'] });
    for (const v of [k1.key, k2.key, expired.value]) expect(j.stdout).not.toContain(v);
  });

  it('says when there are no keys, and refuses an unknown account', async () => {
    const a = await makeAccount(t.db);
    expect((await keys('list', '--account', a.id)).stdout).toMatch(/has no keys/);
    const r = await keys('list', '--account', UNKNOWN);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no account/);
    expect((await keys('list')).code).toBe(2);
    expect((await keys('list', '--account', a.id, '--key', UNKNOWN)).code).toBe(2);
  });
});

describe('keys revoke', () => {
  it('revokes once; a second revoke is harmless and keeps the first time', async () => {
    const k = await create(acct, 'to revoke');
    const r1 = await keys('revoke', '--account', acct.id, '--key', k.id);
    expect(r1).toMatchObject({ code: 0, stderr: '' });
    expect(r1.stdout).toMatch(/revoked key/);
    const first = (await findKeyForAuth(t.db, hashKey(k.key)))!.revoked_at;
    expect(first).toBeInstanceOf(Date);
    const r2 = await keys('revoke', '--account', acct.id, '--key', k.id);
    expect(r2.code).toBe(0);
    expect(r2.stdout).toMatch(/already revoked/);
    expect((await findKeyForAuth(t.db, hashKey(k.key)))!.revoked_at).toEqual(first);
  });

  it('refuses an unknown key, a key of another account, and bad arguments', async () => {
    const k = await create(acct, 'mine');
    const other = await makeAccount(t.db);
    const r = await keys('revoke', '--account', other.id, '--key', k.id);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(`no key ${k.id} in account ${other.id}`);
    expect((await findKeyForAuth(t.db, hashKey(k.key)))!.revoked_at).toBeNull();
    expect((await keys('revoke', '--account', UNKNOWN, '--key', k.id)).stderr).toMatch(/no account/);
    expect((await keys('revoke', '--account', acct.id)).stderr).toMatch(/--key is required/);
    expect((await keys('revoke', '--account', acct.id, '--key', 'k1')).code).toBe(2);
  });
});

describe('keys set-cap', () => {
  it('sets, changes and removes a cap', async () => {
    const k = await create(acct, 'capped');
    const cap = async () => (await t.db.query<{ c: number | null }>('select monthly_spend_cap_micros as c from api_keys where id = $1', [k.id]))[0].c;
    const r = await keys('set-cap', '--account', acct.id, '--key', k.id, '--cap', '2500000');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/set to 2500000 micros/);
    expect(Number(await cap())).toBe(2500000);
    await keys('set-cap', '--account', acct.id, '--key', k.id, '--cap', '1');
    expect(Number(await cap())).toBe(1);
    const none = await keys('set-cap', '--account', acct.id, '--key', k.id, '--cap', 'none');
    expect(none.stdout).toMatch(/removed/);
    expect(await cap()).toBeNull();
  });

  it('refuses bad caps, unknown keys and missing arguments', async () => {
    const k = await create(acct, 'capped2');
    for (const bad of ['0', '-1', 'abc', '1e6', '', '9007199254740992']) {
      const r = await keys('set-cap', '--account', acct.id, '--key', k.id, '--cap', bad);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--cap/);
    }
    expect((await keys('set-cap', '--account', acct.id, '--key', k.id)).stderr).toMatch(/--cap is required/);
    const r = await keys('set-cap', '--account', acct.id, '--key', UNKNOWN, '--cap', '5');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no key/);
  });
});

describe('keys (no action)', () => {
  it('asks for an action and refuses an unknown one', async () => {
    expect((await keys()).stderr).toMatch(/keys needs an action/);
    const r = await keys('delete', '--account', acct.id);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown keys action "delete"/);
  });
});
