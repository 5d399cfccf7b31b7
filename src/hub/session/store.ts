// Sign-in's reads: the users an email names (one per account), and the accounts a session may pick.
import type { Queryable } from '../../db/db.js';
import type { AccountState, Role, Subscription } from '../../domain/account.js';

export interface SignInCandidate {
  user_id: string;
  account_id: string;
  password_hash: string;
}

/** Users with this email (any case) that have a password, in every account but closed ones. */
export async function signInCandidates(db: Queryable, email: string): Promise<SignInCandidate[]> {
  return db.query<SignInCandidate>(
    `select u.id as user_id, u.account_id, u.password_hash
       from users u join accounts a on a.id = u.account_id
      where lower(u.email) = lower($1) and u.password_hash is not null and a.state <> 'closed'
      order by a.created_at, a.id`,
    [email],
  );
}

export interface SessionAccountRow {
  account_id: string;
  user_id: string;
  name: string;
  role: Role;
  state: AccountState;
  subscription: Subscription;
}

/**
 * The accounts these users belong to, oldest first, closed ones included (their state says so):
 * the picker lists the others, and a session whose account was closed says which.
 */
export async function sessionAccounts(db: Queryable, userIds: readonly string[]): Promise<SessionAccountRow[]> {
  if (!userIds.length) return [];
  return db.query<SessionAccountRow>(
    `select u.account_id, u.id as user_id, a.name, u.role, a.state, a.subscription
       from users u join accounts a on a.id = u.account_id
      where u.id = any ($1::uuid[])
      order by a.created_at, a.id`,
    [userIds],
  );
}
