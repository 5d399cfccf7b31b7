// One-time set-password links: a new owner from `account create`, an invited user. Only the
// SHA-256 of the token is stored (user_tokens), so a copy of the store cannot sign anyone in; the
// token itself exists only in the link handed to the person (printed, shown once, or emailed).
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/db.js';
import { latestApiUrl } from '../../delivery/api-url-store.js';
import { SET_PASSWORD_LINK_MS } from '../../domain/hub.js';
import { insertUserToken } from './store.js';

/** Where links point: SWITCHBOARD_PUBLIC_URL when set, else where the newest API process listens. */
async function linkBase(tx: Queryable): Promise<string> {
  const set = process.env.SWITCHBOARD_PUBLIC_URL?.trim();
  if (set) return set.replace(/\/+$/, '');
  // A store no server has used yet (account create before the first serve): the default address.
  return (await latestApiUrl(tx))?.replace(/\/+$/, '') ?? 'http://127.0.0.1:8080';
}

/** Issues a link good for SET_PASSWORD_LINK_MS; call it in the transaction that made or invited the user. */
export async function issueSetPasswordLink(tx: Queryable, accountId: string, userId: string): Promise<{ url: string; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const hash = createHash('sha256').update(token).digest();
  await insertUserToken(tx, { tokenHash: hash, accountId, userId, purpose: 'set_password', expiresAt: new Date(Date.now() + SET_PASSWORD_LINK_MS) });
  return { url: `${await linkBase(tx)}/set-password?token=${token}`, token };
}
