// Contacts, the hub's own reads: what a contact's page shows beyond /v1's Contact (the STOP flag,
// its automation runs). The list and the row itself are /v1's reads (src/api/contacts/store.ts,
// src/services/contacts/store.ts).
import type { Queryable } from '../../db/db.js';
import type { AutomationRunStatus } from '../../domain/automation.js';

/** Whether the live contact replied STOP to an SMS (null: no such live contact). */
export async function smsStopped(db: Queryable, accountId: string, id: string): Promise<boolean | null> {
  const rows = await db.query<{ sms_stopped: boolean }>(
    `select sms_stopped from contacts where account_id = $1 and id = $2 and archived_at is null and erased_at is null`,
    [accountId, id],
  );
  return rows[0]?.sms_stopped ?? null;
}

export interface ContactRunRow {
  id: string;
  automation_id: string;
  automation_name: string;
  status: AutomationRunStatus;
  test: boolean;
  version: number;
  started_at: Date;
  finished_at: Date | null;
  next_at: Date | null;
  error: string | null;
}

/** The contact's automation runs, newest first (automation_runs_by_contact: a contact has few). */
export async function contactRuns(db: Queryable, accountId: string, contactId: string, limit: number): Promise<ContactRunRow[]> {
  return db.query<ContactRunRow>(
    `select r.id, r.automation_id, a.name as automation_name, r.status, r.test, r.version, r.started_at, r.finished_at, r.next_at, r.error
       from automation_runs r
       join automations a on a.account_id = r.account_id and a.id = r.automation_id
      where r.account_id = $1 and r.contact_id = $2
      order by r.started_at desc, r.id desc
      limit $3`,
    [accountId, contactId, limit],
  );
}
