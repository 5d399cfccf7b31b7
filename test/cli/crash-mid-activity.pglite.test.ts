// Kill -9 the embedded server while it is serving API requests and operator commands (keys
// created and revoked through its admin socket), restart it on the same data dir: it starts, and
// every answer it had given is still true.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, runCli, startServer, type ServerProcess } from '../helpers/process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-crash-'));
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = runCli(args, { SWITCHBOARD_DATA_DIR: dir });
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  return { code: await exited(child), stdout };
}

async function answer(baseUrl: string, key: string): Promise<string> {
  const r = await fetch(`${baseUrl}/v1/workflows`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await r.json()) as { error?: { code: string } };
  return body.error?.code ?? String(r.status);
}

describe('crash while serving (embedded store)', () => {
  // The admin socket and the single-owner data dir exist only on the embedded store.
  it('every answer given before kill -9 holds after the restart', { timeout: 240_000 }, async () => {
    const env = { SWITCHBOARD_DATA_DIR: dir };
    const first = await startServer(env);
    servers.push(first);
    const seeded = await cli(['seed', path.join(ROOT, 'test/fixtures/fixture-format.json'), '--json']);
    expect(seeded.code).toBe(0);
    const acme = JSON.parse(seeded.stdout).accounts.acme as { id: string; users: Record<string, string>; keys: Record<string, string> };

    // Operator commands and API traffic run side by side until the kill; only the answers that
    // came back complete before the kill are recorded.
    const created: { id: string; key: string }[] = [];
    const revoked: { id: string; key: string }[] = [];
    let stop = false;
    const operator = (async () => {
      for (let i = 0; !stop && i < 40; i++) {
        const c = await cli(['keys', 'create', '--account', acme.id, '--by', acme.users.olivia, '--name', `k${i}`, '--scopes', 'workflows:read', '--json']);
        if (stop || c.code !== 0) break;
        const k = JSON.parse(c.stdout) as { id: string; key: string };
        if (i % 2 === 1) {
          const r = await cli(['keys', 'revoke', '--account', acme.id, '--key', k.id]);
          if (stop || r.code !== 0) {
            created.push(k); // reported created; its revocation was never confirmed
            break;
          }
          revoked.push(k);
        } else {
          created.push(k);
        }
      }
    })();
    const traffic = (async () => {
      let served = 0;
      while (!stop) {
        try {
          if ((await answer(first.baseUrl, acme.keys.integration)) === '200') served++;
        } catch {
          break; // the server is gone
        }
      }
      return served;
    })();

    // Kill once a few commands have been answered, in the middle of whatever comes next.
    const deadline = Date.now() + 120_000;
    while (created.length + revoked.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    first.child.kill('SIGKILL');
    stop = true;
    await exited(first.child);
    await operator;
    expect(await traffic).toBeGreaterThan(0);
    expect(created.length).toBeGreaterThanOrEqual(2);
    expect(revoked.length).toBeGreaterThanOrEqual(1);

    const second = await startServer(env);
    servers.push(second);
    for (const k of created) expect(await answer(second.baseUrl, k.key)).toBe('200');
    for (const k of revoked) expect(await answer(second.baseUrl, k.key)).toBe('api_key_revoked');
    expect(await answer(second.baseUrl, acme.keys.integration)).toBe('200');
    expect(await second.stop()).toBe(0);
  });
});
