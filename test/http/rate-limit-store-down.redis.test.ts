// A real Redis (REDIS_TEST_URL) behind a proxy that is cut and restored, or frozen: requests fall
// back to each process's own count while it is away, one warning, and counts are shared again once
// it answers. Runs where REDIS_TEST_URL is set (the PostgreSQL leg of .ci/run; vitest.config.ts).
import { describe, expect, it } from 'vitest';
import { awaitFreshWindow } from '../helpers/process.js';
import { LIMIT, cuttableProxy, expectLimitedOnItsOwn, expectOneWarning, list, readyz, storeDownHarness, until } from './rate-limit-store-down-support.js';

const { freshKey, appOn } = storeDownHarness();

describe('Redis that goes away and comes back', () => {
  it('falls back while it is away and shares counts again once it is back', async () => {
    const redisUrl = new URL(process.env.REDIS_TEST_URL!);
    const proxy = await cuttableProxy(redisUrl);
    try {
      const key = await freshKey();
      const viaProxy = await appOn('redis', proxy.url(), 1_000);
      const direct = await appOn('redis', redisUrl.toString(), 1_000);
      await awaitFreshWindow(15_000);
      expect((await list(viaProxy.app, key)).statusCode).toBe(200);
      await until('healthy', () => readyz(viaProxy.app), (r) => r.body.rate_limits === 'ok');

      await proxy.down();
      const whileDown = await until('the fallback', () => list(viaProxy.app, key), (r) => r.statusCode === 200 && r.headers['ratelimit-remaining'] !== undefined);
      expect(whileDown.statusCode).toBe(200);
      expect(await readyz(viaProxy.app)).toMatchObject({ status: 200, body: { rate_limits: 'degraded' } });

      await proxy.up();
      await until('recovery', () => readyz(viaProxy.app), (r) => r.status === 200 && r.body.rate_limits === 'ok', 30_000);
      expect(viaProxy.storeLogs().map((l) => l.level)).toEqual([40, 30]); // one warning, one recovery note

      // Shared again: a fresh key counted alternately by both apps counts down one window.
      const other = await freshKey();
      await awaitFreshWindow(20_000);
      const remaining = [];
      for (let i = 0; i < 4; i++) {
        const r = await list(i % 2 ? viaProxy.app : direct.app, other);
        expect(r.statusCode).toBe(200);
        remaining.push(r.headers['ratelimit-remaining']);
      }
      expect(remaining).toEqual(['4', '3', '2', '1']);
    } finally {
      await proxy.close();
    }
  });

  it('a Redis that stops answering (connection open, no reply): falls back after the timeout, then recovers', async () => {
    const proxy = await cuttableProxy(new URL(process.env.REDIS_TEST_URL!));
    try {
      const key = await freshKey();
      const logged = await appOn('redis', proxy.url(), 1_000);
      await awaitFreshWindow(15_000);
      const first = await list(logged.app, key);
      expect(first.statusCode).toBe(200);
      expect(first.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
      await until('healthy', () => readyz(logged.app), (r) => r.body.rate_limits === 'ok');
      proxy.freeze();
      await expectLimitedOnItsOwn(logged.app, key, 1);
      expect(await readyz(logged.app)).toMatchObject({ status: 200, body: { status: 'ready', rate_limits: 'degraded' } });
      expectOneWarning(logged, 'redis', /no answer within 1000 ms/);
      // The stalled connection is dropped (socketTimeout) and a new one made once it answers.
      proxy.thaw();
      await until('recovery', () => readyz(logged.app), (r) => r.body.rate_limits === 'ok', 30_000);
    } finally {
      await proxy.close();
    }
  });
});
