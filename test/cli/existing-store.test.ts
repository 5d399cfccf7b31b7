// Operator commands open an existing store only. A command pointed at a data dir without one (a
// shell without the server's SWITCHBOARD_DATA_DIR) or at an empty database once made a second
// store silently, seeded it and printed keys the running server refused. Now it is refused,
// naming where it looked, and nothing is created there; --create (or migrate) makes a new store
// on purpose.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDb, onPostgres } from '../helpers/db.js';
import { cliResult } from '../helpers/process.js';
import { storeAndFolder } from '../helpers/store-and-folder.js';

const file = storeAndFolder('sb-existing-', emptyDb);

const dataDir = () => path.join(file.tmp, 'not-made-yet');
/** An empty PostgreSQL database, or a data dir that does not exist. */
const storeEnv = (): Record<string, string> => ({ SWITCHBOARD_DATA_DIR: dataDir(), ...(onPostgres() ? { DATABASE_URL: file.t.url! } : {}) });

const FIXTURE = {
  accounts: [{ ref: 'acme', name: 'Acme', users: [{ ref: 'o', email: 'o@acme.example', role: 'owner', name: 'O' }], keys: [{ ref: 'k', name: 'k', scopes: ['workflows:read'] }] }],
};

async function schemaTables(): Promise<number> {
  const rows = await file.t.db.query<{ n: number }>(`select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`);
  return rows[0].n;
}

describe('an operator command where there is no store', () => {
  it('is refused, naming where it looked, and creates nothing', async () => {
    fs.writeFileSync(path.join(file.tmp, 'fixture.json'), JSON.stringify(FIXTURE));
    const seeded = await cliResult(['seed', path.join(file.tmp, 'fixture.json'), '--json'], storeEnv());
    expect(seeded.code).toBe(1);
    expect(seeded.stdout).toBe('');
    if (onPostgres()) {
      expect(seeded.stderr).toMatch(/^error: postgres 127\.0\.0\.1:5432\/sb_t_\S+ holds no Switchboard store yet, so nothing was done\. Check DATABASE_URL and SWITCHBOARD_DATA_DIR, or run `switchboard migrate` \(or add --create\) to make a new store there\.\n$/);
      expect(await schemaTables()).toBe(0);
    } else {
      expect(seeded.stderr).toBe(
        `error: there is no store in ${dataDir()} (SWITCHBOARD_DATA_DIR), so nothing was done. Point SWITCHBOARD_DATA_DIR at the data directory your server uses (its log names it: "store: pglite, data dir …"), or add --create to make a new, empty store there.\n`,
      );
      expect(fs.existsSync(dataDir())).toBe(false);
    }
    const listed = await cliResult(['account', 'list'], storeEnv());
    expect(listed.code).toBe(1);
    expect(listed.stderr).toMatch(/so nothing was done/);
  }, 180_000);

  it('--create makes the store on purpose; later commands open it without', async () => {
    const seeded = await cliResult(['seed', path.join(file.tmp, 'fixture.json'), '--json', '--create'], storeEnv());
    expect(seeded.code, seeded.stderr).toBe(0);
    const acme = (JSON.parse(seeded.stdout) as { accounts: { acme: { id: string } } }).accounts.acme;
    if (!onPostgres()) expect(fs.existsSync(path.join(dataDir(), 'pgdata', 'PG_VERSION'))).toBe(true);
    const listed = await cliResult(['account', 'list', '--json'], storeEnv());
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((a) => a.id)).toEqual([acme.id]);
    // --create on an existing store changes nothing about it.
    const again = await cliResult(['account', 'show', '--account', acme.id, '--create'], storeEnv());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Acme');
  }, 180_000);
});
