// Automations as the builder and `automations create|export` see them, SQL side: the draft with
// its project and status, one automation inserted as a draft, the published versions (who
// published each and when), the project's settings, and the soft delete.
import type { Queryable } from '../../db/db.js';
import { sqlList } from '../../db/sql-list.js';
import { ACTIVE_AUTOMATION_RUN_STATUSES, type ReenrollRule } from '../../domain/automation.js';
import type { Json, JsonObject } from '../../lib/json-fields.js';
import type { AutomationDraftRow, Draft } from './store.js';

const ACTIVE = sqlList(ACTIVE_AUTOMATION_RUN_STATUSES);

/** The draft's columns (never a deleted one), with its project and whether it has a webhook. */
export interface DefinitionRow extends Omit<AutomationDraftRow, 'deleted'> {
  project_id: string;
  webhook_configured: boolean;
}

/** A live (not deleted) automation of the account. */
export async function findDefinition(db: Queryable, accountId: string | null, id: string): Promise<DefinitionRow | null> {
  const rows = await db.query<DefinitionRow>(
    `select id, account_id, project_id, name, status, trigger, steps, run_only_if, reenroll, published_version,
            webhook_secret is not null as webhook_configured
       from automations where id = $2 and ($1::uuid is null or account_id = $1::uuid) and deleted_at is null`,
    [accountId, id],
  );
  return rows[0] ?? null;
}

export interface VersionRow {
  version: number;
  published_at: Date;
  published_by: string | null;
  trigger: JsonObject;
  steps: Json[];
  run_only_if: JsonObject | null;
  reenroll: ReenrollRule;
}

const VERSION_COLUMNS = 'version, published_at, published_by, trigger, steps, run_only_if, reenroll';

/** Every published version, newest first (an automation has a handful: no paging). */
export async function listVersions(db: Queryable, accountId: string, id: string): Promise<VersionRow[]> {
  return db.query<VersionRow>(
    `select ${VERSION_COLUMNS} from automation_versions where account_id = $1 and automation_id = $2 order by version desc`,
    [accountId, id],
  );
}

export async function findVersion(db: Queryable, accountId: string, id: string, version: number): Promise<VersionRow | null> {
  const rows = await db.query<VersionRow>(
    `select ${VERSION_COLUMNS} from automation_versions where account_id = $1 and automation_id = $2 and version = $3`,
    [accountId, id, version],
  );
  return rows[0] ?? null;
}

export interface ProjectRow {
  id: string;
  name: string;
  settings: Record<string, unknown>;
}

export async function findProject(db: Queryable, accountId: string, projectId: string): Promise<ProjectRow | null> {
  const rows = await db.query<ProjectRow>(`select id, name, settings from projects where account_id = $1 and id = $2`, [accountId, projectId]);
  return rows[0] ?? null;
}

/** A new automation, always a draft never published (publishing is publishDraft's). */
export async function insertDraftAutomation(tx: Queryable, accountId: string, id: string, projectId: string, d: Draft): Promise<void> {
  await tx.query(
    `insert into automations (account_id, id, project_id, name, status, trigger, steps, run_only_if, reenroll, published_version)
     values ($1, $2, $3, $4, 'draft', $5::jsonb, $6::jsonb, $7::jsonb, $8, 0)`,
    [accountId, id, projectId, d.name, JSON.stringify(d.trigger), JSON.stringify(d.steps), d.run_only_if === null ? null : JSON.stringify(d.run_only_if), d.reenroll],
  );
}

/** Marks it deleted (false when it already was); its webhook secret goes with it. */
export async function markDeleted(tx: Queryable, accountId: string, id: string): Promise<boolean> {
  const rows = await tx.query(
    `update automations set deleted_at = now(), webhook_secret = null, schedule_next_at = null, updated_at = now()
      where account_id = $1 and id = $2 and deleted_at is null returning id`,
    [accountId, id],
  );
  return rows.length > 0;
}

/** Its running and waiting runs (test runs included: they end with it too). */
export async function activeRunIds(tx: Queryable, accountId: string, id: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `select id from automation_runs where account_id = $1 and automation_id = $2 and status in (${ACTIVE}) order by id for no key update`,
    [accountId, id],
  );
  return rows.map((r) => r.id);
}
