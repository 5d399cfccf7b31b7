// The late-answering shared store of late-rate-limit-store.test.ts, on Redis (REDIS_TEST_URL; the
// PostgreSQL leg of .ci/run sets it): the team key is still refused its 121st request of the window.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { freshDb, type TestDb } from '../helpers/db.js';
import { lateStoreRun } from './late-rate-limit-store-support.js';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

describe('a shared store that answers late from the 100th hit on', () => {
  it('Redis: the team key\'s 121st request of the window is refused', async () => {
    await lateStoreRun(t.db, 'redis', process.env.REDIS_TEST_URL!, 'redis');
  }, 120_000);
});
