// Sign-in and the session: POST /session signs in (a new session id every time, the old one
// ended), GET /session says who is signed in with the CSRF token the page sends back (401 when
// nobody is), GET /session/state the same for the hub's own page (200 with signed_in false),
// PUT /session/account picks the account, DELETE /session signs out.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, found } from '../../domain/errors.js';
import { SESSION_ABSOLUTE_MS, SESSION_COOKIE, SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY } from '../../domain/hub.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { verifyPassword } from '../../lib/password.js';
import { hubRoute, hubSessionOf, type HubSessionInfo } from '../kit.js';
import { deleteSession, insertSession, pickAccount } from '../sessions/store.js';
import { hashToken, isWellFormedToken, newToken } from '../sessions/token.js';
import { sessionAccounts, signInCandidates } from './store.js';
import { admitSignIn, type SignInAdmission } from './throttle.js';
import { HubSession, HubSessionState, PickBody, SignInBody } from './schemas.js';

/** A hash to verify against when the email has no user, so a miss takes as long as a wrong password. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

function secureCookie(request: FastifyRequest, deps: AppDeps): boolean {
  return request.protocol === 'https' || deps.config.delivery.publicUrl.startsWith('https:');
}

export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, deps: AppDeps, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookie(request, deps),
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  });
}

async function render(deps: AppDeps, s: { email: string; csrfToken: string; userIds: readonly string[]; accountId: string | null }): Promise<HubSession> {
  const rows = await sessionAccounts(deps.db, s.userIds);
  const accounts = rows
    .filter((r) => r.state !== 'closed')
    .map((r) => ({ account_id: r.account_id, user_id: r.user_id, name: r.name, role: r.role, state: r.state, subscription: r.subscription }));
  const closed = rows.find((r) => r.account_id === s.accountId && r.state === 'closed');
  return { email: s.email, csrf_token: s.csrfToken, accounts, account: accounts.find((a) => a.account_id === s.accountId) ?? null, closed_account: closed?.name ?? null };
}

/**
 * Starts a session for these users: a new token always (a session id presented before sign-in is
 * ended, never reused: no fixation), the only account picked when there is just one.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AppDeps,
  email: string,
  users: { user_id: string; account_id: string }[],
): Promise<HubSession> {
  const previous = request.cookies?.[SESSION_COOKIE];
  if (isWellFormedToken(previous)) await deleteSession(deps.db, hashToken(previous));
  const token = newToken();
  const only = users.length === 1 ? users[0] : null;
  const csrfToken = randomBytes(24).toString('base64url');
  const userIds = users.map((u) => u.user_id);
  await insertSession(deps.db, { tokenHash: hashToken(token), email, userIds, accountId: only?.account_id ?? null, userId: only?.user_id ?? null, csrfToken });
  setSessionCookie(reply, request, deps, token);
  return render(deps, { email, csrfToken, userIds, accountId: only?.account_id ?? null });
}

/**
 * Counts a password attempt for `email` under the sign-in throttle (throttle.ts) before the
 * password is checked, refusing it (429) or holding it as the throttle says. Sign-in uses it, and
 * so does every other check of a password a signed-in person types (changing their own password
 * or email), so those cannot be used to guess around the throttle. Call succeeded() after a right one.
 */
export async function admitPasswordAttempt(request: FastifyRequest, deps: AppDeps, email: string): Promise<SignInAdmission> {
  const admission = await admitSignIn(deps.counters.failedAuth, email, request.ip, (limit) =>
    request.log.warn({ limit, address: request.ip }, 'sign-in failures went past a limit: this address is refused for the rest of the minute'),
  );
  if (admission.delayMs > 0) {
    // Held, not refused: the email is failing from many addresses at once. Logged as it
    // starts each minute (the first held attempt), not once per attempt.
    if (admission.emailFailures === SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY + 1) {
      request.log.warn({ email_failures: admission.emailFailures, delay_ms: admission.delayMs }, 'sign-ins for one email are failing from many addresses: its attempts are held before their passwords are checked');
    }
    await (deps.pause ?? sleep)(admission.delayMs);
  }
  return admission;
}

export function registerHubSessionRoutes(hub: App, deps: AppDeps): void {
  hub.post('/session', hubRoute('public', {
    operationId: 'hubSignIn',
    summary: 'Sign in with email and password',
    body: SignInBody,
    response: { 200: HubSession },
  }, [401, 429]), async (request, reply) => {
    const email = request.body.email.trim().toLowerCase();
    const admission = await admitPasswordAttempt(request, deps, email);
    const candidates = await signInCandidates(deps.db, email);
    if (!candidates.length) await verifyPassword(request.body.password, DUMMY_HASH);
    const matched: typeof candidates = [];
    for (const c of candidates) if (await verifyPassword(request.body.password, c.password_hash)) matched.push(c);
    if (!matched.length) throw new ApiError('sign_in_failed', 'Wrong email or password.');
    await admission.succeeded();
    return startSession(request, reply, deps, email, matched);
  });

  hub.get('/session', hubRoute('signed-in', {
    operationId: 'hubGetSession',
    summary: 'Who is signed in',
    response: { 200: HubSession },
  }), async (request) => {
    const s: HubSessionInfo = hubSessionOf(request);
    return render(deps, s);
  });

  hub.get('/session/state', hubRoute('public', {
    operationId: 'hubGetSessionState',
    summary: 'Whether anyone is signed in, and who (the hub page asks on every load)',
    response: { 200: HubSessionState },
  }), async (request): Promise<HubSessionState> => {
    // The auth hook reads the session on public routes too (null: none, expired, or a cookie sent
    // to a host name that is not the hub's).
    const s = request.hubSession;
    return s ? { signed_in: true, session: await render(deps, s) } : { signed_in: false, session: null };
  });

  hub.put('/session/account', hubRoute('signed-in', {
    operationId: 'hubPickAccount',
    summary: 'Pick the account to act in',
    body: PickBody,
    response: { 200: HubSession },
  }, [404]), async (request) => {
    const s = hubSessionOf(request);
    const rows = await sessionAccounts(deps.db, s.userIds);
    const row = found(rows.find((r) => r.account_id === request.body.account_id && r.state !== 'closed'), 'account');
    await pickAccount(deps.db, Buffer.from(s.sessionId, 'hex'), row.account_id, row.user_id);
    return render(deps, { ...s, accountId: row.account_id });
  });

  hub.delete('/session', hubRoute('signed-in', {
    operationId: 'hubSignOut',
    summary: 'Sign out (ends the session everywhere)',
    response: { 204: Type.Null() },
  }), async (request, reply) => {
    await deleteSession(deps.db, Buffer.from(hubSessionOf(request).sessionId, 'hex'));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });
}
