// SQL of the API-key cache's coherence protocol (src/keys/auth-cache.ts): a member's lease and
// acknowledgement, the invalidation counter, and the invalidator's wait. Tables of migration 0026.
import type { Queryable } from '../db/db.js';
import { oneRow } from '../db/rows.js';

/** The channel an invalidation is announced on; members listen so they ack within milliseconds. */
export const AUTH_INVALIDATE_CHANNEL = 'sb_auth_invalidate';

/** Rows whose lease passed this long ago belong to processes that died: anyone renewing deletes them. */
const FORGET_AFTER = `interval '1 minute'`;

/**
 * Writes this process's row: the last invalidation it has applied and a lease of leaseMs from the
 * database's now(). The lease is computed and later compared on the database's clock, so members'
 * clocks never need to agree. Long-dead members' rows go in the same statement (never our own:
 * one statement may not both delete and upsert a row).
 */
export async function renewMember(db: Queryable, processId: string, acked: number, leaseMs: number): Promise<void> {
  await db.query(
    `with forgotten as (
       delete from auth_cache_members where lease_until < now() - ${FORGET_AFTER} and process_id <> $1
     )
     insert into auth_cache_members (process_id, acked, lease_until)
     values ($1, $2, now() + $3::int * interval '1 millisecond')
     on conflict (process_id) do update set acked = excluded.acked, lease_until = excluded.lease_until`,
    [processId, acked, leaseMs],
  );
}

/**
 * The last invalidation number handed out (0 before the first). A sequence is not transactional:
 * a nextval is visible here at once, which is what a member needs (the change it stands for has
 * committed before the nextval is taken).
 */
export async function lastInvalidation(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(`select case when is_called then last_value else 0 end as n from auth_invalidation_seq`);
  return Number(oneRow(rows, 'the invalidation sequence').n);
}

/** Takes the next invalidation number and announces it on the channel, in one round trip. */
export async function announceInvalidation(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `select s.n, pg_notify('${AUTH_INVALIDATE_CHANNEL}', s.n::text) from (select nextval('auth_invalidation_seq') as n) s`,
  );
  return Number(oneRow(rows, 'the next invalidation number').n);
}

/**
 * Members holding a live lease that have not yet applied invalidation n, and how long until the
 * last of those leases ends (ms, on the database's clock).
 */
export async function unackedMembers(db: Queryable, n: number): Promise<{ count: number; leftMs: number }> {
  const rows = await db.query<{ count: number; left_ms: number | null }>(
    `select count(*)::int as count, ceil(extract(epoch from max(lease_until) - now()) * 1000)::int as left_ms
       from auth_cache_members where acked < $1 and lease_until > now()`,
    [n],
  );
  const row = oneRow(rows, 'unacked members (an aggregate)');
  return { count: row.count, leftMs: row.left_ms ?? 0 };
}

/** A member leaving cleanly: invalidators stop waiting for it at once. */
export async function deleteMember(db: Queryable, processId: string): Promise<void> {
  await db.query(`delete from auth_cache_members where process_id = $1`, [processId]);
}
