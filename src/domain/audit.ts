// The audit log's action names: what the services record (services/audit), what the hub's
// audit filter offers (web/src/pages/audit). Declared once.
export const AUDIT_ACTIONS = [
  'account.created',
  'account.settings_changed',
  'key.created',
  'key.rolled',
  'key.revoked',
  'key.updated',
  'user.invited',
  'user.added',
  'user.role_changed',
  'user.removed',
  'user.password_set',
  'automation.published',
  'automation.paused',
  'automation.resumed',
  'automation_run.stopped',
  'run.started',
  'run.approved',
  'run.rejected',
  'run.cancelled',
  'contact.created',
  'contact.updated',
  'contact.erased',
  'project.settings_changed',
  'page.created',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
