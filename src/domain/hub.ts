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

export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_ABSOLUTE_MS = 7 * 86_400_000;
export const SESSION_COOKIE = 'sb_session';
/** The header a state-changing hub request carries its session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

export const USER_TOKEN_PURPOSES = ['set_password'] as const;
export type UserTokenPurpose = (typeof USER_TOKEN_PURPOSES)[number];
/** A set-password link is good for this long. */
export const SET_PASSWORD_LINK_MS = 7 * 86_400_000;

export const AUDIT_ACTOR_KINDS = ['user', 'operator'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** Key roll: how long the old key stays valid. */
export const ROLL_GRACE = { none: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;
export type RollGrace = keyof typeof ROLL_GRACE;
export const ROLL_GRACES = Object.keys(ROLL_GRACE) as RollGrace[];

/** Shortest password the hub and the CLI accept. */
export const MIN_PASSWORD_LENGTH = 10;

/** Sign-in attempts allowed per minute for one email (any case) and from one client address. */
export const SIGN_INS_PER_EMAIL_PER_MINUTE = 5;
export const SIGN_INS_PER_ADDRESS_PER_MINUTE = 20;
