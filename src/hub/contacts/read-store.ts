// A contact's timeline, read side (issue 25, item 4): its automation runs, the messages those runs
// sent, and the changes the audit log recorded about it (0030's audit_log_by_object), newest
// first in one keyset-paged statement over the three. A contact created through /v1 has no audit
// entry (the API records none): its creation comes from the contact row. What a change set a
// field to is never recorded (the audit names fields only), and message bodies are not selected.
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';

export interface TimelineRow {
  kind: 'run' | 'message' | 'change';
  id: string;
  at: Date;
  /** run, message: the automation's name. */
  automation_name: string | null;
  /** run: its status; message: the outbox status. */
  status: string | null;
  /** message: email, sms or team. */
  channel: string | null;
  test: boolean;
  subject: string | null;
  /** change: the audit action and who did it, and its detail ({fields} for an edit). */
  action: string | null;
  actor_label: string | null;
  detail: Record<string, unknown> | null;
}

const ORDER = new KeysetOrder('t.at', 't.id', 'desc');

// $1 the account, $2 the contact (as uuid; the audit log keeps object ids as text).
const ENTRIES = `
  select 'run' as kind, r.id, r.started_at as at, a.name as automation_name, r.status, null::text as channel, r.test,
         null::text as subject, null::text as action, null::text as actor_label, null::jsonb as detail
    from automation_runs r
    join automations a on a.account_id = r.account_id and a.id = r.automation_id
   where r.account_id = $1 and r.contact_id = $2::uuid
  union all
  select 'message', o.id, o.created_at, a.name, o.status, o.channel, r.test, o.subject, null, null, null
    from automation_runs r
    join outbox o on o.account_id = r.account_id and o.automation_run_id = r.id
    join automations a on a.account_id = r.account_id and a.id = r.automation_id
   where r.account_id = $1 and r.contact_id = $2::uuid
  union all
  select 'change', l.id, l.at, null, null, null, false, null, l.action, l.actor_label, l.detail
    from audit_log l
   where l.account_id = $1 and l.object_id = ($2::uuid)::text and l.object_kind = 'contact'
  union all
  select 'change', c.id, c.created_at, null, null, null, false, null, 'contact.created', null, null
    from contacts c
   where c.account_id = $1 and c.id = $2::uuid
     and not exists (select 1 from audit_log x where x.account_id = $1 and x.object_id = ($2::uuid)::text and x.action = 'contact.created')`;

/** One page of the contact's timeline, newest first. */
export async function contactTimeline(db: Queryable, accountId: string, contactId: string, page: KeysetPage): Promise<TimelineRow[]> {
  const w = new ListSql([accountId, contactId], ['true']).after(ORDER, page);
  return db.query<TimelineRow>(`select t.* from (${ENTRIES}) t where ${w.sql} ${w.tail(ORDER, page)}`, w.params);
}
