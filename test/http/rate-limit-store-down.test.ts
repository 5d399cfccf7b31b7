// A shared rate-limit store that cannot be reached: /v1 requests are still answered (never 500),
// limited by each process's own count; /readyz stays 200 and says "rate_limits": "degraded"; one
// warning a minute at most. Redis on a closed port, and on a port that accepts connections and
// never answers. A real Redis cut and restored: rate-limit-store-down.redis.test.ts; the
// PostgreSQL counter table locked: rate-limit-store-down.postgres.test.ts.
import { describe, expect, it } from 'vitest';
import { awaitFreshWindow } from '../helpers/process.js';
import { blackHole, closedPort, expectLimitedOnItsOwn, expectOneWarning, readyz, storeDownHarness, until } from './rate-limit-store-down-support.js';

const { freshKey, appOn } = storeDownHarness();

describe('Redis that cannot be reached', () => {
  it('a closed port: requests are answered and limited per process, /readyz 200 degraded, one warning', async () => {
    const key = await freshKey();
    const logged = await appOn('redis', `redis://127.0.0.1:${await closedPort()}`);
    await awaitFreshWindow(15_000);
    await expectLimitedOnItsOwn(logged.app, key);
    expect(await readyz(logged.app)).toMatchObject({ status: 200, body: { status: 'ready', rate_limits: 'degraded' } });
    expectOneWarning(logged, 'redis', /^Redis is not connected \(connect ECONNREFUSED/);
  });

  it('a port that accepts connections and never answers: the same, without waiting on it', async () => {
    const hole = await blackHole();
    try {
      const key = await freshKey();
      const logged = await appOn('redis', hole.url);
      await awaitFreshWindow(15_000);
      await expectLimitedOnItsOwn(logged.app, key);
      expect(await readyz(logged.app)).toMatchObject({ status: 200, body: { status: 'ready', rate_limits: 'degraded' } });
      expectOneWarning(logged, 'redis', /^Redis is not connected/);
      // The silent connection is dropped (after 10 × the timeout, at least 1 s) and another tried.
      await until('a new connection', async () => hole.connections(), (c) => c >= 2);
    } finally {
      await hole.close();
    }
  });
});
