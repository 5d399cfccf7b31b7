// Opening work management in a project and renaming its key prefix (owners and admins; the hub's
// routes say so). The prefix rule is the one the stored data and the fixture format already hold
// (src/domain/work-item.ts, PREFIX_RE); each change is audited in its own transaction.
import type { Db } from '../../db/db.js';
import { ApiError, found, notFound } from '../../domain/errors.js';
import { PREFIX_RE } from '../../domain/work-item.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { projectExists } from '../pages/store.js';
import { getWmProject, type WmProjectRow } from './read-store.js';
import { openArea, setPrefix } from './write-store.js';

/** The prefix as sent, checked against the stored data's rule; the refusal names the field. */
export function checkedPrefix(raw: string): string {
  if (!PREFIX_RE.test(raw)) {
    throw new ApiError('invalid_field', `The field prefix must be a capital letter, then up to 9 capitals or digits, such as WEB (got ${JSON.stringify(raw.slice(0, 40))}).`, {
      param: 'prefix',
    });
  }
  return raw;
}

/**
 * Opens the area with its first prefix: 404 for a project that is not the account's, 409
 * work_area_open for one that already opened it (its prefix is renamed, never opened again).
 */
export async function openWorkArea(db: Db, accountId: string, projectId: string, rawPrefix: string, actor: Actor): Promise<WmProjectRow> {
  const prefix = checkedPrefix(rawPrefix);
  return db.transaction(async (tx) => {
    if (!(await openArea(tx, accountId, projectId, prefix))) {
      if (!(await projectExists(tx, accountId, projectId))) throw notFound('project');
      throw new ApiError('work_area_open', 'This project already opened work management; rename its key prefix instead.', { param: 'prefix' });
    }
    const project = found(await getWmProject(tx, accountId, projectId), 'project');
    await recordAudit(tx, { accountId, actor, action: 'work.opened', objectKind: 'project', objectId: projectId, detail: { project: project.name, prefix } });
    return project;
  });
}

/**
 * Renames the prefix: the old one joins the previous prefixes, so keys written with it still find
 * their items. The same prefix again changes nothing (and records nothing).
 */
export async function renameWorkPrefix(db: Db, accountId: string, projectId: string, rawPrefix: string, actor: Actor): Promise<WmProjectRow> {
  const prefix = checkedPrefix(rawPrefix);
  return db.transaction(async (tx) => {
    const project = found(await getWmProject(tx, accountId, projectId, true), 'project with work management');
    if (project.wm_prefix === prefix) return project;
    await setPrefix(tx, accountId, projectId, project.wm_prefix, prefix);
    await recordAudit(tx, {
      accountId,
      actor,
      action: 'work.prefix_changed',
      objectKind: 'project',
      objectId: projectId,
      detail: { project: project.name, from: project.wm_prefix, to: prefix },
    });
    return found(await getWmProject(tx, accountId, projectId), 'project with work management');
  });
}
