// `switchboard backup` of the embedded store while `serve` runs and a client writes ~50 contacts a
// second through the API, then `switchboard restore` into a new data dir and `serve` on it: every
// write acknowledged before the backup started is there, every contact there is whole, the
// restored server answers and takes writes. Then a backup with no server running (the CLI opens
// the store itself), which also removes a staging dir a killed backup left behind.
//
// The store under test is a PGlite data dir of this file's own (the processes get their environment
// explicitly, without DATABASE_URL): the embedded store's feature, run on the PGlite leg only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult, exited, runCli, startServer, type ServerProcess } from '../helpers/process.js';
import { untilReady } from '../helpers/progress.js';

let tmp: string;
const servers: ServerProcess[] = [];
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-backup-live-'));
});
afterAll(async () => {
  // Whatever happened, leave no server behind (only the ones this file started, by pid).
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

const FIXTURE = {
  accounts: [
    {
      ref: 'acme',
      name: 'Acme',
      tier: 'enterprise',
      limits: { requests_per_minute: 1_000_000 },
      users: [{ ref: 'o', email: 'o@acme.example', role: 'owner' }],
      keys: [{ ref: 'k', name: 'writer', scopes: ['contacts:read', 'contacts:write'] }],
    },
  ],
};

const env = (dataDir: string): Record<string, string> => ({ SWITCHBOARD_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });

async function start(dataDir: string): Promise<ServerProcess> {
  const s = await startServer(env(dataDir), 'all');
  servers.push(s);
  return s;
}

/** Every contact of the key's account, by following next_cursor. */
async function allContacts(base: string, key: string): Promise<Array<{ email: string; first_name: string | null }>> {
  const out: Array<{ email: string; first_name: string | null }> = [];
  let cursor: string | null = null;
  do {
    const res = await fetch(`${base}/v1/contacts?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(30_000),
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: Array<{ email: string; first_name: string | null }>; next_cursor: string | null };
    out.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

function postContact(base: string, key: string, n: number): Promise<Response> {
  return fetch(`${base}/v1/contacts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: `w${n}@backup.example`, first_name: `W${n}` }),
    signal: AbortSignal.timeout(60_000),
  });
}

/** Writes a contact every 20 ms (one at a time) until stopped; records when each was acknowledged. */
function startWriter(base: string, key: string) {
  const acked: Array<{ n: number; at: number }> = [];
  const failures: string[] = [];
  let stop = false;
  const done = (async () => {
    for (let n = 0; !stop; n++) {
      const next = Date.now() + 20;
      const res = await postContact(base, key, n).catch((err: unknown) => ({ status: 0, text: async () => String(err) }));
      if (res.status === 201) acked.push({ n, at: Date.now() });
      else failures.push(`w${n}: ${res.status} ${await res.text()}`);
      await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now()))); // pacing, not a wait for a condition
    }
  })();
  return { acked, failures, stop: () => ((stop = true), done) };
}

describe('backup and restore of the embedded store', () => {
  let key: string;
  let file: string;
  let acctList: string;

  it('backs up while serve runs under writes; the restored store holds every acknowledged write, whole, and serves', async () => {
    const data = path.join(tmp, 'data');
    const seeded = await cliResult(['seed', writeFixture(), '--json', '--create'], env(data));
    expect(seeded.code, seeded.stderr).toBe(0);
    key = (JSON.parse(seeded.stdout) as { accounts: { acme: { keys: { k: string } } } }).accounts.acme.keys.k;
    const server = await start(data);
    const writer = startWriter(server.baseUrl, key);
    await untilReady(server.child, () => writer.acked.length >= 25, { what: '25 writes to be acknowledged', output: server.output });

    const startedAt = Date.now();
    const ackedBefore = writer.acked.filter((a) => a.at <= startedAt).map((a) => a.n);
    file = path.join(tmp, 'live.tgz');
    const backup = await cliResult(['backup', file], env(data));
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^backed up the store in .* to .*live\.tgz: \d+ files, .*schema version \d+; statements waited \d+ ms for the copy\./);
    const afterBackup = writer.acked.length;
    await untilReady(server.child, () => writer.acked.length >= afterBackup + 10, { what: 'writes after the backup', output: server.output });
    await writer.stop();
    // The server answered every write, during the backup too.
    expect(writer.failures).toEqual([]);
    expect(fs.readdirSync(data).filter((f) => f.startsWith('backup-staging-'))).toEqual([]);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);

    const restored = path.join(tmp, 'restored');
    const r = await cliResult(['restore', file, '--data-dir', restored], env(path.join(tmp, 'unused')));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^restored the backup made \d{4}-\d\d-\d\dT[\d:.]+Z by Switchboard \S+ into .*restored: schema version \d+, \d+ files\.\n/);
    expect(r.stdout).toContain(`Start it with: SWITCHBOARD_DATA_DIR=${restored} switchboard serve`);

    const second = await start(restored);
    const contacts = await allContacts(second.baseUrl, key);
    const numbers = contacts.map((c) => Number(/^w(\d+)@backup\.example$/.exec(c.email)?.[1]));
    for (const n of ackedBefore) expect(numbers).toContain(n);
    // Whole: each contact's fields as written together; none twice; none never sent.
    for (const c of contacts) expect(c.first_name).toBe(`W${/^w(\d+)@/.exec(c.email)![1]}`);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(Math.max(...numbers)).toBeLessThan(writer.acked.length + writer.failures.length + 1);
    expect((await fetch(`${second.baseUrl}/readyz`)).status).toBe(200);
    expect((await postContact(second.baseUrl, key, 1_000_000)).status).toBe(201);

    acctList = (await cliResult(['account', 'list', '--json'], env(data))).stdout; // through the first server's socket
    expect(await second.stop()).toBe(0);
    expect(await server.stop()).toBe(0);
  });

  it('backs up with no server running (the CLI opens the store), and removes a dead backup\'s staging dir', async () => {
    const data = path.join(tmp, 'data');
    // A staging dir named for a process that has exited: a backup killed before its clean-up.
    const gone = runCli(['--version'], {});
    await exited(gone);
    const leftover = path.join(data, `backup-staging-${gone.pid}-x-0abc`);
    fs.mkdirSync(path.join(leftover, 'pgdata'), { recursive: true });

    const offline = path.join(tmp, 'offline.tgz');
    const backup = await cliResult(['backup', offline], env(data));
    expect(backup.code, backup.stderr).toBe(0);
    expect(fs.existsSync(leftover)).toBe(false);
    expect(fs.readdirSync(data).filter((f) => f.startsWith('backup-staging-'))).toEqual([]);
    expect(fs.existsSync(path.join(data, 'switchboard.lock'))).toBe(false); // the lock was taken and given back

    const restored = path.join(tmp, 'restored-offline');
    fs.mkdirSync(restored); // an empty directory is a fine target
    const r = await cliResult(['restore', offline, '--data-dir', restored], env(path.join(tmp, 'unused')));
    expect(r.code, r.stderr).toBe(0);
    const listed = await cliResult(['account', 'list', '--json'], env(restored));
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(JSON.parse(acctList));
    expect(fs.readdirSync(tmp).filter((f) => f.includes('.restoring-'))).toEqual([]);
  });
});

function writeFixture(): string {
  const f = path.join(tmp, 'fixture.json');
  fs.writeFileSync(f, JSON.stringify(FIXTURE));
  return f;
}
