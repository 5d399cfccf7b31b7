// The shapes of /hub/api/audit (src/hub/audit/routes.ts).
export interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: 'user' | 'operator'; id: string | null; label: string };
  action: string;
  object: { kind: string; id: string };
  detail: Record<string, unknown>;
}

export interface AuditPage {
  data: AuditEntry[];
  has_more: boolean;
  next_cursor: string | null;
}

import { AUDIT_ACTIONS } from '@domain/audit';
export { AUDIT_ACTIONS };
