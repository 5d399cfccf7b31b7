// Admission to the automation queue: the locks and the per-contact state an enrollment (the API)
// and a trigger (the engine) take and read, in the same order, before enqueueAutomationRun; the
// rule deciding on them is domain/enrollment.ts. Every
// contact of a request is classified in one query, so enrolling 500 contacts costs a handful of
// round trips.
import type { Queryable } from '../db/db.js';
import { sqlList } from '../db/sql-list.js';
import { ACTIVE_AUTOMATION_RUN_STATUSES, type AutomationStatus, type ReenrollRule } from '../domain/automation.js';
import type { ContactState } from '../domain/enrollment.js';

const ACTIVE = sqlList(ACTIVE_AUTOMATION_RUN_STATUSES);

export interface AutomationForEnroll {
  status: AutomationStatus;
  published_version: number;
  reenroll: ReenrollRule;
  project_id: string;
  max_per_contact: number;
}

/** Namespace of the per-contact enrollment locks (two-key advisory locks; one-key ones are LOCKS). */
const CONTACT_LOCK_NS = 726_102;

/**
 * Locks the contacts about to be enrolled (or started by a trigger), for this transaction: the
 * per-project limit of automations at once counts runs in other automations, which the
 * automation's own lock does not cover, so two enrollments of one contact into two automations
 * must take turns. Always taken before the automation's row lock, in ascending key order, so
 * concurrent enrollments and triggers never deadlock. (A shared key between two contacts only
 * makes them take turns too.)
 */
export async function lockContactsForEnrollment(tx: Queryable, contactIds: readonly string[]): Promise<void> {
  // The uuid's last 32 bits: random in both UUID versions used here.
  const keys = [...new Set(contactIds.map((id) => parseInt(id.slice(-8), 16) | 0))].sort((a, b) => a - b);
  if (keys.length === 0) return;
  // unnest yields the array in order, so the locks are taken in ascending order.
  await tx.query('select count(pg_advisory_xact_lock($1, k)) from unnest($2::int[]) as k', [CONTACT_LOCK_NS, keys]);
}

/**
 * The automation, locked: concurrent enrollments in one automation take turns. Re-enrollment is
 * the running version's (a draft's own until it is first published).
 */
export async function lockAutomation(tx: Queryable, accountId: string, automationId: string): Promise<AutomationForEnroll | null> {
  const rows = await tx.query<AutomationForEnroll>(
    `select a.status, a.published_version, coalesce(v.reenroll, a.reenroll) as reenroll, a.project_id,
            coalesce((p.settings->>'max_automations_per_contact')::int, 5) as max_per_contact
       from automations a join projects p on p.account_id = a.account_id and p.id = a.project_id
       left join automation_versions v on v.account_id = a.account_id and v.automation_id = a.id and v.version = a.published_version
      where a.account_id = $1 and a.id = $2 and a.deleted_at is null
      for no key update of a`,
    [accountId, automationId],
  );
  return rows[0] ?? null;
}

/** The facts the admission rule (domain/enrollment.ts) decides on, for every contact at once. */
export async function classifyContacts(
  tx: Queryable,
  accountId: string,
  automationId: string,
  projectId: string,
  contactIds: string[],
): Promise<Map<string, ContactState>> {
  const rows = await tx.query<ContactState>(
    `with ids as (select distinct unnest($4::uuid[]) as id)
     select ids.id,
            c.id is not null as found,
            c.archived_at is not null as archived,
            c.erased_at is not null as erased,
            exists (select 1 from automation_runs r
                     where r.account_id = $1 and r.automation_id = $2 and r.contact_id = ids.id
                       and r.status in (${ACTIVE}) and not r.test) as active_here,
            exists (select 1 from automation_runs r
                     where r.account_id = $1 and r.automation_id = $2 and r.contact_id = ids.id
                       and r.status <> 'skipped' and not r.test) as before_here,
            (select count(distinct r.automation_id)::int from automation_runs r
               join automations a on a.account_id = r.account_id and a.id = r.automation_id
              where r.account_id = $1 and r.contact_id = ids.id and a.project_id = $3
                and r.status in (${ACTIVE}) and not r.test) as active_in_project
       from ids left join contacts c on c.account_id = $1 and c.id = ids.id`,
    [accountId, automationId, projectId, contactIds],
  );
  return new Map(rows.map((r) => [r.id, r]));
}
