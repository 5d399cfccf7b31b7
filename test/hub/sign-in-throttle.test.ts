// The sign-in throttle's rules (src/hub/session/throttle.ts) over each counter a deployment can
// use: the process's memory, PostgreSQL's table (PGlite, or PostgreSQL under TEST_DATABASE_URL)
// and Redis (with REDIS_TEST_URL), each behind the FallbackCounter serve puts in front of a shared
// store. Each counter runs on a fixed clock, so every count falls in one window whatever the time.
// The HTTP side (the route holding an attempt, 429 and Retry-After) is in session.test.ts.
import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import {
  SIGN_IN_DELAY_MAX_MS,
  SIGN_IN_DELAY_MIN_MS,
  SIGN_IN_FAILURES_PER_ADDRESS,
  SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS,
  SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY,
} from '../../src/domain/hub.js';
import { addressBucket, admitSignIn, signInDelayMs, type SignInAdmission } from '../../src/hub/session/throttle.js';
import { FallbackCounter } from '../../src/limits/fallback-counter.js';
import { MemoryCounter, PostgresCounter, RedisCounter, type PeekableCounter } from '../../src/limits/window-counter.js';
import { freshDb, type TestDb } from '../helpers/db.js';

/** Mid-window, far from any minute boundary: the counts of a test all land in one window. */
const FIXED_NOW = () => 1_700_000_010_000;
const quiet = { warn: () => {}, info: () => {} };

let tdb: TestDb;
const closers: (() => Promise<void>)[] = [];
const stores: [string, () => Promise<PeekableCounter>][] = [
  ['memory', async () => new MemoryCounter(FIXED_NOW)],
  ['postgres', async () => new FallbackCounter(new PostgresCounter(tdb.db, FIXED_NOW), { store: 'postgres', timeoutMs: 5_000, log: quiet, now: FIXED_NOW })],
];
if (process.env.REDIS_TEST_URL) {
  stores.push([
    'redis',
    async () => {
      const { Redis } = await import('ioredis');
      const redis = new Redis(process.env.REDIS_TEST_URL!, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
      const counter = new RedisCounter(redis, FIXED_NOW);
      await counter.connected(5_000);
      closers.push(() => counter.close());
      return new FallbackCounter(counter, { store: 'redis', timeoutMs: 5_000, log: quiet, now: FIXED_NOW });
    },
  ]);
}

beforeAll(async () => {
  tdb = await freshDb();
});
afterAll(async () => {
  for (const c of closers) await c();
  await tdb?.close();
});

/** A sign-in that fails (the route counts nothing more for a wrong password), or the refusal. */
async function fail(counter: PeekableCounter, email: string, address: string): Promise<SignInAdmission | ApiError> {
  try {
    return await admitSignIn(counter, email, address);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}
const refused = (r: SignInAdmission | ApiError): r is ApiError => r instanceof ApiError;

describe('the delay for distributed guessing', () => {
  it('starts past the per-email threshold, doubles every ten failures more, and stops at its cap', () => {
    const t = SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY;
    expect(signInDelayMs(0)).toBe(0);
    expect(signInDelayMs(t)).toBe(0);
    expect(signInDelayMs(t + 1)).toBe(SIGN_IN_DELAY_MIN_MS);
    expect(signInDelayMs(t + 10)).toBe(SIGN_IN_DELAY_MIN_MS);
    expect(signInDelayMs(t + 11)).toBe(2 * SIGN_IN_DELAY_MIN_MS);
    expect(signInDelayMs(t + 31)).toBe(8 * SIGN_IN_DELAY_MIN_MS);
    expect(signInDelayMs(t + 41)).toBe(SIGN_IN_DELAY_MAX_MS);
    expect(signInDelayMs(1_000_000)).toBe(SIGN_IN_DELAY_MAX_MS);
  });

  it('counts an IPv6 address by its /64, an IPv4-mapped one as IPv4', () => {
    expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8::7')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressBucket('203.0.113.9')).toBe('203.0.113.9');
  });
});

for (const [name, make] of stores) {
  describe(`the sign-in throttle on the ${name} counter`, () => {
    let counter: PeekableCounter;
    // Emails and addresses of this run only: a shared Redis keeps other runs' counts for a minute,
    // and every run counts on the same fixed clock (two .ci/run beside each other share one Redis).
    const email = (who: string) => `${who}-${randomUUID()}@acme.example`;
    const net = `10.${randomInt(256)}.${randomInt(256)}`;
    const ip = (host: number) => `${net}.${host}`;
    const net6 = `2001:db8:${randomInt(65_536).toString(16)}`;
    beforeAll(async () => {
      counter = await make();
    });

    it('does not let failures from elsewhere lock the real user out of their own address', async () => {
      const victim = email('victim');
      const outcomes = [];
      for (let i = 0; i < 12; i++) outcomes.push(await fail(counter, victim, ip(7)));
      expect(outcomes.filter(refused)).toHaveLength(12 - SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS);
      // The real user, from their own address: admitted at once, and the right password signs in.
      const own = await admitSignIn(counter, victim, ip(2));
      expect(own.delayMs).toBe(0);
      await own.succeeded();
      // The attacker's address is still held back for this email.
      expect(refused(await fail(counter, victim, ip(7)))).toBe(true);
    });

    it('stops a guesser at one address after five failures, even with the right password next (429, Retry-After)', async () => {
      const target = email('target');
      for (let i = 0; i < SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS; i++) expect(refused(await fail(counter, target, ip(10)))).toBe(false);
      const sixth = await fail(counter, target, ip(10));
      expect(refused(sixth)).toBe(true);
      const e = sixth as ApiError;
      expect(e.code).toBe('too_many_sign_ins');
      expect(e.message).toMatch(/Too many wrong passwords for this email from this address\. Wait \d+ seconds/);
      expect(Number(e.headers?.['retry-after'])).toBeGreaterThanOrEqual(1);
      // Its /64 neighbour is the same guesser.
      const v6 = email('v6');
      for (let i = 0; i < SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS; i++) await fail(counter, v6, `${net6}:6::${i + 1}`);
      expect(refused(await fail(counter, v6, `${net6}:6:ffff::9`))).toBe(true);
      expect(refused(await fail(counter, v6, `${net6}:7::1`))).toBe(false);
    });

    it('tells of a limit reached once a window, not once per refused attempt (what the log says)', async () => {
      const target = email('told');
      const told: string[] = [];
      for (let i = 0; i < SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS + 4; i++) await admitSignIn(counter, target, ip(15), (l) => told.push(l)).catch(() => {});
      expect(told).toEqual(['email_and_address']);
    });

    it('counts attempts as they arrive: twenty at once from one address get five password checks', async () => {
      const target = email('burst');
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => fail(counter, target, ip(20))));
      expect(outcomes.filter((o) => !refused(o))).toHaveLength(SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS);
    });

    it('stops one address spraying many emails after twenty failures', async () => {
      const run = randomUUID();
      for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS; i++) expect(refused(await fail(counter, `spray${i}-${run}@acme.example`, ip(30)))).toBe(false);
      const next = await fail(counter, `spray-last-${run}@acme.example`, ip(30));
      expect(refused(next) && next.message).toMatch(/Too many failed sign-ins from this address/);
    });

    it('takes a right password\'s attempt back; one\'s own account buys no guesses at others', async () => {
      const own = email('own');
      for (let i = 0; i < 3 * SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS; i++) {
        const a = await admitSignIn(counter, own, ip(40));
        await a.succeeded();
      }
      // Fifteen sign-ins offset the address's count once, not fifteen times: 20 - 15 + 1 guesses left.
      const run = randomUUID();
      let guesses = 0;
      while (!refused(await fail(counter, `other${guesses}-${run}@acme.example`, ip(40)))) guesses++;
      expect(guesses).toBe(SIGN_IN_FAILURES_PER_ADDRESS - 3 * SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS + 1);
    });

    it('holds, never refuses, attempts at an email failing from many addresses; the delay grows with the failures', async () => {
      const target = email('distributed');
      const perAddress = SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS - 1;
      let failures = 0;
      let address = 0;
      const delays: number[] = [];
      while (failures < SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY + 45) {
        address++;
        expect(100 + address).toBeLessThan(256);
        for (let i = 0; i < perAddress; i++) {
          const a = await fail(counter, target, ip(100 + address));
          expect(refused(a), `address ${address}`).toBe(false);
          failures++;
          delays.push((a as SignInAdmission).delayMs);
        }
      }
      expect(delays.slice(0, SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY).every((d) => d === 0)).toBe(true);
      expect(delays[SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY]).toBe(SIGN_IN_DELAY_MIN_MS);
      expect(delays.at(-1)).toBe(SIGN_IN_DELAY_MAX_MS);
      for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]);
      // The real user, from an address of their own: held as long, then let in by the right password.
      const own = await admitSignIn(counter, target, ip(99));
      expect(own.delayMs).toBe(SIGN_IN_DELAY_MAX_MS);
      await own.succeeded();
    });
  });
}
