// The blocks' SQL: source.item reads a content item; output.project writes the run's page exactly
// once per step (see output-project.ts for why the lock and the share lock are there).
import type { Queryable } from '../../db/db.js';
import type { RunStatus } from '../../domain/workflow.js';
import { uuidv7 } from '../../lib/ids.js';

/** Namespace of the two-key advisory locks taken here (the one-key space holds LOCKS in db.ts). */
const EFFECT_LOCK_NS = 726_101;

export interface SourceItemRow {
  kind: string;
  title: string;
  text: string | null;
  attrs: Record<string, unknown> | null;
}

/** A content item of the run's account; another account's item is "not found", never readable. */
export async function readItem(db: Queryable, accountId: string, id: string): Promise<SourceItemRow | null> {
  const rows = await db.query<SourceItemRow>('select kind, title, text, attrs from content_items where account_id = $1 and id = $2', [
    accountId,
    id,
  ]);
  return rows[0] ?? null;
}

/** Serialises everything done for one effect key until the transaction ends. */
export async function lockEffect(tx: Queryable, effectKey: string): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [EFFECT_LOCK_NS, effectKey]);
}

/** The run's status under a share lock (a concurrent cancel waits for this transaction), or null. */
export async function runStatusForShare(tx: Queryable, accountId: string, runId: string): Promise<RunStatus | null> {
  const [run] = await tx.query<{ status: RunStatus }>('select status from workflow_runs where account_id = $1 and id = $2 for share', [
    accountId,
    runId,
  ]);
  return run?.status ?? null;
}

/** The page an earlier attempt of this step made, if any. */
export async function pageByEffectKey(tx: Queryable, accountId: string, projectId: string, effectKey: string): Promise<string | null> {
  const existing = await tx.query<{ id: string }>(
    `select id from content_items
          where account_id = $1 and project_id = $2 and attrs ->> 'effect_key' = $3
          limit 1`,
    [accountId, projectId, effectKey],
  );
  return existing[0]?.id ?? null;
}

export async function projectExists(tx: Queryable, accountId: string, projectId: string): Promise<boolean> {
  return (await tx.query('select 1 from projects where account_id = $1 and id = $2', [accountId, projectId])).length > 0;
}

export interface RunPage {
  accountId: string;
  projectId: string;
  title: string;
  text: string;
  html: string;
  effectKey: string;
  keyId: string | null;
}

/** Inserts the page with its effect key in attrs; returns its id. */
export async function insertRunPage(tx: Queryable, p: RunPage): Promise<string> {
  const id = uuidv7();
  await tx.query(
    `insert into content_items (account_id, id, project_id, kind, title, text, html, attrs, created_by_key)
         values ($1, $2, $3, 'page', $4, $5, $6, $7, $8)`,
    [p.accountId, id, p.projectId, p.title, p.text, p.html, JSON.stringify({ effect_key: p.effectKey }), p.keyId],
  );
  return id;
}
