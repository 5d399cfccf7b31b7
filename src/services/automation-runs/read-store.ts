// Automation runs, read side: the one home of the reads /v1, the hub and the CLI share (an
// automation's runs, a run with its steps, a contact's runs), beside the write side (store.ts:
// the operator's stop). It stands in services/, below api/, hub/ and cli/, so all three read the
// same rows with the same types. The contact's display name is worked out in SQL (first + last
// name, else the email; an erased contact keeps only its id), so the person's other data never
// leaves the database. What a step sent is never selected.
import type { Queryable } from '../../db/db.js';
import { AUTOMATION_RUN_STATUS_LABELS, type AutomationRunStatus } from '../../domain/automation.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';

/** Run history's words for each status (the domain's, where the hub reads them too). */
export const STATUS_LABELS = AUTOMATION_RUN_STATUS_LABELS;

export interface AutomationRunRow {
  id: string;
  automation_id: string;
  contact_id: string | null;
  contact_name: string | null;
  status: AutomationRunStatus;
  started_by: string;
  test: boolean;
  version: number;
  started_at: Date;
  finished_at: Date | null;
  next_at: Date | null;
  error: string | null;
  failed_step_id: string | null;
}

/** A contact's display name from the contact row aliased `c` (null when there is no contact). */
export const CONTACT_NAME_SQL = `case when c.id is null then null
              when c.erased_at is not null then 'Erased contact'
              else coalesce(nullif(trim(concat_ws(' ', nullif(trim(c.first_name), ''), nullif(trim(c.last_name), ''))), ''),
                            nullif(c.email, ''), 'Unnamed contact')
         end`;

const SELECT = `
  select r.id, r.automation_id, r.contact_id,
         ${CONTACT_NAME_SQL} as contact_name,
         r.status, r.started_by, r.test, r.version, r.started_at, r.finished_at, r.next_at, r.error, r.failed_step_id
    from automation_runs r
    left join contacts c on c.account_id = r.account_id and c.id = r.contact_id`;

const ORDER = new KeysetOrder('r.started_at', 'r.id', 'desc');

export async function listAutomationRuns(
  db: Queryable,
  accountId: string,
  automationId: string,
  status: AutomationRunStatus | undefined,
  page: KeysetPage,
): Promise<AutomationRunRow[]> {
  const w = new ListSql([accountId, automationId], ['r.account_id = $1', 'r.automation_id = $2']).eq('r.status', status).after(ORDER, page);
  return db.query<AutomationRunRow>(`${SELECT} where ${w.sql} ${w.tail(ORDER, page)}`, w.params);
}

export async function getAutomationRun(db: Queryable, accountId: string, id: string): Promise<AutomationRunRow | null> {
  const rows = await db.query<AutomationRunRow>(`${SELECT} where r.account_id = $1 and r.id = $2`, [accountId, id]);
  return rows[0] ?? null;
}

export interface AutomationRunStepRow {
  step_id: string;
  name: string;
  type: string;
  status: string;
  started_at: Date | null;
  ms: number;
  error: string | null;
  /** What the step produced (an outbox id, a wait's end, the branch taken, a task key…): the hub's run page words it. */
  output: Record<string, unknown> | null;
}

/** Steps in the order they ran, the trigger (`t`) first whatever its seq. */
export async function getAutomationRunSteps(db: Queryable, accountId: string, runId: string): Promise<AutomationRunStepRow[]> {
  return db.query<AutomationRunStepRow>(
    `select step_id, name, type, status, started_at, ms, error, output
       from automation_run_steps where account_id = $1 and run_id = $2
      order by (step_id = 't') desc, seq`,
    [accountId, runId],
  );
}

/**
 * The trigger's label of what the run runs: its own snapshot (a test of the draft), else the
 * version it pins, else the draft's (a version that does not exist).
 */
export async function runTriggerLabel(db: Queryable, accountId: string, runId: string): Promise<string> {
  const rows = await db.query<{ label: string | null }>(
    `select coalesce(r.definition->'trigger', v.trigger, a.trigger)->>'label' as label
       from automation_runs r
       join automations a on a.account_id = r.account_id and a.id = r.automation_id
       left join automation_versions v on v.account_id = r.account_id and v.automation_id = r.automation_id and v.version = r.version
      where r.account_id = $1 and r.id = $2`,
    [accountId, runId],
  );
  return rows[0]?.label || 'Trigger';
}

/** A step of the definition a run runs, as far as its run page needs it. */
export interface RunDefinitionStep {
  id: string;
  type: string;
  config: Record<string, unknown>;
}

/**
 * The automation's name and the steps of what the run runs: its own snapshot (a test of the
 * draft), else the version it pins, else the draft's (as runTriggerLabel). Null: no such run.
 */
export async function runDefinition(
  db: Queryable,
  accountId: string,
  runId: string,
): Promise<{ automation_name: string; steps: RunDefinitionStep[] } | null> {
  const rows = await db.query<{ automation_name: string; steps: RunDefinitionStep[] | null }>(
    `select a.name as automation_name, coalesce(r.definition->'steps', v.steps, a.steps) as steps
       from automation_runs r
       join automations a on a.account_id = r.account_id and a.id = r.automation_id
       left join automation_versions v on v.account_id = r.account_id and v.automation_id = r.automation_id and v.version = r.version
      where r.account_id = $1 and r.id = $2`,
    [accountId, runId],
  );
  const row = rows[0];
  return row ? { automation_name: row.automation_name, steps: Array.isArray(row.steps) ? row.steps : [] } : null;
}
