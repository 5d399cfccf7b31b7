// A shared rate-limit store that answers late from the window's 100th hit on: the team key
// (120 a minute) is still refused its 121st request of the window, on the counter in the store
// (Redis: late-rate-limit-store.redis.test.ts). The store is the real one, wrapped so that from its
// 100th hit its answers are held until the request has been answered (past the deadline, whatever
// the deadline is).
//
// The window's first 40 requests are served by a process that then stops (a restart, a deploy);
// the next process alone serves the rest. Its own requests alone are 81 at the window's 121st:
// the count a fallback answers with must add the 40 the store had counted before it began.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { freshDb, type TestDb } from '../helpers/db.js';
import { lateStoreRun } from './late-rate-limit-store-support.js';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

describe('a shared store that answers late from the 100th hit on', () => {
  it('the PostgreSQL counter: the team key\'s 121st request of the window is refused', async () => {
    await lateStoreRun(t.db, 'postgres', null, 'pgcounter');
  }, 120_000);
});
