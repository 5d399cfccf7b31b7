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

/** The server's action names (src/services/audit/service.ts), for the filter. */
export const AUDIT_ACTIONS = [
  'account.created', 'account.settings_changed', 'key.created', 'key.rolled', 'key.revoked', 'key.updated',
  'user.invited', 'user.added', 'user.role_changed', 'user.removed', 'user.password_set',
  'automation.published', 'automation.paused', 'automation.resumed', 'automation_run.stopped',
  'run.started', 'run.approved', 'run.rejected', 'run.cancelled',
  'contact.created', 'contact.updated', 'contact.erased', 'project.settings_changed', 'page.created',
] as const;
