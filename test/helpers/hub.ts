// A signed-in hub client for inject() tests: a session row made directly in the store (sign-in
// itself is tested in test/hub/session.test.ts), its cookie, CSRF token and a same-origin Origin
// on every request. `as` picks the account user the session acts as.
import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { CSRF_HEADER, SESSION_COOKIE } from '../../src/domain/hub.js';
import { insertSession } from '../../src/hub/sessions/store.js';
import { hashToken, newToken } from '../../src/hub/sessions/token.js';
import type { TestApp } from './app.js';

export interface HubClient {
  token: string;
  csrf: string;
  /** Cookie, CSRF token and Origin set; override any header per call. */
  request(opts: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

/**
 * A page of the hub as inject() reaches it: inject() has no socket, so the hub's own loopback
 * origins are on its configured PORT (8080 by default), whatever Host (localhost:80) inject sends.
 */
export const HUB_ORIGIN = 'http://localhost:8080';

export async function hubClient(
  t: TestApp,
  as: { accountId: string | null; userId: string | null; email: string; userIds?: string[] },
): Promise<HubClient> {
  const token = newToken();
  const csrf = randomBytes(24).toString('base64url');
  await insertSession(t.db, {
    tokenHash: hashToken(token),
    email: as.email.toLowerCase(),
    userIds: as.userIds ?? (as.userId ? [as.userId] : []),
    accountId: as.accountId,
    userId: as.userId,
    csrfToken: csrf,
  });
  const request = (opts: InjectOptions) =>
    t.app.inject({
      ...opts,
      headers: { cookie: `${SESSION_COOKIE}=${token}`, [CSRF_HEADER]: csrf, origin: HUB_ORIGIN, ...(opts.headers ?? {}) },
    });
  const withBody = (method: 'POST' | 'PATCH' | 'PUT') => (url: string, payload?: unknown) =>
    request({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    token,
    csrf,
    request,
    get: (url) => request({ method: 'GET', url }),
    post: withBody('POST'),
    patch: withBody('PATCH'),
    put: withBody('PUT'),
    delete: (url) => request({ method: 'DELETE', url }),
  };
}

/**
 * Clocks for the rate-limit counters (createApp's counterClock), which count in clock-aligned
 * minute windows. `clock` stays inside one minute window: it runs from one second into it and
 * stops 1 s before its end, so a test that counts attempts within a minute never sees the window
 * end halfway, however slow the machine. `fresh()` moves it to the start of the next, unused
 * window (a test that needs its own counts from zero); it never goes back.
 */
export function minuteWindows(): { clock: () => number; fresh: () => void } {
  const base = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
  let windows = 0;
  let t0 = Date.now();
  return {
    clock: () => base + windows * 60_000 + Math.min(Date.now() - t0, 58_000),
    fresh: () => {
      windows += 1;
      t0 = Date.now();
    },
  };
}

/** One minute window for the whole of a test (see minuteWindows). */
export function insideOneMinute(): () => number {
  return minuteWindows().clock;
}
