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
function make(shared: WindowCounter, opts: Partial<ConstructorParameters<typeof FallbackCounter>[1]> = {}) {
  const rec = recordingLog();
  const c = new FallbackCounter(shared, { store: 'test', timeoutMs: 30, log: rec.log, ...opts });
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
  it('a hit not answered within the timeout is answered from the own count; the late answer is discarded', async () => {
    const store = new HeldStore();
    const { c, warns } = make(store, { timeoutMs: 30 });
    const first = c.hit('k:a');
    store.calls[0].resolve({ count: 7, resetMs: 1_000 });
    expect((await first).count).toBe(7);
    const second = await c.hit('k:a'); // never answered: without the fallback this waits forever
    expect(second.count).toBe(2); // the own count: both hits of this process, nothing twice
    store.calls[1].resolve({ count: 8, resetMs: 1_000 }); // late: discarded
    expect(c.health()).toBe('degraded');
    expect(warns()).toBe(1);
    expect((await c.hit('k:a')).count).toBe(3); // degraded: at once, from the own count
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
