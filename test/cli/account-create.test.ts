// `switchboard account create|list` and `--version`.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runOperatorCommand } from '../../src/cli/operator.js';
import { main } from '../../src/main.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

const account = (...args: string[]) => runOperatorCommand(t.db, ['account', ...args]);

describe('account create', () => {
  it('creates the account and its owner without a password and prints a one-time link', async () => {
    const r = await account('create', '--name', 'Acme', '--owner-email', 'Boss@Acme.example', '--owner-name', 'The Boss', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.set_password_url).toMatch(/^https?:\/\/[^/]+\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    const [acct] = await t.db.query<{ name: string; tier: string }>(`select name, tier from accounts where id = $1`, [out.account_id]);
    expect(acct).toEqual({ name: 'Acme', tier: 'team' });
    const [owner] = await t.db.query<{ email: string; name: string; role: string; password_hash: string | null }>(
      `select email, name, role, password_hash from users where account_id = $1 and id = $2`,
      [out.account_id, out.owner_id],
    );
    expect(owner).toEqual({ email: 'Boss@Acme.example', name: 'The Boss', role: 'owner', password_hash: null });
    expect(await t.db.query(`select 1 from user_tokens where user_id = $1 and purpose = 'set_password' and used_at is null`, [out.owner_id])).toHaveLength(1);
    const [entry] = await t.db.query<{ action: string; actor_kind: string }>(`select action, actor_kind from audit_log where account_id = $1`, [out.account_id]);
    expect(entry).toEqual({ action: 'account.created', actor_kind: 'operator' });

    const text = await account('create', '--name', 'Second', '--owner-email', 'two@acme.example');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/created account [0-9a-f-]{36} \("Second"\) with owner/);
    expect(text.stdout).toMatch(/set-password\?token=/);
  });

  it('gives the account SWITCHBOARD_STARTING_CREDIT_MICROS of credit, none when it is 0', async () => {
    const creditOf = async (r: { stdout: string }) =>
      (await t.db.query<{ c: number }>(`select credit_micros::int8 as c from accounts where id = $1`, [JSON.parse(r.stdout).account_id]))[0].c;
    try {
      vi.stubEnv('SWITCHBOARD_STARTING_CREDIT_MICROS', '7000000');
      expect(await creditOf(await account('create', '--name', 'Funded', '--owner-email', 'f@funded.example', '--json'))).toBe(7_000_000);
      vi.stubEnv('SWITCHBOARD_STARTING_CREDIT_MICROS', '0');
      expect(await creditOf(await account('create', '--name', 'Unfunded', '--owner-email', 'u@unfunded.example', '--json'))).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('refuses a bad email or a blank name with usage (2)', async () => {
    const bad = await account('create', '--name', 'X', '--owner-email', 'nope');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--owner-email: The owner's email is not valid/);
    expect((await account('create', '--name', ' ', '--owner-email', 'a@b.example')).stderr).toMatch(/--name must not be blank/);
    expect((await account('create', '--owner-email', 'a@b.example')).stderr).toMatch(/--name is required/);
    expect((await account('frob')).stderr).toMatch(/unknown account action "frob"/);
  });
});

describe('account list', () => {
  it('lists every account with its user count, as a table and JSON', async () => {
    const j = JSON.parse((await account('list', '--json')).stdout) as { name: string; users: number; state: string; tier: string; created_at: string }[];
    const acme = j.find((a) => a.name === 'Acme')!;
    expect(acme).toMatchObject({ state: 'active', tier: 'team', users: 1 });
    expect(acme.created_at).toMatch(/Z$/);
    const text = (await account('list')).stdout;
    expect(text).toMatch(/^ID\s+NAME\s+STATE\s+TIER\s+CREATED\s+USERS/);
    expect(text).toContain('Second');
  });
});

describe('--version', () => {
  it("prints package.json's version", async () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    try {
      expect(await main(['--version'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(out.join('')).toBe(`${pkg.version}\n`);
  });
});
