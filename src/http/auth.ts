// Authentication: Bearer svc_live_… → the key and its account, or the spec's 401. Failures
// count against the client address; past 20 a minute they are answered 429 too_many_failed_auth.
// The lookup goes through the process's key cache (src/keys/auth-cache.ts), which answers exactly
// as the store would: a change is invalidated everywhere before its command answers, and expiry
// is checked here against the clock on every request, cached row or not.
import type { FastifyRequest } from 'fastify';
import { hashKey, isWellFormedKey } from '../lib/api-keys.js';
import type { Db } from '../db/db.js';
import { touchKey, type AuthRow } from '../keys/store.js';
import type { AuthCache } from '../keys/auth-cache.js';
import type { Tier } from '../domain/account.js';
import { FAILED_AUTH_PER_MINUTE } from '../limits/tiers.js';
import type { WindowCounter } from '../limits/window-counter.js';
import { ApiError } from '../domain/errors.js';

export interface AuthContext {
  keyId: string;
  keyName: string;
  keyPrefix: string;
  accountId: string;
  scopes: ReadonlySet<string>;
  state: AuthRow['state'];
  subscription: AuthRow['subscription'];
  apiOpen: boolean;
  tier: Tier;
  requestsPerMinute: number | null;
}

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/** Each cached row's scopes as a set, built once rather than per request (rows are immutable). */
const scopeSets = new WeakMap<AuthRow, ReadonlySet<string>>();
function scopesOf(row: AuthRow): ReadonlySet<string> {
  let set = scopeSets.get(row);
  if (!set) {
    set = new Set(row.scopes);
    scopeSets.set(row, set);
  }
  return set;
}

export class Authenticator {
  constructor(
    private readonly db: Db,
    private readonly failures: WindowCounter,
    private readonly onBackgroundError: (err: unknown) => void,
    private readonly cache: AuthCache,
  ) {}

  async authenticate(request: FastifyRequest): Promise<AuthContext> {
    const header = request.headers.authorization;
    if (!header) return this.fail(request, new ApiError('invalid_api_key', 'No API key: send Authorization: Bearer <API_KEY>.'));
    const [, key] = BEARER.exec(header) ?? [];
    if (key === undefined || !isWellFormedKey(key)) return this.fail(request, new ApiError('invalid_api_key', 'The API key is malformed.'));
    const row = await this.cache.lookup(this.db, hashKey(key));
    if (!row) return this.fail(request, new ApiError('invalid_api_key', 'The API key is not valid.'));
    if (row.revoked_at) return this.fail(request, new ApiError('api_key_revoked', 'The API key has been revoked.'));
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) {
      return this.fail(request, new ApiError('api_key_expired', 'The API key has passed its expiry date.'));
    }
    // At most once a minute per key and process (a cached row's last_used_at does not move).
    if (this.cache.touchDue(row)) touchKey(this.db, row.key_id).catch(this.onBackgroundError);
    return {
      keyId: row.key_id,
      keyName: row.name,
      keyPrefix: row.prefix,
      accountId: row.account_id,
      scopes: scopesOf(row),
      state: row.state,
      subscription: row.subscription,
      apiOpen: row.api_open,
      tier: row.tier,
      requestsPerMinute: row.requests_per_minute,
    };
  }

  /** Counts the failure against the address; past the limit the answer is 429 instead of the 401. */
  private async fail(request: FastifyRequest, err: ApiError): Promise<never> {
    const hit = await this.failures.hit(`fa:${request.ip}`);
    if (hit.count > FAILED_AUTH_PER_MINUTE) {
      throw new ApiError('too_many_failed_auth', 'Too many requests with a wrong API key from this address; wait and retry.', {
        headers: { 'retry-after': String(Math.max(1, Math.ceil(hit.resetMs / 1000))) },
      });
    }
    throw err;
  }
}
