// Several API instances sharing one store must share one rate-limit count per key: two app
// instances over the same store, counting through the store-backed counter, on either store; and
// two counting through Redis. Two real processes on PostgreSQL: shared-rate-limit-processes.postgres.test.ts.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { seedFixture } from '../../src/fixtures/load.js';
import type { App } from '../../src/http/app.js';
import { createApp } from '../../src/server.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { expectOneCount, fixture, hammer } from './shared-rate-limit-support.js';

let t: TestDb;
let key = '';

beforeAll(async () => {
  t = await freshDb();
  const seeded = await seedFixture(t.db, fixture('shared'), { erasureSecret: Buffer.from('s') });
  key = seeded.accounts.shared.keys.k;
});
afterAll(() => t?.close());

describe('one rate-limit count shared by several instances', () => {
  async function twoApps(store: 'postgres' | 'redis'): Promise<App[]> {
    const config = configWith({
      rateLimitStore: store,
      redisUrl: store === 'redis' ? 'redis://127.0.0.1:6379' : null,
      // Generous: on a loaded machine a slow answer must not be taken for a failed store.
      rateLimitTimeoutMs: 10_000,
    });
    return Promise.all([createApp(config, t.db), createApp(config, t.db)]);
  }

  async function hammerApps(apps: App[]) {
    return hammer(async (i) => {
      const r = await apps[i % 2].inject({ method: 'GET', url: '/v1/workflows', headers: { authorization: `Bearer ${key}` } });
      return { status: r.statusCode, remaining: (r.headers['ratelimit-remaining'] as string) ?? null, code: r.json().error?.code };
    });
  }

  it('two app instances counting through the store', async () => {
    const seeded = await seedFixture(t.db, fixture('store'), { erasureSecret: Buffer.from('s') });
    key = seeded.accounts.store.keys.k;
    const apps = await twoApps('postgres');
    try {
      expectOneCount(await hammerApps(apps));
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });

  it('two app instances counting through Redis', async () => {
    const seeded = await seedFixture(t.db, fixture('redis'), { erasureSecret: Buffer.from('s') });
    key = seeded.accounts.redis.keys.k;
    const apps = await twoApps('redis');
    try {
      expectOneCount(await hammerApps(apps));
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });
});
