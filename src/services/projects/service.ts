// Creating a project in an existing account: the hub's Content screen (POST /hub/api/projects) and
// `switchboard projects create`. A project is its name and description (docs/architecture.md
// §12.7); its settings start at the defaults (SMS consent required, 5 automations per contact). The
// row and its project.created audit entry commit together.
import type { Db } from '../../db/db.js';
import { ApiError } from '../../domain/errors.js';
import { MAX_PROJECT_DESCRIPTION_LENGTH, MAX_PROJECT_NAME_LENGTH } from '../../domain/project.js';
import { uuidv7 } from '../../lib/ids.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { insertProject, type NewProjectRow } from './store.js';

export interface NewProjectInput {
  name: string;
  description?: string;
}

/** The input with the rules applied (trimmed; the name 1 to 200 characters on one line). */
export function checkProjectInput(input: NewProjectInput): { name: string; description: string } {
  const name = input.name.trim();
  if (!name || [...name].length > MAX_PROJECT_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new ApiError('invalid_field', `The project name must be 1 to ${MAX_PROJECT_NAME_LENGTH} characters on one line.`, { param: 'name' });
  }
  const description = (input.description ?? '').trim();
  if ([...description].length > MAX_PROJECT_DESCRIPTION_LENGTH) {
    throw new ApiError('invalid_field', `The description may have at most ${MAX_PROJECT_DESCRIPTION_LENGTH.toLocaleString('en-US')} characters.`, { param: 'description' });
  }
  return { name, description };
}

export async function createProject(db: Db, accountId: string, input: NewProjectInput, actor: Actor): Promise<NewProjectRow> {
  const { name, description } = checkProjectInput(input);
  return db.transaction(async (tx) => {
    const row = await insertProject(tx, accountId, uuidv7(), name, description);
    await recordAudit(tx, { accountId, actor, action: 'project.created', objectKind: 'project', objectId: row.id, detail: { name } });
    return row;
  });
}
