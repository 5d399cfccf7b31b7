// Unsubscribe links for marketing email (docs/architecture.md §11): a link and a List-Unsubscribe
// header to /unsubscribe/:token, where the token names (account, contact) and carries an HMAC, so
// only links we made work and a link cannot be edited into someone else's. Secrets come from
// server_secrets ('unsubscribe'); a rotated secret keeps the previous one valid, so links already
// in mailboxes keep working.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import { firstOf } from '../lib/first.js';
import { loadSecrets, type SecretVersion } from '../secrets/store.js';
import { latestApiUrl } from './api-url-store.js';

export const UNSUBSCRIBE_SECRET = 'unsubscribe';
const SECRET_TTL_MS = 60_000;
const MAC_BYTES = 16;
// Binds the MAC to this use: the same secret could never mint a token meaning something else.
const CONTEXT = Buffer.from('switchboard:unsubscribe:v1:');

const cache = new WeakMap<Db, { at: number; secrets: SecretVersion[] }>();

/** The secrets, read at most once a minute per store (every marketing email needs them). */
async function secrets(db: Db): Promise<SecretVersion[]> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < SECRET_TTL_MS) return hit.secrets;
  const s = await loadSecrets(db, UNSUBSCRIBE_SECRET);
  cache.set(db, { at: Date.now(), secrets: s });
  return s;
}

/** Forgets the cached secrets (tests; a rotation reaches every process within a minute anyway). */
export function forgetUnsubscribeSecrets(db: Db): void {
  cache.delete(db);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidBytes(id: string): Buffer {
  if (!UUID.test(id)) throw new TypeError('not a UUID');
  return Buffer.from(id.replace(/-/g, ''), 'hex');
}

function bytesUuid(b: Buffer): string {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function mac(secret: Buffer, payload: Buffer): Buffer {
  return createHmac('sha256', secret).update(CONTEXT).update(payload).digest().subarray(0, MAC_BYTES);
}

export async function unsubscribeToken(db: Db, accountId: string, contactId: string): Promise<string> {
  const payload = Buffer.concat([uuidBytes(accountId), uuidBytes(contactId)]);
  const current = firstOf(await secrets(db), 'the unsubscribe secret');
  return `${payload.toString('base64url')}.${mac(current.secret, payload).toString('base64url')}`;
}

/** The (account, contact) a token names, or null for anything we did not make. */
export async function verifyUnsubscribeToken(db: Db, token: string): Promise<{ accountId: string; contactId: string } | null> {
  const m = /^([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!m) return null;
  const [, payloadText = '', macText = ''] = m; // both groups are required
  const payload = Buffer.from(payloadText, 'base64url');
  const given = Buffer.from(macText, 'base64url');
  // Re-encoding must give back the exact text: no second spelling of one token.
  if (payload.length !== 32 || given.length !== MAC_BYTES || payload.toString('base64url') !== payloadText || given.toString('base64url') !== macText) {
    return null;
  }
  let s = await secrets(db);
  let ok = s.some((v) => timingSafeEqual(mac(v.secret, payload), given));
  if (!ok && Date.now() - (cache.get(db)?.at ?? Date.now()) > 1_000) {
    // Minted by another process since our last read, after a rotation: look again (at most once
    // a second, so tampered tokens cannot make every request read the store).
    cache.delete(db);
    s = await secrets(db);
    ok = s.some((v) => timingSafeEqual(mac(v.secret, payload), given));
  }
  return ok ? { accountId: bytesUuid(payload.subarray(0, 16)), contactId: bytesUuid(payload.subarray(16)) } : null;
}

/** A recorded API URL is read again after this long (a restarted API may listen elsewhere) ... */
const BASE_TTL_MS = 30_000;
/** ... and, while none is recorded yet, sooner: the API process may simply not have started. */
const NO_BASE_TTL_MS = 5_000;
const bases = new WeakMap<Db, { at: number; url: string | null }>();

/** A schema older than this release (rolling deploy, not migrated yet) has no api_urls: as if empty. */
function noTableYet(err: unknown): null {
  if ((err as { code?: string }).code === '42P01') return null; // undefined_table
  throw err;
}

/**
 * The base of the links in messages: SWITCHBOARD_PUBLIC_URL when set. Without it (development),
 * the URL the most recently started API process recorded where it really listens (a worker has no
 * listener, and HOST/PORT may say port 0), read at most every 30 s; until one has recorded a URL,
 * the one derived from HOST and PORT.
 */
export async function linkBase(db: Db, config: Pick<Config, 'delivery'>): Promise<string> {
  if (config.delivery.publicUrlSet) return config.delivery.publicUrl;
  let hit = bases.get(db);
  if (!hit || Date.now() - hit.at >= (hit.url ? BASE_TTL_MS : NO_BASE_TTL_MS)) {
    hit = { at: Date.now(), url: await latestApiUrl(db).catch(noTableYet) };
    bases.set(db, hit);
  }
  return hit.url ?? config.delivery.publicUrl;
}

/** Forgets the cached link base (tests; a new API URL reaches every process within 30 s anyway). */
export function forgetLinkBase(db: Db): void {
  bases.delete(db);
}

export function unsubscribeUrl(base: string, token: string): string {
  return `${base}/unsubscribe/${token}`;
}

/**
 * What a marketing email step adds: the link for the body and the RFC 2369 / RFC 8058 headers
 * (one-click: mail clients POST to the same URL).
 */
export async function unsubscribeHeaders(
  db: Db,
  config: Config,
  accountId: string,
  contactId: string,
): Promise<{ headers: Record<string, string>; link: string }> {
  const link = unsubscribeUrl(await linkBase(db, config), await unsubscribeToken(db, accountId, contactId));
  return { link, headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}

/** The body of a marketing email with its unsubscribe line appended (plain text). */
export function withUnsubscribeLink(body: string, link: string): string {
  return `${body.replace(/\s+$/, '')}\n\n--\nTo stop receiving these emails, unsubscribe: ${link}\n`;
}
