// The pipeline's counters (docs/architecture.md §6.1 steps 3 and 7): the per-key request rate with
// its RateLimit-* headers, and the per-address failed-auth throttle. Windows are fixed 60 s windows
// on the clock (the counters read the real clock), so a test that needs one window for its whole
// sequence first waits for a new window when fewer than 10 s are left in the current one.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { generateKey } from '../../src/lib/api-keys.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from './fixtures.js';

let t: TestApp;
let a: Record<string, AccountSeedResult>;
let ip = 0;
const freshIp = () => `10.30.0.${++ip}`;

beforeAll(async () => {
  t = await testApp();
  a = await seed(
    t.db,
    account('solo', { tier: 'solo' }),
    account('team', { tier: 'team', keys: [{}, { ref: 'revoked', revoked: true }, { ref: 'expired', expires_at: '2020-01-01T00:00:00Z' }] }),
    account('business', { tier: 'business', workflows: [{ ref: 'w' }] }),
    account('enterprise', { tier: 'enterprise' }),
    account('three', { limits: { requests_per_minute: 3 }, keys: [{}, { ref: 'second' }] }),
  );
});
afterAll(() => t?.close());

beforeEach(async () => {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
});

const inject = (o: InjectOptions) => t.app.inject({ remoteAddress: freshIp(), ...o });
const list = (key: string, o: InjectOptions = {}) => inject({ method: 'GET', url: '/v1/workflows', headers: bearer(key), ...o });

function rateHeaders(res: { headers: Record<string, unknown> }) {
  const h = res.headers;
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(h[name]).toMatch(/^\d+$/);
  return { limit: Number(h['ratelimit-limit']), remaining: Number(h['ratelimit-remaining']), reset: Number(h['ratelimit-reset']) };
}

describe('per-key rate limit: headers', () => {
  it.each([
    ['solo', 60],
    ['team', 120],
    ['business', 300],
    ['enterprise', 1000],
  ] as const)('%s tier: RateLimit-Limit %i on a successful answer', async (tier, limit) => {
    const res = await list(a[tier].keys.main);
    expect(res.statusCode).toBe(200);
    const h = rateHeaders(res);
    expect(h.limit).toBe(limit);
    expect(h.remaining).toBe(limit - 1);
    expect(h.reset).toBeGreaterThanOrEqual(1);
    expect(h.reset).toBeLessThanOrEqual(60);
  });

  it('RateLimit-Remaining goes down by one per request, on both routes', async () => {
    const key = a.business.keys.main;
    const before = rateHeaders(await list(key)).remaining;
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const url = i % 2 ? '/v1/workflows' : `/v1/workflows/${a.business.workflows.w}`;
      const res = await inject({ method: 'GET', url, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      seen.push(rateHeaders(res).remaining);
    }
    expect(seen).toEqual([1, 2, 3, 4, 5].map((d) => before - d));
  });

  it('ops endpoints are not metered', async () => {
    const res = await inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe('per-key rate limit: refusals', () => {
  it('an override of 3 a minute: the 4th request → 429 rate_limited with Retry-After', async () => {
    const key = a.three.keys.main;
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await list(key);
      expect(res.statusCode).toBe(200);
      const h = rateHeaders(res);
      expect(h.limit).toBe(3);
      remaining.push(h.remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const res = await list(key);
    expectError(res, 429, 'rate_limit', 'rate_limited');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('counts per key: a second key of the same account has its own count', async () => {
    let used = 0;
    while ((await list(a.three.keys.main)).statusCode === 200) used++;
    expect(used).toBeLessThanOrEqual(3);
    const res = await list(a.three.keys.second);
    expect(res.statusCode).toBe(200);
    expect(rateHeaders(res).limit).toBe(3);
    expect(rateHeaders(res).remaining).toBe(2);
    expectError(await list(a.three.keys.main), 429, 'rate_limit', 'rate_limited');
  });

  it('the solo tier allows 60 a minute: the 61st → 429 rate_limited', async () => {
    const key = a.solo.keys.main;
    const first = rateHeaders(await list(key)).remaining;
    for (let i = first; i > 0; i--) expect((await list(key)).statusCode).toBe(200);
    const res = await list(key);
    expectError(res, 429, 'rate_limit', 'rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('failed-auth throttle (20 a minute per address)', () => {
  const wrong = () => bearer(generateKey().value);

  it('the 21st wrong-key request from one address → 429 too_many_failed_auth; a valid key from it still works', async () => {
    const addr = '192.0.2.10';
    for (let i = 0; i < 20; i++) {
      expectError(await list('', { headers: wrong(), remoteAddress: addr }), 401, 'authentication', 'invalid_api_key');
    }
    const res = await list('', { headers: wrong(), remoteAddress: addr });
    expectError(res, 429, 'rate_limit', 'too_many_failed_auth');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // no key at all is a wrong-key request too
    expectError(await inject({ method: 'GET', url: '/v1/workflows', remoteAddress: addr }), 429, 'rate_limit', 'too_many_failed_auth');
    const ok = await list(a.enterprise.keys.main, { remoteAddress: addr });
    expect(ok.statusCode).toBe(200);
  });

  it('addresses are counted separately', async () => {
    const [x, y] = ['192.0.2.20', '192.0.2.21'];
    for (let i = 0; i < 21; i++) await list('', { headers: wrong(), remoteAddress: x });
    expectError(await list('', { headers: wrong(), remoteAddress: x }), 429, 'rate_limit', 'too_many_failed_auth');
    expectError(await list('', { headers: wrong(), remoteAddress: y }), 401, 'authentication', 'invalid_api_key');
  });

  it('revoked, expired and malformed keys count as wrong keys', async () => {
    const addr = '192.0.2.30';
    const kinds = [bearer(a.team.keys.revoked), bearer(a.team.keys.expired), { authorization: 'Bearer nope' }, {}];
    for (let i = 0; i < 20; i++) {
      const res = await list('', { headers: kinds[i % kinds.length], remoteAddress: addr });
      expect(res.statusCode).toBe(401);
    }
    expectError(await list('', { headers: bearer(a.team.keys.revoked), remoteAddress: addr }), 429, 'rate_limit', 'too_many_failed_auth');
  });

  it('a spoofed X-Forwarded-For does not dodge the throttle (no trusted proxy)', async () => {
    const addr = '192.0.2.40';
    for (let i = 0; i < 20; i++) {
      await list('', { headers: { ...wrong(), 'x-forwarded-for': `203.0.113.${i + 1}` }, remoteAddress: addr });
    }
    const res = await list('', { headers: { ...wrong(), 'x-forwarded-for': '203.0.113.200' }, remoteAddress: addr });
    expectError(res, 429, 'rate_limit', 'too_many_failed_auth');
  });
});

describe('failed-auth throttle behind a trusted proxy', () => {
  let p: TestApp;
  beforeAll(async () => {
    p = await testApp({ trustProxy: ['10.99.0.1'] });
  });
  afterAll(() => p?.close());

  const hit = (remoteAddress: string, xff: string) =>
    p.app.inject({ method: 'GET', url: '/v1/workflows', remoteAddress, headers: { ...bearer(generateKey().value), 'x-forwarded-for': xff } });

  it('counts the client address the trusted proxy forwards, and only from that proxy', async () => {
    for (let i = 0; i < 21; i++) await hit('10.99.0.1', '198.51.100.1');
    expectError(await hit('10.99.0.1', '198.51.100.1'), 429, 'rate_limit', 'too_many_failed_auth');
    // another client behind the same proxy has its own count
    expectError(await hit('10.99.0.1', '198.51.100.2'), 401, 'authentication', 'invalid_api_key');
    // an untrusted peer claiming to forward for the throttled client is counted as itself
    expectError(await hit('10.99.0.2', '198.51.100.1'), 401, 'authentication', 'invalid_api_key');
  });
});
