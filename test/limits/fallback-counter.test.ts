// FallbackCounter over a shared store that fails, stalls or answers late. The shared side here is
// a WindowCounter whose answers the test controls (the real stores are in
// test/http/rate-limit-store-down.test.ts); the own count is the real MemoryCounter.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FallbackCounter, type CounterLog } from '../../src/limits/fallback-counter.js';
import type { Hit, WindowCounter } from '../../src/limits/window-counter.js';

/** A shared store whose every hit waits until the test settles it. */
class HeldStore implements WindowCounter {
  readonly calls: { key: string; resolve: (h: Hit) => void; reject: (e: Error) => void }[] = [];
  closed = false;
  hit(key: string): Promise<Hit> {
    return new Promise((resolve, reject) => this.calls.push({ key, resolve, reject }));
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A shared store that always fails at once (Redis with no connection and no offline queue). */
class DownStore implements WindowCounter {
  calls = 0;
  async hit(): Promise<Hit> {
    this.calls++;
    throw new Error('Stream isn\'t writeable and enableOfflineQueue options is false');
  }
  async close(): Promise<void> {}
}

function recordingLog() {
  const lines: { level: 'warn' | 'info'; obj: object; msg: string }[] = [];
  const log: CounterLog = {
    warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }),
    info: (obj, msg) => lines.push({ level: 'info', obj, msg }),
  };
  return { lines, log, warns: () => lines.filter((l) => l.level === 'warn').length };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(5);
  }
}

const counters: FallbackCounter[] = [];
/**
 * A clock that runs at the real rate (the counter's timeouts are real timers) but starts one second
 * into a minute: counts are kept per minute, so a test that crossed a minute of the wall clock
 * would see its key start again at 1 (it did, once in a CI run).
 */
function clockInsideAMinute(): () => number {
  const startedAt = Date.now();
  const base = Math.floor(startedAt / 60_000) * 60_000 + 1_000;
  return () => base + (Date.now() - startedAt);
}

function make(shared: WindowCounter, opts: Partial<ConstructorParameters<typeof FallbackCounter>[1]> = {}) {
  const rec = recordingLog();
  const c = new FallbackCounter(shared, { store: 'test', timeoutMs: 30, log: rec.log, now: clockInsideAMinute(), ...opts });
  counters.push(c);
  return { c, ...rec };
}
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(counters.splice(0).map((c) => c.close()));
});

describe('a healthy shared store', () => {
  it('answers with the shared count, and health is ok', async () => {
    const store = new HeldStore();
    const { c, lines } = make(store);
    const p = c.hit('k:1');
    store.calls[0].resolve({ count: 41, resetMs: 5_000 });
    expect(await p).toEqual({ count: 41, resetMs: 5_000 });
    expect(c.health()).toBe('ok');
    expect(lines).toEqual([]);
  });

  it('uses one timer for all the hits in flight, not one per hit', async () => {
    const store = new HeldStore();
    const { c } = make(store, { timeoutMs: 5_000 });
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const hits = Array.from({ length: 100 }, (_, i) => c.hit(`k:${i % 7}`));
    expect(timers.mock.calls.length).toBeLessThanOrEqual(1);
    store.calls.forEach((call, i) => call.resolve({ count: i + 1, resetMs: 1_000 }));
    expect((await Promise.all(hits)).map((h) => h.count)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });
});

describe('a store that fails', () => {
  it('answers from the process\'s own count, which still enforces the window', async () => {
    const { c } = make(new DownStore());
    const counts = [];
    for (let i = 0; i < 5; i++) counts.push((await c.hit('k:a')).count);
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    expect((await c.hit('k:b')).count).toBe(1); // keys counted apart
    expect(c.health()).toBe('degraded');
  });

  it('warns at most once a minute, however many hits fail', async () => {
    let now = 1_000_000;
    const store = new DownStore();
    const { c, warns, lines } = make(store, { now: () => now, probeEveryMs: 1_000 });
    for (let i = 0; i < 120; i++) {
      await c.hit('k:a');
      now += 500; // 60 s of traffic, two hits a second, a probe every second
    }
    expect(store.calls).toBeGreaterThan(20); // it kept probing ...
    expect(warns()).toBe(1); // ... and said so once
    expect(lines[0].obj).toMatchObject({ rate_limit_store: 'test', timeout_ms: 30 });
    expect(lines[0].obj).toHaveProperty('reason', expect.stringContaining('enableOfflineQueue'));
    // While degraded, the store is not asked on every hit: one probe a second at most.
    expect(store.calls).toBeLessThanOrEqual(62);
    now += 1_000;
    await c.hit('k:a');
    await sleep(0);
    expect(warns()).toBe(2); // a minute later, still down: one more
  });
});

describe('a store that stalls or answers late', () => {
  it('a hit not answered within the timeout is answered from what the store said plus this process\'s hits since', async () => {
    const store = new HeldStore();
    const { c, warns } = make(store, { timeoutMs: 30 });
    const first = c.hit('k:a');
    store.calls[0].resolve({ count: 7, resetMs: 1_000 }); // 6 hits from elsewhere, then this one
    expect((await first).count).toBe(7);
    const second = await c.hit('k:a'); // never answered: without the fallback this waits forever
    expect(second.count).toBe(8); // 6 from elsewhere + both hits of this process, nothing twice
    store.calls[1].resolve({ count: 8, resetMs: 1_000 }); // late: answers nobody
    expect(c.health()).toBe('degraded');
    expect(warns()).toBe(1);
    expect((await c.hit('k:a')).count).toBe(9); // degraded: at once, from what this process knows
  });

  it('goes back to shared counts once a probe is answered within the timeout', async () => {
    const store = new HeldStore();
    const { c, lines } = make(store, { timeoutMs: 30, probeEveryMs: 20 });
    void c.hit('k:a'); // stalls
    await until(() => c.health() === 'degraded');
    // A probe answered too late does not end the fallback (a slow store, not a down one).
    await until(() => (c.health(), store.calls.length >= 2));
    await sleep(60);
    store.calls[1].resolve({ count: 2, resetMs: 1_000 });
    await sleep(30);
    expect(c.health()).toBe('degraded');
    // The next probe is answered at once: shared again.
    await until(() => (c.health(), store.calls.length >= 3));
    store.calls[2].resolve({ count: 3, resetMs: 1_000 });
    await until(() => c.health() === 'ok');
    const p = c.hit('k:a');
    store.calls[3].resolve({ count: 4, resetMs: 1_000 });
    expect((await p).count).toBe(4);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
  });

  it('close answers the hits still waiting and closes the store', async () => {
    const store = new HeldStore();
    const { c } = make(store, { timeoutMs: 10_000 });
    const p = c.hit('k:a');
    await c.close();
    expect((await p).count).toBe(1);
    expect(store.closed).toBe(true);
  });
});

describe('the count a fallback answers with', () => {
  it('a store late from the 100th hit on: the 121st hit of the window counts 121, with 40 of them from elsewhere', async () => {
    const store = new HeldStore();
    const { c } = make(store, { timeoutMs: 30, probeEveryMs: 60_000 });
    const counts: number[] = [];
    // Hits 41..99 of the window, answered in time: the store had 40 before this process began.
    for (let n = 41; n <= 99; n++) {
      const p = c.hit('k:team');
      store.calls[store.calls.length - 1].resolve({ count: n, resetMs: 30_000 });
      counts.push((await p).count);
    }
    // From the 100th on the store is late: the first waits out the deadline, the rest are degraded.
    for (let n = 100; n <= 122; n++) counts.push((await c.hit('k:team')).count);
    expect(counts).toEqual(Array.from({ length: 82 }, (_, i) => 41 + i));
    expect(counts[121 - 41]).toBe(121); // over 120: refused
    expect(c.stats()).toMatchObject({ fallbacks: 23 });
  });

  it('a late answer never lowers the count', async () => {
    const store = new HeldStore();
    const { c } = make(store, { timeoutMs: 30, probeEveryMs: 20 });
    const a = c.hit('k:a');
    store.calls[0].resolve({ count: 50, resetMs: 1_000 }); // 49 from elsewhere
    expect((await a).count).toBe(50);
    expect((await c.hit('k:a')).count).toBe(51); // times out: 49 + 2
    // The late answer says less than was answered (the store lost its count: a Redis restart).
    store.calls[1].resolve({ count: 1, resetMs: 1_000 });
    expect((await c.hit('k:a')).count).toBe(52);
    // Back in time with a low count: answered with what this process knows, not the store's 2.
    await until(() => (c.health(), store.calls.length >= 3));
    store.calls[2].resolve({ count: 2, resetMs: 1_000 });
    await until(() => c.health() === 'ok');
    const p = c.hit('k:a');
    store.calls[3].resolve({ count: 3, resetMs: 1_000 });
    expect((await p).count).toBe(53); // 49 from elsewhere + this process's 4
    expect((await c.peek('k:a')).count).toBe(53);
  });

  it('a late answer that says more than was known raises the count of the hits after it', async () => {
    const store = new HeldStore();
    const { c } = make(store, { timeoutMs: 30, probeEveryMs: 60_000 });
    expect((await c.hit('k:a')).count).toBe(1); // times out: nothing known from elsewhere
    store.calls[0].resolve({ count: 30, resetMs: 1_000 }); // late: 29 hits from elsewhere before it
    await until(() => c.stats().answers === 1);
    expect((await c.hit('k:a')).count).toBe(31);
    expect((await c.peek('k:a')).count).toBe(31);
  });

  it('keys are counted apart, and a key\'s count starts again with its window', async () => {
    let now = 60_000 * 1_000 + 1_000;
    const store = new HeldStore();
    const { c } = make(store, { timeoutMs: 30, probeEveryMs: 60_000, now: () => now });
    const a = c.hit('k:a');
    store.calls[0].resolve({ count: 10, resetMs: 59_000 });
    expect((await a).count).toBe(10);
    const b = c.hit('k:b');
    store.calls[1].resolve({ count: 3, resetMs: 59_000 });
    expect((await b).count).toBe(3);
    now += 60_000; // the next window
    const next = c.hit('k:a');
    now += 100; // past the deadline when the (real) timer fires
    expect((await next).count).toBe(1); // not 11: the 10 were the last window's
    expect(c.stats().fallbacks).toBe(1);
  });
});

describe('the store\'s answer times', () => {
  it('are summed up in a histogram logged at close, with the fallbacks', async () => {
    let now = 1_000_000;
    const store = new HeldStore();
    const { c, lines } = make(store, { timeoutMs: 1_000, now: () => now });
    for (let i = 0; i < 100; i++) {
      const p = c.hit('k:a');
      now += i < 98 ? 5 : 400; // 98 answers in 5 ms, 2 in 400 ms
      store.calls[i].resolve({ count: i + 1, resetMs: 1_000 });
      await p;
    }
    expect(c.stats()).toEqual({ answers: 100, p50_ms: 5, p90_ms: 5, p99_ms: 400, max_ms: 400, late: 0, failed: 0, fallbacks: 0 });
    await c.close();
    const line = lines.find((l) => l.msg.includes('answer times'));
    expect(line?.level).toBe('info');
    expect(line?.obj).toMatchObject({ rate_limit_store: 'test', timeout_ms: 1_000, answers: 100, p99_ms: 400, fallbacks: 0 });
  });
});
