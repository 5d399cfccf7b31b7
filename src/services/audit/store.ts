// The audit log: SQL. Written in the transaction of the change it records; read newest first.
import type { Queryable } from '../../db/db.js';
import type { AuditActorKind } from '../../domain/hub.js';

export interface AuditRow {
  id: string;
  at: Date;
  actor_kind: AuditActorKind;
  actor_id: string | null;
  actor_label: string;
  action: string;
  object_kind: string;
  object_id: string;
  detail: Record<string, unknown>;
}

export async function insertAudit(tx: Queryable, accountId: string, id: string, e: Omit<AuditRow, 'id' | 'at'>): Promise<void> {
  await tx.query(
    `insert into audit_log (account_id, id, actor_kind, actor_id, actor_label, action, object_kind, object_id, detail)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
    [accountId, id, e.actor_kind, e.actor_id, e.actor_label, e.action, e.object_kind, e.object_id, JSON.stringify(e.detail)],
  );
}
