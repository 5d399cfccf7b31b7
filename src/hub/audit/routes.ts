// Account → Audit log (owners and admins): who changed what and when, newest first, paged with the
// same cursors as every list, optionally one action's or one actor's entries.
import type { AppDeps } from '../../http/deps.js';
import { listByTime } from '../../http/list.js';
import type { App } from '../../http/route-kit.js';
import { iso } from '../../lib/time.js';
import { hubList } from '../kit.js';
import { listAudit, type NamedAuditRow } from './store.js';
import { AuditEntry, AuditQuery } from './schemas.js';

function render(r: NamedAuditRow): AuditEntry {
  return {
    id: r.id,
    at: iso(r.at),
    actor: { kind: r.actor_kind, id: r.actor_id, label: r.actor_label, name: r.actor_name },
    action: r.action,
    object: { kind: r.object_kind, id: r.object_id, name: r.object_name },
    detail: r.detail,
  };
}

export function registerHubAuditRoutes(hub: App, deps: AppDeps): void {
  hubList(hub, '/audit', 'admin', {
    operationId: 'hubListAudit', summary: 'The audit log, newest first',
    querystring: AuditQuery, item: AuditEntry, title: 'HubAuditList',
    lister: listByTime(deps.cursors, (r: NamedAuditRow) => r.at),
    filters: ({ action, actor }) => ({ action, actor }),
    read: (page, { action, actor }) => listAudit(deps.db, page.accountId, { action, actor }, page),
    render,
  }, [400]);
}
