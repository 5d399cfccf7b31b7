// Draining, as a load balancer sees it: from the first SIGTERM /readyz answers 503 while the
// listener keeps answering for SWITCHBOARD_DRAIN_DELAY_MS (answers then say Connection: close);
// only after that are connections refused, and the process exits 0. A client polling /readyz so
// sees 503 before the first refused connection.
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/db.js';
import { startServer } from '../helpers/process.js';
import { untilExit } from '../helpers/progress.js';
import { storeAndFolder } from '../helpers/store-and-folder.js';

const file = storeAndFolder('sb-drain-');

type Look = { status: number; body: string; connection: string | undefined } | { refused: true };

/** One GET on a fresh connection: its status, body and Connection header, or that it was refused. */
function get(url: string): Promise<Look> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += String(d)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET' ? resolve({ refused: true }) : reject(err)));
  });
}

describe('draining on SIGTERM', () => {
  it('answers /readyz 503 while still serving, then closes, then exits 0', async () => {
    const store: Record<string, string> = onPostgres() ? { DATABASE_URL: file.t.url! } : { SWITCHBOARD_DATA_DIR: path.join(file.tmp, 'data') };
    const s = await startServer({ ...store, SWITCHBOARD_DRAIN_DELAY_MS: '1500', LOG_LEVEL: 'info' });
    expect((await get(`${s.baseUrl}/readyz`)) as { status: number }).toMatchObject({ status: 200 });

    s.child.kill('SIGTERM');
    const looks: Look[] = [];
    let served: Look | null = null;
    for (;;) {
      const look = await get(`${s.baseUrl}/readyz`);
      looks.push(look);
      if ('refused' in look) break;
      // While draining, an ordinary request is still answered, and told to reconnect elsewhere.
      if (look.status === 503 && !served) served = await get(`${s.baseUrl}/v1/workflows`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const code = (await untilExit(s.child, { what: 'serve to exit after draining', output: s.output })).code;
    expect(code).toBe(0);

    const statuses = looks.map((l) => ('refused' in l ? 'refused' : l.status));
    // 200s until the signal is handled, then only 503s, then refused: never a 200 after a 503.
    const first503 = statuses.indexOf(503);
    expect(first503, statuses.join(',')).toBeGreaterThanOrEqual(0);
    expect(statuses.slice(first503).every((x) => x === 503 || x === 'refused'), statuses.join(',')).toBe(true);
    expect(statuses.at(-1)).toBe('refused');
    const draining = looks[first503] as { body: string; connection: string | undefined };
    expect(JSON.parse(draining.body)).toMatchObject({ status: 'draining', reason: 'the process is shutting down; send new requests elsewhere' });
    expect(draining.connection).toBe('close');
    expect(served).toMatchObject({ status: 401, connection: 'close' });
    expect(s.output()).toContain('"msg":"draining: /readyz answers 503 while requests are still served"');
  }, 180_000);
});
