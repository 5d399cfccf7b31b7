// Several API processes sharing one store must share one rate-limit count per key. On
// PostgreSQL: two real `serve` processes on the same database. On PGlite (one process owns the
// store): two app instances over the same store, counting through the store-backed counter.
// With Redis: two app instances counting through Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { seedFixture } from '../../src/fixtures/load.js';
import type { App } from '../../src/http/app.js';
import { createApp } from '../../src/server.js';
import { freshDb, onPostgres, type TestDb } from '../helpers/db.js';
import { awaitFreshWindow, startServer, type ServerProcess } from '../helpers/process.js';

const LIMIT = 10;
let t: TestDb;
let key = '';

function fixture(ref: string) {
  return {
    accounts: [
      {
        ref,
        name: 'Shared limits',
        limits: { requests_per_minute: LIMIT },
        users: [{ ref: 'o', email: `o@${ref}.example`, role: 'owner', password: 'long enough password', name: 'O' }],
        keys: [{ ref: 'k', name: 'k', scopes: ['workflows:read'] }],
      },
    ],
  };
}

beforeAll(async () => {
  t = await freshDb();
  const seeded = await seedFixture(t.db, fixture('shared'), { erasureSecret: Buffer.from('s') });
  key = seeded.accounts.shared.keys.k;
});
afterAll(() => t?.close());

type Get = (i: number) => Promise<{ status: number; remaining: string | null; code?: string }>;

async function hammer(get: Get): Promise<{ statuses: number[]; remaining: (string | null)[] }> {
  await awaitFreshWindow();
  const statuses: number[] = [];
  const remaining: (string | null)[] = [];
  for (let i = 0; i < LIMIT + 3; i++) {
    const r = await get(i);
    statuses.push(r.status);
    remaining.push(r.remaining);
    if (r.status === 429) expect(r.code).toBe('rate_limited');
  }
  return { statuses, remaining };
}

function expectOneCount(res: { statuses: number[]; remaining: (string | null)[] }) {
  expect(res.statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
  expect(res.statuses.slice(LIMIT)).toEqual([429, 429, 429]);
  // Remaining counts down across both processes: one shared window.
  expect(res.remaining.slice(0, LIMIT)).toEqual(Array.from({ length: LIMIT }, (_, i) => String(LIMIT - 1 - i)));
}

describe('one rate-limit count shared by several processes', () => {
  it.runIf(onPostgres())('two serve processes on one PostgreSQL database', async () => {
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

  async function twoApps(store: 'postgres' | 'redis'): Promise<App[]> {
    const config = configWith({
      rateLimitStore: store,
      redisUrl: store === 'redis' ? 'redis://127.0.0.1:6379' : null,
      rateLimitTimeoutMs: 10_000, // as above: slow is not failed here
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
