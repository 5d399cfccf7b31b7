// The run both late-rate-limit-store files make: a shared store (the real one, wrapped) that
// answers late from the window's 100th hit on, the window's first 40 requests served by a process
// that then stops and the rest by the next one; the team key (120 a minute) must still be refused
// its 121st request of the window.
import { expect } from 'vitest';
import { configWith } from '../../src/config.js';
import type { Db } from '../../src/db/db.js';
import type { App } from '../../src/http/app.js';
import type { Hit, PeekableCounter } from '../../src/limits/window-counter.js';
import { createApp } from '../../src/server.js';
import { awaitFreshWindow } from '../helpers/process.js';
import { account, bearer, seed } from './fixtures.js';

const TEAM_LIMIT = 120;
const LATE_FROM = 100;
const BEFORE_RESTART = 40;

/** The shared store's hits, counted across every process in the test; from the `from`th on, answers are held. */
class LateFrom {
  hits = 0;
  private held: (() => void)[] = [];
  constructor(private readonly from: number) {}

  wrap(store: PeekableCounter): PeekableCounter {
    return {
      hit: (key: string): Promise<Hit> => {
        const nth = ++this.hits;
        const answer = store.hit(key);
        if (nth < this.from) return answer;
        return answer.then((h) => new Promise<Hit>((resolve) => this.held.push(() => resolve(h))));
      },
      peek: (key) => store.peek(key),
      close: () => store.close(),
    };
  }

  /** Lets the held answers through: late, the requests they were for have been answered. */
  release(): void {
    for (const r of this.held.splice(0)) r();
  }
}

async function teamKey(db: Db, ref: string): Promise<string> {
  const a = await seed(db, account(ref, { tier: 'team' }));
  return a[ref].keys.main;
}

/** The window's requests through two processes in turn (see the file comments); the 121st must be refused. */
export async function lateStoreRun(db: Db, store: 'postgres' | 'redis', redisUrl: string | null, ref: string): Promise<void> {
  const key = await teamKey(db, ref);
  const late = new LateFrom(LATE_FROM);
  // The default deadline (SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS): the store's answers come after it.
  const config = configWith({ rateLimitStore: store, redisUrl });
  const before = await createApp(config, db, { wrapCounterStore: (s) => late.wrap(s) });
  const after = await createApp(config, db, { wrapCounterStore: (s) => late.wrap(s) });
  const statuses: number[] = [];
  const remaining: string[] = [];
  try {
    await awaitFreshWindow(30_000);
    const get = async (app: App) => {
      const res = await app.inject({ method: 'GET', url: '/v1/workflows', headers: bearer(key) });
      late.release();
      statuses.push(res.statusCode);
      remaining.push(String(res.headers['ratelimit-remaining']));
    };
    for (let i = 0; i < BEFORE_RESTART; i++) await get(before);
    await before.close();
    for (let i = BEFORE_RESTART; i < TEAM_LIMIT + 2; i++) await get(after);
  } finally {
    await after.close();
  }
  expect(late.hits).toBeGreaterThanOrEqual(LATE_FROM); // the store did turn late
  expect(statuses.slice(0, TEAM_LIMIT)).toEqual(Array(TEAM_LIMIT).fill(200));
  expect(statuses.slice(TEAM_LIMIT)).toEqual([429, 429]); // the 121st and 122nd of the window
  expect(remaining.slice(95, TEAM_LIMIT)).toEqual(Array.from({ length: 25 }, (_, i) => String(TEAM_LIMIT - 96 - i)));
}
