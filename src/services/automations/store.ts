// Automations, write side: SQL of the draft (replace, publish as an immutable version, move the
// status), the reads a builder's test run checks, and the fixture loader's bulk insert. Every move re-checks
// the state in its UPDATE (or holds the row lock), so a concurrent move is refused rather than
// overwritten.
import { insertRows, type Columns } from '../../db/bulk-insert.js';
import type { Queryable } from '../../db/db.js';
import { oneRow } from '../../db/rows.js';
import type { Json, JsonObject } from '../../lib/json-fields.js';
import type { AutomationStatus, ReenrollRule } from '../../domain/automation.js';

export interface AutomationDraftRow {
  id: string;
  account_id: string;
  name: string;
  status: AutomationStatus;
  trigger: JsonObject;
  steps: Json[];
  run_only_if: JsonObject | null;
  reenroll: ReenrollRule;
  published_version: number;
  deleted: boolean;
}

export interface Draft {
  name: string;
  trigger: JsonObject;
  steps: Json[];
  run_only_if: JsonObject | null;
  reenroll: AutomationDraftRow['reenroll'];
}

/** An automation by id across accounts (operator commands), optionally narrowed to one account. */
export async function findAutomationDraft(
  db: Queryable,
  id: string,
  accountId: string | null,
  forUpdate = false,
): Promise<AutomationDraftRow | null> {
  const rows = await db.query<AutomationDraftRow>(
    `select id, account_id, name, status, trigger, steps, run_only_if, reenroll, published_version,
            deleted_at is not null as deleted
       from automations where id = $1 and ($2::uuid is null or account_id = $2::uuid)${forUpdate ? ' for no key update' : ''}`,
    [id, accountId],
  );
  return rows[0] ?? null;
}

/** Replaces the draft; the running version is untouched (runs keep theirs). */
export async function replaceDraft(tx: Queryable, accountId: string, id: string, d: Draft): Promise<boolean> {
  const rows = await tx.query(
    `update automations
        set name = $3, trigger = $4::jsonb, steps = $5::jsonb, run_only_if = $6::jsonb, reenroll = $7, updated_at = now()
      where account_id = $1 and id = $2 and deleted_at is null
      returning id`,
    [accountId, id, d.name, JSON.stringify(d.trigger), JSON.stringify(d.steps), d.run_only_if === null ? null : JSON.stringify(d.run_only_if), d.reenroll],
  );
  return rows.length > 0;
}

/** Whether the draft differs from the published version (false for a never-published draft). */
export async function hasUnpublishedChanges(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const rows = await db.query<{ changed: boolean }>(
    `select (v.trigger <> a.trigger or v.steps <> a.steps
             or coalesce(v.run_only_if, 'null'::jsonb) <> coalesce(a.run_only_if, 'null'::jsonb)
             or v.reenroll <> a.reenroll) as changed
       from automations a
       join automation_versions v on v.account_id = a.account_id and v.automation_id = a.id and v.version = a.published_version
      where a.account_id = $1 and a.id = $2`,
    [accountId, id],
  );
  return rows[0]?.changed ?? false;
}

/** Who publishes a version: the versions list's label, and the hub user when one did it. */
export interface Publisher {
  label: string;
  userId: string | null;
}

/**
 * Snapshots the draft as the next version and makes it the one that runs. A draft becomes
 * `published`; a paused automation stays paused (only resuming moves paused → published, and an
 * operator who paused it must not have it start sending again as a side effect). Call with the
 * automation row locked (findAutomationDraft(..., forUpdate)).
 */
export async function publishDraft(
  tx: Queryable,
  accountId: string,
  id: string,
  by: Publisher,
): Promise<{ version: number; status: AutomationStatus }> {
  const { version } = oneRow(await tx.query<{ version: number }>(
    `insert into automation_versions (account_id, automation_id, version, trigger, steps, run_only_if, reenroll, published_by, published_by_user)
     select a.account_id, a.id,
            coalesce((select max(v.version) from automation_versions v where v.account_id = a.account_id and v.automation_id = a.id), 0) + 1,
            a.trigger, a.steps, a.run_only_if, a.reenroll, $3, $4::uuid
       from automations a where a.account_id = $1 and a.id = $2
     returning version`,
    [accountId, id, by.label, by.userId],
  ), 'the new automation version');
  const row = oneRow(await tx.query<{ status: AutomationStatus }>(
    `update automations
        set published_version = $3, status = case when status = 'draft' then 'published' else status end, updated_at = now()
      where account_id = $1 and id = $2
      returning status`,
    [accountId, id, version],
  ), 'the automation just published');
  return { version, status: row.status };
}

/** Moves the status from `from` to `to`; false when the automation was not in `from` (or is deleted). */
export async function moveStatus(tx: Queryable, accountId: string, id: string, from: AutomationStatus, to: AutomationStatus): Promise<boolean> {
  const rows = await tx.query(
    `update automations set status = $4, updated_at = now()
      where account_id = $1 and id = $2 and status = $3 and deleted_at is null
      returning id`,
    [accountId, id, from, to],
  );
  return rows.length > 0;
}

// A builder's test run (CLI `automations test`, the hub): what it needs to know before starting.

export async function versionExists(tx: Queryable, accountId: string, automationId: string, version: number): Promise<boolean> {
  const rows = await tx.query(`select 1 from automation_versions where account_id = $1 and automation_id = $2 and version = $3`, [
    accountId,
    automationId,
    version,
  ]);
  return rows.length > 0;
}

export async function testerOf(tx: Queryable, accountId: string, userId: string): Promise<{ email: string; name: string } | null> {
  const rows = await tx.query<{ email: string; name: string }>(`select email, name from users where account_id = $1 and id = $2`, [accountId, userId]);
  return rows[0] ?? null;
}

export async function contactStateForTest(
  tx: Queryable,
  accountId: string,
  contactId: string,
): Promise<{ archived: boolean; erased: boolean } | null> {
  const rows = await tx.query<{ archived: boolean; erased: boolean }>(
    `select archived_at is not null as archived, erased_at is not null as erased from contacts where account_id = $1 and id = $2`,
    [accountId, contactId],
  );
  return rows[0] ?? null;
}

/**
 * The inbound webhook's secret, as its hash (the secret itself is shown once and never stored);
 * replacing it makes the previous URL stop working at once.
 */
export async function setWebhookHash(db: Queryable, accountId: string, automationId: string, hash: string): Promise<boolean> {
  const rows = await db.query(`update automations set webhook_secret = $3 where account_id = $1 and id = $2 and deleted_at is null returning id`, [
    accountId,
    automationId,
    hash,
  ]);
  return rows.length > 0;
}

// The fixture loader's bulk insert: automations, and version 1 of each published or paused one.

const AUTOMATION_COLS: Columns = [
  ['account_id', 'uuid'], ['id', 'uuid'], ['project_id', 'uuid'], ['name', 'text'], ['status', 'text'], ['trigger', 'jsonb'],
  ['steps', 'jsonb'], ['run_only_if', 'jsonb'], ['reenroll', 'text'], ['published_version', 'int4'],
];
const VERSION_COLS: Columns = [
  ['account_id', 'uuid'], ['automation_id', 'uuid'], ['version', 'int4'], ['trigger', 'jsonb'], ['steps', 'jsonb'],
  ['run_only_if', 'jsonb'], ['reenroll', 'text'], ['published_at', 'timestamptz'],
];

export interface AutomationInsert {
  id: string;
  projectId: string;
  name: string;
  status: AutomationStatus;
  trigger: unknown;
  steps: unknown;
  runOnlyIf: unknown;
  reenroll: string;
}

const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

/** `publishedAt` is version 1's time (the seed's transaction clock). */
export async function insertAutomations(tx: Queryable, accountId: string, rows: AutomationInsert[], publishedAt: Date): Promise<void> {
  await insertRows(
    tx,
    'automations',
    AUTOMATION_COLS,
    rows.map((x) => [
      accountId, x.id, x.projectId, x.name, x.status, json(x.trigger), json(x.steps), json(x.runOnlyIf), x.reenroll,
      x.status === 'draft' ? 0 : 1,
    ]),
  );
  // A paused automation was published once, so it has a version 1 just like a published one.
  await insertRows(
    tx,
    'automation_versions',
    VERSION_COLS,
    rows
      .filter((x) => x.status !== 'draft')
      .map((x) => [accountId, x.id, 1, json(x.trigger), json(x.steps), json(x.runOnlyIf), x.reenroll, publishedAt]),
  );
}
