// The hub (web console): who may do what, how long a session lives, what a one-time link is for,
// and who an audit entry names as its actor. The rules the hub's server enforces, declared once.
import type { Role } from './account.js';

/** What a hub endpoint needs: nothing (set-up, sign-in), a session, an account picked, or an owner/admin. */
export const HUB_ACCESS = ['public', 'signed-in', 'member', 'admin'] as const;
export type HubAccess = (typeof HUB_ACCESS)[number];

/** Owners and admins do everything; members build, run, approve, manage contacts and content, see usage. */
export function mayAdminister(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * Who may send a user a new set-password link or change their email for them (the Users screen):
 * owners anyone, admins members and admins but not owners (an admin could otherwise take over an
 * owner's sign-in, and with it the one role above their own). Members nobody.
 */
export function mayManageSignIn(actor: Role, target: Role): boolean {
  return actor === 'owner' || (actor === 'admin' && target !== 'owner');
}

/** The OpenAPI tag of every hub route (/hub/api), whose description lists the hub's own codes. */
export const HUB_TAG = 'hub';

export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_ABSOLUTE_MS = 7 * 86_400_000;
export const SESSION_COOKIE = 'sb_session';
/** The header a state-changing hub request carries its session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

export const USER_TOKEN_PURPOSES = ['set_password', 'change_email'] as const;
export type UserTokenPurpose = (typeof USER_TOKEN_PURPOSES)[number];
/** A set-password link is good for this long. */
export const SET_PASSWORD_LINK_MS = 7 * 86_400_000;
/** A link confirming a new email is good for this long (it proves a mailbox now, not next week). */
export const CHANGE_EMAIL_LINK_MS = 86_400_000;
/**
 * The forgot-password form (src/hub/set-password/forgot.ts): per minute (the rate counter's
 * window), per address and per email asked about; and at most one email per user this often,
 * however the requests are spread, so the form cannot fill someone's mailbox.
 */
export const FORGOT_PASSWORD_PER_ADDRESS = 10;
export const FORGOT_PASSWORD_PER_EMAIL = 3;
export const FORGOT_PASSWORD_EMAIL_GAP_MS = 15 * 60_000;

export const AUDIT_ACTOR_KINDS = ['user', 'operator'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** Key roll: how long the old key stays valid. */
export const ROLL_GRACE = { none: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;
export type RollGrace = keyof typeof ROLL_GRACE;
export const ROLL_GRACES = Object.keys(ROLL_GRACE) as RollGrace[];

/** Shortest password the hub and the CLI accept. */
export const MIN_PASSWORD_LENGTH = 10;

/**
 * The sign-in throttle's limits (src/hub/session/throttle.ts says why), each per minute, the rate
 * counter's window, and each counting failures (a right password takes its attempt back).
 */
/** One email from one address: past this many failures, that address is refused for that email. */
export const SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS = 5;
/** One address, any emails: past this many failures, the address is refused. */
export const SIGN_IN_FAILURES_PER_ADDRESS = 20;
/** One email, from all addresses together: past this many failures, its attempts are held (never refused). */
export const SIGN_IN_FAILURES_PER_EMAIL_BEFORE_DELAY = 20;
/** The hold: this long at first, doubling every SIGN_IN_FAILURES_PER_DELAY_DOUBLING failures more, at most SIGN_IN_DELAY_MAX_MS. */
export const SIGN_IN_DELAY_MIN_MS = 1_000;
export const SIGN_IN_FAILURES_PER_DELAY_DOUBLING = 10;
export const SIGN_IN_DELAY_MAX_MS = 10_000;
