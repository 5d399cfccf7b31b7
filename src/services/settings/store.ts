// What the account's people may change about it: its name and each project's settings. SQL.
import type { Queryable } from '../../db/db.js';

export interface ProjectSettingsRow {
  id: string;
  name: string;
  /** The stored settings (docs/architecture.md §12.3); absent keys mean the defaults. */
  settings: Record<string, unknown>;
}

export async function renameAccount(tx: Queryable, accountId: string, name: string): Promise<void> {
  await tx.query(`update accounts set name = $2, updated_at = now() where id = $1`, [accountId, name]);
}

/** Every project of the account with its settings, oldest first (the settings screen lists them all). */
export async function projectSettings(db: Queryable, accountId: string): Promise<ProjectSettingsRow[]> {
  return db.query<ProjectSettingsRow>(`select id, name, settings from projects where account_id = $1 order by created_at, id`, [accountId]);
}

/** The project, locked until the transaction ends so two edits of its settings apply one after the other. */
export async function lockProjectSettings(tx: Queryable, accountId: string, projectId: string): Promise<ProjectSettingsRow | null> {
  const rows = await tx.query<ProjectSettingsRow>(`select id, name, settings from projects where account_id = $1 and id = $2 for no key update`, [accountId, projectId]);
  return rows[0] ?? null;
}

export async function writeProjectSettings(tx: Queryable, accountId: string, projectId: string, settings: Record<string, unknown>): Promise<void> {
  await tx.query(`update projects set settings = $3::jsonb, updated_at = now() where account_id = $1 and id = $2`, [accountId, projectId, JSON.stringify(settings)]);
}
