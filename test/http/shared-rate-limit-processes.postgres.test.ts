// Two real `serve` processes on one PostgreSQL database share one rate-limit count per key (the
// store-backed counter). In-process instances, on either store and through Redis: shared-rate-limit.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixture } from '../../src/fixtures/load.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { startServer, type ServerProcess } from '../helpers/process.js';
import { expectOneCount, fixture, hammer } from './shared-rate-limit-support.js';

let t: TestDb;
let key = '';
beforeAll(async () => {
  t = await freshDb();
  const seeded = await seedFixture(t.db, fixture('shared'), { erasureSecret: Buffer.from('s') });
  key = seeded.accounts.shared.keys.k;
});
afterAll(() => t?.close());

describe('one rate-limit count shared by several processes', () => {
  it('two serve processes on one PostgreSQL database', async () => {
    // A generous store timeout: on a loaded machine a slow answer must not be taken for a failed
    // store (which would count per process; test/http/rate-limit-store-down.test.ts covers that).
    const env = {
      DATABASE_URL: t.url!,
      SWITCHBOARD_RATE_LIMIT_STORE: 'postgres',
      SWITCHBOARD_AUTO_MIGRATE: 'false',
      SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS: '10000',
    };
    const servers: ServerProcess[] = await Promise.all([startServer(env), startServer(env)]);
    try {
      const res = await hammer(async (i) => {
        const r = await fetch(`${servers[i % 2].baseUrl}/v1/workflows`, { headers: { authorization: `Bearer ${key}` } });
        const body = (await r.json()) as { error?: { code: string } };
        return { status: r.status, remaining: r.headers.get('ratelimit-remaining'), code: body.error?.code };
      });
      expectOneCount(res);
    } finally {
      expect(await Promise.all(servers.map((s) => s.stop()))).toEqual([0, 0]);
    }
  }, 180_000); // two process starts on a loaded machine
});
