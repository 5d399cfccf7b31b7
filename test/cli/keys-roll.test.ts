// `keys roll` and `keys update`: the hub's roll and edit through the same services, audited as the
// operator. A rolled key keeps working for its grace and then is expired; only an active key rolls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysCommand } from '../../src/cli/keys.js';
import { findKeyForAuth } from '../../src/keys/store.js';
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

async function create(name: string, ...extra: string[]): Promise<{ id: string; key: string }> {
  const r = await keys('create', '--account', acct.id, '--by', acct.owner, '--name', name, '--json', ...extra);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

const audit = (objectId: string) =>
  t.db.query<{ action: string; actor_kind: string; actor_label: string; detail: Record<string, unknown> }>(
    'select action, actor_kind, actor_label, detail from audit_log where object_id = $1 order by id',
    [objectId],
  );

describe('keys roll', () => {
  it('prints a new key once with the same scopes, cap and expiry; the old one lasts the grace', async () => {
    const old = await create('CRM', '--scopes', 'workflows:read,usage:read', '--cap', '5000', '--expires', '2099-01-01T00:00:00Z');
    const before = Date.now();
    const r = await keys('roll', '--account', acct.id, '--key', old.id, '--grace', '1h');
    expect(r.code, r.stderr).toBe(0);
    const value = keyValueIn(r)!;
    expect(r.stdout.split(value).length).toBe(2);
    expect(r.stdout).toMatch(/only time the key value is shown/);
    const fresh = (await findKeyForAuth(t.db, hashKey(value)))!;
    expect(fresh).toMatchObject({ name: 'CRM', scopes: ['workflows:read', 'usage:read'], revoked_at: null });
    expect(fresh.expires_at?.toISOString()).toBe('2099-01-01T00:00:00.000Z');
    const cap = await t.db.query<{ c: string }>('select monthly_spend_cap_micros::text as c from api_keys where id = $1', [fresh.key_id]);
    expect(cap[0].c).toBe('5000');
    const oldRow = (await findKeyForAuth(t.db, hashKey(old.key)))!;
    const left = oldRow.expires_at!.getTime() - before;
    expect(left).toBeGreaterThan(3_590_000);
    expect(left).toBeLessThan(3_700_000);
    const replaced = await t.db.query<{ r: string }>('select replaced_by as r from api_keys where id = $1', [old.id]);
    expect(replaced[0].r).toBe(fresh.key_id);
    const entries = await audit(old.id);
    expect(entries.map((e) => e.action)).toEqual(['key.created', 'key.rolled']);
    expect(entries[1]).toMatchObject({ actor_kind: 'operator', detail: { grace: '1h', replaced_by: fresh.key_id } });
    expect(JSON.stringify(entries)).not.toContain(value);
  });

  it('--json gives the new key and the old one with its end; --grace none ends the old key now', async () => {
    const old = await create('Now');
    const r = await keys('roll', '--account', acct.id, '--key', old.id, '--grace', 'none', '--json');
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ name: 'Now', account_id: acct.id, replaces: { id: old.id } });
    expect(j.key.startsWith(j.prefix)).toBe(true);
    expect(Date.parse(j.replaces.expires_at)).toBeLessThanOrEqual(Date.now());
    const list = JSON.parse((await keys('list', '--account', acct.id, '--json')).stdout);
    const state = (id: string) => list.keys.find((k: { id: string }) => k.id === id).state;
    expect(state(old.id)).toBe('expired');
    expect(state(j.id)).toBe('active');
  });

  it('defaults to a 24-hour grace and lists the old key as rolled', async () => {
    const old = await create('Default');
    const r = await keys('roll', '--account', acct.id, '--key', old.id);
    expect(r.code, r.stderr).toBe(0);
    const left = (await findKeyForAuth(t.db, hashKey(old.key)))!.expires_at!.getTime() - Date.now();
    expect(left).toBeGreaterThan(86_300_000);
    expect(left).toBeLessThanOrEqual(86_400_000);
    const list = JSON.parse((await keys('list', '--account', acct.id, '--json')).stdout);
    expect(list.keys.find((k: { id: string }) => k.id === old.id)).toMatchObject({ state: 'rolled' });
  });

  it('refuses a key already rolled, revoked or expired, an unknown key, and bad arguments', async () => {
    const k = await create('Twice');
    expect((await keys('roll', '--account', acct.id, '--key', k.id)).code).toBe(0);
    const again = await keys('roll', '--account', acct.id, '--key', k.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already rolled; only an active key can be rolled/);
    const gone = await create('Gone');
    await keys('revoke', '--account', acct.id, '--key', gone.id);
    expect((await keys('roll', '--account', acct.id, '--key', gone.id)).stderr).toMatch(/revoked/);
    const late = await create('Late');
    await t.db.query(`update api_keys set expires_at = now() - interval '1 second' where id = $1`, [late.id]);
    expect((await keys('roll', '--account', acct.id, '--key', late.id)).stderr).toMatch(/expired/);
    const other = await makeAccount(t.db);
    const foreign = await keys('roll', '--account', other.id, '--key', late.id);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(`no key ${late.id} in account ${other.id}`);
    expect((await keys('roll', '--account', UNKNOWN, '--key', late.id)).stderr).toMatch(/no account/);
    const bad = await keys('roll', '--account', acct.id, '--key', k.id, '--grace', '2h');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--grace must be one of none, 1h, 24h, 7d, got "2h"/);
    expect((await keys('roll', '--account', acct.id)).stderr).toMatch(/--key is required/);
    const usage = (await keys()).stderr;
    expect(usage).toMatch(/keys needs an action: create, list, revoke, set-cap, update or roll/);
    expect(usage).toMatch(/switchboard keys roll --account ID --key KEY_ID \[--grace none\|1h\|24h\|7d\]/);
  });
});

describe('keys update', () => {
  it('renames, sets, lowers and removes the cap, each audited with old and new values', async () => {
    const k = await create('Before', '--cap', '9000');
    const r = await keys('update', '--account', acct.id, '--key', k.id, '--name', 'After', '--cap', '100');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/name "After"; monthly spend cap: 100 micros/);
    const none = await keys('update', '--account', acct.id, '--key', k.id, '--cap', 'none');
    expect(none.stdout).toMatch(/monthly spend cap: none/);
    const row = await t.db.query<{ name: string; c: string | null }>('select name, monthly_spend_cap_micros as c from api_keys where id = $1', [k.id]);
    expect(row[0]).toEqual({ name: 'After', c: null });
    // The same values again change nothing and record nothing.
    await keys('update', '--account', acct.id, '--key', k.id, '--name', 'After');
    const entries = await audit(k.id);
    expect(entries.map((e) => e.action)).toEqual(['key.created', 'key.updated', 'key.updated']);
    expect(entries[1].detail).toEqual({ name: { from: 'Before', to: 'After' }, monthly_spend_cap_micros: { from: 9000, to: 100 } });
    expect(entries[2].detail).toEqual({ monthly_spend_cap_micros: { from: 100, to: null } });
  });

  it('refuses nothing to change, bad values and unknown keys', async () => {
    const k = await create('Edit me');
    const nothing = await keys('update', '--account', acct.id, '--key', k.id);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/update needs --name, --cap or both/);
    expect((await keys('update', '--account', acct.id, '--key', k.id, '--cap', '0')).code).toBe(2);
    expect((await keys('update', '--account', acct.id, '--key', k.id, '--name', '  ')).stderr).toMatch(/--name must not be blank/);
    const unknown = await keys('update', '--account', acct.id, '--key', UNKNOWN, '--name', 'x');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no key/);
  });
});
