// Recording who changed what. Every service that changes something on behalf of a hub user or the
// operator takes an Actor and calls recordAudit inside its own transaction, so the entry exists
// exactly when the change does. The action names are declared once here.
import type { Queryable } from '../../db/db.js';
import { uuidv7 } from '../../lib/ids.js';
import type { AuditAction } from '../../domain/audit.js';
import { insertAudit } from './store.js';

export { AUDIT_ACTIONS, type AuditAction } from '../../domain/audit.js';

/** Who acts: a hub user (id and "Name <email>") or the operator CLI. */
export type Actor = { kind: 'user'; id: string; label: string } | { kind: 'operator'; label?: string };

export const OPERATOR: Actor = { kind: 'operator', label: 'operator (CLI)' };


export interface AuditEntry {
  accountId: string;
  actor: Actor;
  action: AuditAction;
  objectKind: string;
  objectId: string;
  /** What changed (names, old and new values); never a secret, a key value or a message body. */
  detail?: Record<string, unknown>;
}

export async function recordAudit(tx: Queryable, e: AuditEntry): Promise<void> {
  await insertAudit(tx, e.accountId, uuidv7(), {
    actor_kind: e.actor.kind,
    actor_id: e.actor.kind === 'user' ? e.actor.id : null,
    actor_label: e.actor.kind === 'user' ? e.actor.label : (e.actor.label ?? 'operator (CLI)'),
    action: e.action,
    object_kind: e.objectKind,
    object_id: e.objectId,
    detail: e.detail ?? {},
  });
}
