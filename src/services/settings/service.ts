// Account settings the account's owners and admins change: the account's name and each project's
// settings (SMS consent required, automations per contact; docs/architecture.md §12.3). Tier,
// limits, subscription and state are the operator's (`account set`) and only read here. Each change
// and its audit entry commit together.
import type { Db } from '../../db/db.js';
import { getAccount } from '../../accounts/store.js';
import type { AccountRow } from '../../domain/account.js';
import { ApiError, found } from '../../domain/errors.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { lockProjectSettings, projectSettings, renameAccount, writeProjectSettings } from './store.js';

/** Defaults when a project's settings do not say (the executor and enrollment read the same). */
export const DEFAULT_SMS_CONSENT_REQUIRED = true;
export const DEFAULT_MAX_AUTOMATIONS_PER_CONTACT = 5;
const INT4_MAX = 2_147_483_647;

export interface ProjectSettings {
  sms_consent_required: boolean;
  max_automations_per_contact: number;
}

export interface ProjectWithSettings {
  id: string;
  name: string;
  settings: ProjectSettings;
}

export interface AccountSettings {
  account: AccountRow;
  projects: ProjectWithSettings[];
}

/** A project's settings with the defaults filled in, as the engine applies them. */
export function effectiveSettings(stored: Record<string, unknown>): ProjectSettings {
  const max = stored.max_automations_per_contact;
  return {
    sms_consent_required: stored.sms_consent_required !== false,
    max_automations_per_contact: typeof max === 'number' && Number.isInteger(max) && max >= 1 ? max : DEFAULT_MAX_AUTOMATIONS_PER_CONTACT,
  };
}

export async function readSettings(db: Db, accountId: string): Promise<AccountSettings> {
  const account = found(await getAccount(db, accountId), 'account');
  const projects = await projectSettings(db, accountId);
  return { account, projects: projects.map((p) => ({ id: p.id, name: p.name, settings: effectiveSettings(p.settings) })) };
}

export async function renameAccountBy(db: Db, accountId: string, rawName: string, actor: Actor): Promise<void> {
  const name = rawName.trim();
  if (!name || name.length > 200 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new ApiError('invalid_field', 'The account name must be 1 to 200 characters on one line.', { param: 'name' });
  }
  await db.transaction(async (tx) => {
    const before = found(await getAccount(tx, accountId), 'account');
    if (before.name === name) return;
    await renameAccount(tx, accountId, name);
    await recordAudit(tx, { accountId, actor, action: 'account.settings_changed', objectKind: 'account', objectId: accountId, detail: { name: { from: before.name, to: name } } });
  });
}

export async function changeProjectSettings(db: Db, accountId: string, projectId: string, changes: Partial<ProjectSettings>, actor: Actor): Promise<ProjectWithSettings> {
  const max = changes.max_automations_per_contact;
  if (max !== undefined && (!Number.isInteger(max) || max < 1 || max > INT4_MAX)) {
    throw new ApiError('invalid_field', 'max_automations_per_contact must be a whole number of at least 1.', { param: 'max_automations_per_contact' });
  }
  return db.transaction(async (tx) => {
    const project = found(await lockProjectSettings(tx, accountId, projectId), 'project');
    const before = effectiveSettings(project.settings);
    const stored = { ...project.settings };
    const detail: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of ['sms_consent_required', 'max_automations_per_contact'] as const) {
      const value = changes[key];
      if (value === undefined) continue;
      stored[key] = value;
      if (before[key] !== value) detail[key] = { from: before[key], to: value };
    }
    if (Object.keys(detail).length) {
      await writeProjectSettings(tx, accountId, projectId, stored);
      await recordAudit(tx, { accountId, actor, action: 'project.settings_changed', objectKind: 'project', objectId: projectId, detail: { project: project.name, ...detail } });
    }
    return { id: project.id, name: project.name, settings: effectiveSettings(stored) };
  });
}
