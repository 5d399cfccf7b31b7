// The audit log, read side: an account's entries newest first, walking audit_log_at
// (account_id, at desc, id desc), optionally one action's or one actor's.
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';
import type { AuditRow } from '../../services/audit/store.js';

const ORDER = new KeysetOrder('l.at', 'l.id', 'desc');

export interface AuditFilters {
  action?: string;
  /** A user's id, or 'operator' for the operator CLI's entries. */
  actor?: string;
}

export async function listAudit(db: Queryable, accountId: string, f: AuditFilters, page: KeysetPage): Promise<AuditRow[]> {
  const w = new ListSql([accountId], ['l.account_id = $1']).eq('l.action', f.action);
  if (f.actor === 'operator') w.eq('l.actor_kind', 'operator');
  else w.eq('l.actor_id', f.actor);
  w.after(ORDER, page);
  return db.query<AuditRow>(
    `select l.id, l.at, l.actor_kind, l.actor_id, l.actor_label, l.action, l.object_kind, l.object_id, l.detail
       from audit_log l where ${w.sql} ${w.tail(ORDER, page)}`,
    w.params,
  );
}
