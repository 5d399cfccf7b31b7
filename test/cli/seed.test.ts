import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCommand } from '../../src/cli/seed.js';
import { diskContext } from '../../src/cli/command.js';
import { findKeyForAuth } from '../../src/keys/store.js';
import { hashKey } from '../../src/lib/api-keys.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { memoryContext } from './support.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/fixture-format.json');
const fixtureText = fs.readFileSync(FIXTURE, 'utf8');

let t: TestDb;
let dir: string;
beforeAll(async () => {
  t = await freshDb();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-seed-'));
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const count = async (table: string) => Number((await t.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n);

describe('seed', () => {
  it('loads the fixture and prints refs, ids and key values (text)', async () => {
    const r = await seedCommand(t.db, ['fixture.json'], memoryContext({ 'fixture.json': fixtureText }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Seeded 1 account with 3 API keys\./);
    expect(r.stdout).toMatch(/account acme\s+[0-9a-f-]{36}/);
    expect(r.stdout).not.toContain('correct horse battery staple'); // passwords are never printed
    const keys: string[] = r.stdout.match(/svc_live_[0-9A-Za-z]{38}/g) ?? [];
    expect(keys.length).toBe(3);
    expect(await findKeyForAuth(t.db, hashKey(keys[0]))).toMatchObject({ name: 'CRM sync', revoked_at: null });
  });

  it('--json prints the result as one JSON object, from a file on disk', async () => {
    const r = await seedCommand(t.db, [FIXTURE, '--json'], diskContext());
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    const acme = j.accounts.acme;
    expect(acme.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(acme.keys).sort()).toEqual(['integration', 'old', 'reporting']);
    expect(acme.users).toHaveProperty('olivia');
    const row = await findKeyForAuth(t.db, hashKey(acme.keys.integration));
    expect(row?.account_id).toBe(acme.id);
    // The erasure secret the loader keys tombstones with now exists (created on first use).
    expect(await count(`server_secrets where purpose = 'erasure'`)).toBe(1);
  });

  it('resolves a relative FILE against the given directory', async () => {
    fs.writeFileSync(path.join(dir, 'rel.json'), fixtureText);
    const r = await seedCommand(t.db, ['rel.json', '--json'], diskContext(dir));
    expect(r.code, r.stderr).toBe(0);
  });

  it('refuses a file that is not JSON, naming it, and writes nothing', async () => {
    const before = await count('accounts');
    const r = await seedCommand(t.db, ['broken.json'], memoryContext({ 'broken.json': '{"accounts": [' }));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: broken\.json is not valid JSON: /);
    expect(await count('accounts')).toBe(before);
  });

  it('refuses an invalid fixture with the loader message (exit 1) and writes nothing', async () => {
    const bad = JSON.parse(fixtureText);
    bad.accounts[0].tier = 'gold';
    const before = await count('accounts');
    const r = await seedCommand(t.db, ['bad.json'], memoryContext({ 'bad.json': JSON.stringify(bad) }));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: accounts\[0\]\.tier: /);
    expect(await count('accounts')).toBe(before);
  });

  it('refuses a missing file (1) and bad arguments (2)', async () => {
    const r = await seedCommand(t.db, [path.join(dir, 'nope.json')], diskContext());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot read .*nope\.json: no such file/);
    expect((await seedCommand(t.db, [])).stderr).toMatch(/missing argument/);
    expect((await seedCommand(t.db, ['a.json', 'b.json'])).stderr).toMatch(/unexpected argument "b.json"/);
    const r2 = await seedCommand(t.db, ['a.json', '--dry-run']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/unknown option --dry-run/);
  });
});
