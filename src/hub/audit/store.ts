// The audit log, read side: an account's entries newest first, walking audit_log_at
// (account_id, at desc, id desc), optionally one action's or one actor's, each with the current
// names of its object and actor (so the hub can say it in a sentence and link what still exists).
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';
import type { AuditRow } from '../../services/audit/store.js';

const ORDER = new KeysetOrder('l.at', 'l.id', 'desc');

export interface AuditFilters {
  action?: string;
  /** A user's id, or 'operator' for the operator CLI's entries. */
  actor?: string;
}

export async function listAudit(db: Queryable, accountId: string, f: AuditFilters, page: KeysetPage): Promise<NamedAuditRow[]> {
  const w = new ListSql([accountId], ['l.account_id = $1']).eq('l.action', f.action);
  if (f.actor === 'operator') w.eq('l.actor_kind', 'operator');
  else w.eq('l.actor_id', f.actor);
  w.after(ORDER, page);
  const rows = await db.query<AuditRow>(
    `select l.id, l.at, l.actor_kind, l.actor_id, l.actor_label, l.action, l.object_kind, l.object_id, l.detail
       from audit_log l where ${w.sql} ${w.tail(ORDER, page)}`,
    w.params,
  );
  return rows.length ? named(db, accountId, rows) : [];
}

/** An entry with what it is about as it is now: the object's current name (null once it is gone) and the actor's. */
export interface NamedAuditRow extends AuditRow {
  object_name: string | null;
  actor_name: string | null;
}

// One query per page of entries, by primary key per kind: each object's name while it still
// exists (a deleted workflow, an erased contact, a removed user have none, so the log links only
// to what is still there), and each acting user's current name.
const NAMES = `
  select o.kind, o.id::text as id, case o.kind
    when 'api_key' then (select k.name from api_keys k where k.account_id = $1 and k.id = o.id)
    when 'user' then (select coalesce(nullif(u.name, ''), u.email) from users u where u.account_id = $1 and u.id = o.id)
    when 'workflow' then (select wf.name from workflows wf where wf.account_id = $1 and wf.id = o.id and wf.deleted_at is null)
    when 'automation' then (select a.name from automations a where a.account_id = $1 and a.id = o.id and a.deleted_at is null)
    when 'contact' then (select coalesce(nullif(trim(concat_ws(' ', c.first_name, c.last_name)), ''), c.email, 'a contact')
                           from contacts c where c.account_id = $1 and c.id = o.id and c.erased_at is null)
    when 'project' then (select p.name from projects p where p.account_id = $1 and p.id = o.id)
    when 'item' then (select i.title from content_items i where i.account_id = $1 and i.id = o.id)
    when 'run' then (select wf.name from workflow_runs r join workflows wf on wf.account_id = r.account_id and wf.id = r.workflow_id
                      where r.account_id = $1 and r.id = o.id)
    when 'automation_run' then (select a.name from automation_runs r join automations a on a.account_id = r.account_id and a.id = r.automation_id
                      where r.account_id = $1 and r.id = o.id)
    when 'message' then (select coalesce(m.subject, case m.channel when 'sms' then 'a text message' when 'team' then 'a team notice' else 'an email' end)
                           from outbox m where m.account_id = $1 and m.id = o.id)
    when 'account' then (select ac.name from accounts ac where ac.id = $1 and ac.id = o.id)
    when 'actor' then (select coalesce(nullif(u.name, ''), u.email) from users u where u.account_id = $1 and u.id = o.id)
  end as name
  from unnest($2::text[], $3::uuid[]) as o(kind, id)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function named(db: Queryable, accountId: string, rows: AuditRow[]): Promise<NamedAuditRow[]> {
  const wanted = new Map<string, [string, string]>();
  for (const r of rows) {
    if (UUID.test(r.object_id)) wanted.set(`${r.object_kind}:${r.object_id}`, [r.object_kind, r.object_id]);
    if (r.actor_id) wanted.set(`actor:${r.actor_id}`, ['actor', r.actor_id]);
  }
  const pairs = [...wanted.values()];
  const found = await db.query<{ kind: string; id: string; name: string | null }>(NAMES, [accountId, pairs.map((p) => p[0]), pairs.map((p) => p[1])]);
  const names = new Map(found.map((f) => [`${f.kind}:${f.id}`, f.name]));
  return rows.map((r) => ({
    ...r,
    object_name: names.get(`${r.object_kind}:${r.object_id.toLowerCase()}`) ?? null,
    actor_name: r.actor_id ? (names.get(`actor:${r.actor_id}`) ?? null) : null,
  }));
}
