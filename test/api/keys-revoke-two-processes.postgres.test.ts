// Across processes: two API servers on one PostgreSQL database, each with its key cache warm. A
// revocation or a suspension made by the real CLI (its own process, no cache of its own), or a
// revocation through one server's hub API, acts from the very next request on BOTH servers: the
// change waits for every live server to acknowledge before it answers (src/keys/invalidate.ts).
// And a server that stalls (SIGSTOP) holds the revocation up only until its lease passes; when it
// resumes it does not answer from its stale cache.
//
// Checked by breaking the code (each tried once):
// - no wait (invalidateMembers returning right after its NOTIFY): the stalled case fails, both on
//   the time the CLI took and, with that check removed, on its first request after resuming
//   (200 from the stale cache). The live cases still pass then: live servers act on the NOTIFY
//   within milliseconds, sooner than a CLI process exits, so they cannot show the wait.
// - no lease (a member trusting its cache however long ago it renewed): the stalled case fails
//   (200 from the stale cache although the CLI waited).
// The stalled server's request is sent while it is stopped, so it is there when it resumes,
// beside the notification it missed, as a client's request would be.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, SESSION_COOKIE } from '../../src/domain/hub.js';
import { seedFixture, type AccountSeedResult } from '../../src/fixtures/load.js';
import { insertSession } from '../../src/hub/sessions/store.js';
import { hashToken, newToken } from '../../src/hub/sessions/token.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { exited, runCli, startServer, type ServerProcess } from '../helpers/process.js';

let t: TestDb;
let a: AccountSeedResult;
let b: AccountSeedResult;
let servers: ServerProcess[] = [];
let env: Record<string, string>;

const keys = ['k1', 'k2', 'k3', 'k4'] as const;
const LEASE_MS = 15_000;

beforeAll(async () => {
  t = await freshDb();
  const acct = (ref: string) => ({
    ref,
    name: ref,
    users: [{ ref: 'o', email: `o@${ref}.example`, role: 'owner' }],
    keys: keys.map((k) => ({ ref: k, name: k, scopes: ['workflows:read'] })),
  });
  const seeded = await seedFixture(t.db, { accounts: [acct('a'), acct('b')] }, { erasureSecret: Buffer.from('t') });
  a = seeded.accounts.a;
  b = seeded.accounts.b;
  // A lease well above a CLI process's start-up time, so the stalled-server case can tell a
  // revoke that waited for the lease from one that did not wait at all.
  env = { DATABASE_URL: t.url!, SWITCHBOARD_AUTO_MIGRATE: 'false', SWITCHBOARD_AUTH_CACHE_LEASE_MS: String(LEASE_MS) };
  servers = await Promise.all([startServer(env), startServer(env)]);
}, 180_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await t?.close();
});

async function status(server: ServerProcess, key: string): Promise<{ status: number; code?: string }> {
  const r = await fetch(`${server.baseUrl}/v1/workflows`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await r.json()) as { error?: { code: string } };
  return { status: r.status, code: body.error?.code };
}

/** Several successful requests on each server: the key's row is in both caches. */
async function warm(key: string): Promise<void> {
  for (const s of servers) for (let i = 0; i < 3; i++) expect(await status(s, key)).toEqual({ status: 200, code: undefined });
}

async function cli(...args: string[]): Promise<void> {
  const child = runCli(args, env);
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  expect(await exited(child), out).toBe(0);
}

describe('a change answered by one process holds on every process from the next request', () => {
  it('keys revoke (CLI) → 401 api_key_revoked on both servers', { timeout: 60_000 }, async () => {
    await warm(a.keys.k1);
    await warm(a.keys.k2); // a key of the same account, not revoked: still served
    await cli('keys', 'revoke', '--account', a.id, '--key', a.key_ids.k1);
    const after = await Promise.all(servers.map((s) => status(s, a.keys.k1)));
    expect(after).toEqual([{ status: 401, code: 'api_key_revoked' }, { status: 401, code: 'api_key_revoked' }]);
    for (const s of servers) expect((await status(s, a.keys.k2)).status).toBe(200);
  });

  it('account set --state suspended (CLI) → 403 account_suspended on both servers', { timeout: 60_000 }, async () => {
    await warm(b.keys.k1);
    await cli('account', 'set', '--account', b.id, '--state', 'suspended');
    const after = await Promise.all(servers.map((s) => status(s, b.keys.k1)));
    expect(after).toEqual([{ status: 403, code: 'account_suspended' }, { status: 403, code: 'account_suspended' }]);
    await cli('account', 'set', '--account', b.id, '--state', 'active');
    const again = await Promise.all(servers.map((s) => status(s, b.keys.k1)));
    expect(again.map((x) => x.status)).toEqual([200, 200]);
  });

  it("a revoke through server 1's hub API → 401 on server 2 too", { timeout: 60_000 }, async () => {
    await warm(a.keys.k3);
    const token = newToken();
    const csrf = randomBytes(24).toString('base64url');
    await insertSession(t.db, { tokenHash: hashToken(token), email: 'o@a.example', userIds: [a.users.o], accountId: a.id, userId: a.users.o, csrfToken: csrf });
    const r = await fetch(`${servers[0].baseUrl}/hub/api/keys/${a.key_ids.k3}/revoke`, {
      method: 'POST',
      headers: { cookie: `${SESSION_COOKIE}=${token}`, [CSRF_HEADER]: csrf, origin: servers[0].baseUrl },
    });
    expect(r.status, await r.text()).toBe(200);
    const after = await Promise.all(servers.map((s) => status(s, a.keys.k3)));
    expect(after).toEqual([{ status: 401, code: 'api_key_revoked' }, { status: 401, code: 'api_key_revoked' }]);
  });

  it('a stalled server holds the revoke up until its lease passes, then does not answer from its cache', { timeout: 60_000 }, async () => {
    await warm(a.keys.k4);
    const stalled = servers[1];
    stalled.child.kill('SIGSTOP');
    let resumed = false;
    const resume = () => {
      if (!resumed) stalled.child.kill('SIGCONT');
      resumed = true;
    };
    try {
      const started = performance.now();
      await cli('keys', 'revoke', '--account', a.id, '--key', a.key_ids.k4);
      // The CLI waited for the stalled member's lease (from its last renewal, at most a heartbeat,
      // a fifth of the lease, before the stop), and not for ever.
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThan(LEASE_MS * 0.8 - 1_000);
      expect(waited).toBeLessThan(LEASE_MS * 2);
      expect(await status(servers[0], a.keys.k4)).toEqual({ status: 401, code: 'api_key_revoked' });
      // Its first request after resuming is already waiting when it resumes, beside the NOTIFY it
      // missed: it must not be answered from the cache (its lease lapsed while it was stopped).
      const first = status(stalled, a.keys.k4);
      await new Promise((r) => setTimeout(r, 300));
      resume();
      expect(await first).toEqual({ status: 401, code: 'api_key_revoked' });
    } finally {
      resume();
    }
  });
});
