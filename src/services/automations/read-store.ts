// Automations, read side: SQL for the summary (docs/architecture.md §12.4 "Automation summary").
// One statement per page: the page of automation rows is chosen first (keyset on the (account_id,
// updated_at desc, id desc) index), and only those rows get the lateral step summary and run
// counters, so a page of 25 costs 25 small lookups however many automations the account has. Step
// settings never leave the database: only each step's `type` is read out of the steps JSON.
// Its home is services/, below api/, hub/ and cli/: /v1 and the hub read the same rows through it.
import type { Queryable } from '../../db/db.js';
import { sqlList } from '../../db/sql-list.js';
import { ACTIVE_AUTOMATION_RUN_STATUSES, type AutomationStatus } from '../../domain/automation.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';

const ACTIVE = sqlList(ACTIVE_AUTOMATION_RUN_STATUSES);

export interface AutomationRow {
  id: string;
  project_id: string;
  name: string;
  status: AutomationStatus;
  trigger_type: string | null;
  trigger_label: string;
  published_version: number;
  has_unpublished_changes: boolean;
  step_count: number;
  /** Step kinds of the running version, each once, in first-seen order. */
  step_types: string[];
  total: number;
  active: number;
  completed: number;
  last_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AutomationFilters {
  status?: AutomationStatus;
  projectId?: string;
}

/**
 * `page` is a subquery of automations rows (alias-free columns of the table). The running version
 * is the published one, or the draft before the first publication; `v` is that version's row.
 * Drafts and versions are compared as jsonb (order of keys does not matter); a missing
 * run_only_if may be SQL null or JSON null, so both sides are coalesced to JSON null.
 */
const summarySql = (page: string, order: string) => `
  select a.id, a.project_id, a.name, a.status,
         coalesce(v.trigger, a.trigger)->>'type' as trigger_type,
         coalesce(coalesce(v.trigger, a.trigger)->>'label', '') as trigger_label,
         a.published_version,
         (v.version is not null and (
            v.trigger <> a.trigger or v.steps <> a.steps
            or coalesce(v.run_only_if, 'null'::jsonb) <> coalesce(a.run_only_if, 'null'::jsonb)
            or v.reenroll <> a.reenroll)) as has_unpublished_changes,
         st.step_count, st.step_types,
         rc.total, rc.active, rc.completed,
         -- the column is the engine's to keep; the runs themselves are the fallback (test runs never count)
         greatest(a.last_run_at, rc.last_started_at) as last_run_at,
         a.created_at, a.updated_at
    from (${page}) a
    -- lateral, so each page row probes the primary key (a plain join hashed the whole table)
    left join lateral (
      select v.version, v.trigger, v.steps, v.run_only_if, v.reenroll from automation_versions v
       where v.account_id = a.account_id and v.automation_id = a.id and v.version = a.published_version
       limit 1 -- (the primary key makes it one row; the limit keeps the planner from flattening the lateral)
    ) v on true
    cross join lateral (
      select coalesce(sum(k.n), 0)::int as step_count,
             coalesce(jsonb_agg(k.type order by k.first_at), '[]'::jsonb) as step_types
        from (select e.s->>'type' as type, min(e.ord) as first_at, count(*) as n
                from jsonb_array_elements(coalesce(v.steps, a.steps)) with ordinality as e(s, ord)
               group by 1) k
    ) st
    cross join lateral (
      select count(*) filter (where r.status <> 'skipped')::int as total,
             count(*) filter (where r.status in (${ACTIVE}))::int as active,
             count(*) filter (where r.status = 'succeeded')::int as completed,
             max(r.started_at) as last_started_at
        from automation_runs r
       where r.account_id = a.account_id and r.automation_id = a.id and not r.test
    ) rc
   ${order}`;

const PAGE_COLUMNS =
  'account_id, id, project_id, name, status, trigger, steps, run_only_if, reenroll, published_version, last_run_at, created_at, updated_at';

const ORDER = new KeysetOrder('updated_at', 'id', 'desc');

/** The page is chosen on the automations table alone; the outer query keeps its order. */
export async function listAutomations(
  db: Queryable,
  accountId: string,
  filters: AutomationFilters,
  page: KeysetPage,
): Promise<AutomationRow[]> {
  const w = new ListSql([accountId], ['account_id = $1', 'deleted_at is null'])
    .eq('status', filters.status)
    .eq('project_id', filters.projectId)
    .after(ORDER, page);
  const pageSql = `select ${PAGE_COLUMNS} from automations where ${w.sql}
                 ${w.tail(ORDER, page)}`;
  return db.query<AutomationRow>(summarySql(pageSql, 'order by a.updated_at desc, a.id desc'), w.params);
}

export async function getAutomation(db: Queryable, accountId: string, id: string): Promise<AutomationRow | null> {
  const page = `select ${PAGE_COLUMNS} from automations where account_id = $1 and id = $2 and deleted_at is null`;
  const rows = await db.query<AutomationRow>(summarySql(page, ''), [accountId, id]);
  return rows[0] ?? null;
}

/** Whether the automation exists in the account (and is not deleted): the runs list's 404 check. */
export async function automationExists(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const rows = await db.query(`select 1 from automations where account_id = $1 and id = $2 and deleted_at is null`, [accountId, id]);
  return rows.length > 0;
}
