// `switchboard projects create --account ID --name NAME [--description TEXT] [--json]`: a project
// in an existing account, with the hub's rules (services/projects/service.ts) and its
// project.created audit entry, so an operator can give a new account somewhere to build.
import { getAccount } from '../accounts/store.js';
import type { Db } from '../db/db.js';
import { OPERATOR } from '../services/audit/service.js';
import { createProject } from '../services/projects/service.js';
import { parseCommandArgs, required, show, uuidArg } from './args.js';
import type { OperatorCommand } from './command.js';
import { CommandError, UsageError, done, iso, json, type CommandResult } from './result.js';

export const PROJECTS_USAGE = `Usage:
  switchboard projects create --account ID --name NAME [--description TEXT] [--json]

  create  a project in the account (name 1 to 200 characters on one line, description up to 2,000),
          with the default settings (SMS consent required, 5 automations per contact).`;

type ProjectsArgs = { action: 'create'; accountId: string; name: string; description: string; json: boolean };

function parse(args: readonly string[]): ProjectsArgs {
  const [action, ...rest] = args;
  if (action === 'create') {
    const p = parseCommandArgs(rest, { strings: ['account', 'name', 'description'], flags: ['json'] });
    return { action, accountId: uuidArg(p, 'account'), name: required(p, 'name'), description: p.strings.get('description') ?? '', json: p.flags.has('json') };
  }
  if (action === undefined) throw new UsageError('projects needs an action: create');
  throw new UsageError(`unknown projects action ${show(action)}`);
}

async function run(db: Db, a: ProjectsArgs): Promise<CommandResult> {
  if (!(await getAccount(db, a.accountId))) throw new CommandError(`no account ${a.accountId}`);
  // A name or description the service refuses is a bad flag (fieldsAreFlags below).
  const row = await createProject(db, a.accountId, { name: a.name, description: a.description }, OPERATOR);
  const out = { id: row.id, name: row.name, description: row.description, created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
  if (a.json) return done(json(out));
  return done(`created project ${out.id} (${show(out.name)}) in account ${a.accountId}`);
}

export const PROJECTS: OperatorCommand<ProjectsArgs> = { usage: PROJECTS_USAGE, fieldsAreFlags: true, parse, run: (db, a) => run(db, a) };
