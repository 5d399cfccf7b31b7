// Load shedding: past the heap or event-loop limit every request but /healthz gets 503 at once
// with Retry-After and the spec's body (api_error / internal_error, a request id); a single long
// block of the event loop sheds nothing, a sustained lag does, and the server answers again once
// the lag is gone.
import { afterEach, describe, expect, it } from 'vitest';
import { configWith, type Config } from '../../src/config.js';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const withLimits = (limits: Partial<Config['http']>): Partial<Config> => ({ http: Object.freeze({ ...configWith({}).http, ...limits }) });

/** Polls `probe` until it answers `want` (each look gives the event loop a turn). */
async function until(what: string, probe: () => Promise<boolean>, looks = 600): Promise<void> {
  for (let i = 0; i < looks; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never saw ${what}`);
}

const status = async (url: string) => (await t!.app.inject({ method: 'GET', url })).statusCode;

describe('load shedding', () => {
  it('past the heap limit: 503 with Retry-After and the spec body everywhere but /healthz', async () => {
    t = await testApp(withLimits({ shedHeapUsedBytes: 1, shedEventLoopDelayMs: 0 }));
    await until('a shed request', async () => (await status('/v1/workflows')) === 503);
    const res = await t.app.inject({ method: 'GET', url: '/v1/workflows', headers: { authorization: 'Bearer nope' } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    const body = res.json();
    expect(body).toEqual({ error: { type: 'api_error', code: 'internal_error', message: 'The server is overloaded; retry after 5 seconds.', request_id: res.headers['x-request-id'] } });
    expect(await status('/hub/api/session')).toBe(503);
    expect(await status('/readyz')).toBe(503);
    expect(await status('/healthz')).toBe(200);
  });

  it('off when both limits are 0', async () => {
    t = await testApp(withLimits({ shedHeapUsedBytes: 0, shedEventLoopDelayMs: 0 }));
    // Twice the windows the monitor would need to decide.
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      expect(await status('/readyz')).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('sheds while the event loop lags for two windows in a row, not for one long block, and recovers', async () => {
    t = await testApp(withLimits({ shedHeapUsedBytes: 0, shedEventLoopDelayMs: 300 }));
    const busy = (ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        // the event loop is held, as by a CPU-bound request
      }
    };
    // One block of 1.5 s: one window lags, the next does not.
    busy(1_500);
    for (let i = 0; i < 30; i++) {
      expect(await status('/readyz')).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Sustained: the loop held all the time but for the requests' own turns.
    const hog = setInterval(() => busy(500), 100);
    try {
      await until('shedding under a sustained lag', async () => (await status('/readyz')) === 503);
      expect(await status('/healthz')).toBe(200);
    } finally {
      clearInterval(hog);
    }
    await until('answers again once the lag is gone', async () => (await status('/readyz')) === 200);
  });
});
