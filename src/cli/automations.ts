// `switchboard automations create|export|edit|publish|pause|resume`: what the hub's builder does
// with an automation (the API never changes one). create and export use the definition format
// (src/services/automations/definition.ts): an export creates the same automation again. Moves follow the spec's Automation status table:
// publishing a draft → published, pausing published → paused, resuming paused → published; any
// other move is refused with exit code 1 and says what state the automation is in.
import type { Db } from '../db/db.js';
import { isUuid } from '../lib/ids.js';
import { OPERATOR } from '../services/audit/service.js';
import { createAutomation, exportAutomation } from '../services/automations/definition.js';
import { editDraft, moveAutomation, publishAutomation, type Move } from '../services/automations/service.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { intArg, parseCommandArgs, show, uuidArg, type ParsedArgs } from './args.js';
import { readJsonFile, inFile } from './json-file.js';
import { UsageError, done, type CommandContext, type CommandResult } from './result.js';

export const AUTOMATIONS_USAGE = `Usage:
  switchboard automations create FILE --account ID
  switchboard automations export AUTOMATION_ID [--account ID] [--version N]
  switchboard automations edit AUTOMATION_ID FILE [--account ID]
  switchboard automations publish AUTOMATION_ID [--account ID]
  switchboard automations pause AUTOMATION_ID [--account ID]
  switchboard automations resume AUTOMATION_ID [--account ID]

  create   creates an automation in a project of the account from FILE, a definition: {project_id,
           name, status, trigger, run_only_if, reenroll, steps} (the fixture's automation with
           project_id for project and no ref). Status published or paused publishes version 1.
  export   prints the draft (or published version N) as a definition, the file create takes
  edit     replaces the draft with FILE, a JSON object of any of trigger, steps, run_only_if,
           reenroll, name (fields left out keep their draft value; run_only_if null clears it).
           Validated like a fixture's automation. Runs keep running the published version.
  publish  snapshots the draft as the next immutable version, the one new runs use; a draft
           becomes published, a paused automation stays paused until resumed
  pause    a published automation stops taking enrollments; its waiting runs are held
  resume   a paused automation runs again
  --account  narrows the lookup to one account (ids are unique anyway)`;

type AutomationsArgs =
  | { action: 'create'; file: string; accountId: string }
  | { action: 'export'; automationId: string; accountId: string | null; version: number | undefined }
  | { action: 'edit'; automationId: string; file: string; accountId: string | null }
  | { action: 'publish' | Move; automationId: string; accountId: string | null };

function idArg(p: ParsedArgs): string {
  const id = p.positionals[0];
  if (id === undefined) throw new UsageError('the automation id is required');
  if (!isUuid(id)) throw new UsageError(`the automation id must be a UUID, got ${show(id)}`);
  return id.toLowerCase();
}

const optionalAccount = (p: ParsedArgs): string | null => (p.strings.has('account') ? uuidArg(p, 'account') : null);

function parse(args: readonly string[]): AutomationsArgs {
  const [action, ...rest] = args;
  switch (action) {
    case 'edit': {
      const p = parseCommandArgs(rest, { strings: ['account'], positionals: { min: 0, max: 2 } });
      const automationId = idArg(p);
      if (p.positionals[1] === undefined) throw new UsageError('the edit FILE is required');
      return { action, automationId, file: p.positionals[1], accountId: optionalAccount(p) };
    }
    case 'create': {
      const p = parseCommandArgs(rest, { strings: ['account'], positionals: { min: 0, max: 1 } });
      if (p.positionals[0] === undefined) throw new UsageError('the create FILE is required');
      if (!p.strings.has('account')) throw new UsageError('create needs --account ID');
      return { action, file: p.positionals[0], accountId: uuidArg(p, 'account') };
    }
    case 'export': {
      const p = parseCommandArgs(rest, { strings: ['account', 'version'], positionals: { min: 0, max: 1 } });
      const raw = p.strings.get('version');
      const version = raw === undefined ? undefined : intArg('version', raw, 1, 2_147_483_647);
      return { action, automationId: idArg(p), accountId: optionalAccount(p), version };
    }
    case 'publish':
    case 'pause':
    case 'resume': {
      const p = parseCommandArgs(rest, { strings: ['account'], positionals: { min: 0, max: 1 } });
      return { action, automationId: idArg(p), accountId: optionalAccount(p) };
    }
    case undefined:
      throw new UsageError('automations needs an action: create, export, edit, publish, pause or resume');
    default:
      throw new UsageError(`unknown automations action ${show(action)}`);
  }
}

/** The file an `automations edit` reads, so the CLI can send its contents to a running server. */
export function automationsInputFile(args: readonly string[]): string | null {
  try {
    const a = parse(args);
    return a.action === 'edit' || a.action === 'create' ? a.file : null;
  } catch {
    return null;
  }
}

async function create(db: Db, a: Extract<AutomationsArgs, { action: 'create' }>, ctx: CommandContext): Promise<CommandResult> {
  const body = await readJsonFile(a.file, ctx);
  const id = await inFile(a.file, () => createAutomation(db, a.accountId, body, OPERATOR));
  const made = await exportAutomation(db, a.accountId, id);
  if (made.status === 'draft') return done(`automation ${id} created as a draft (publish it to run it)`);
  return done(`automation ${id} created and published as version 1${made.status === 'paused' ? '; it stays paused until resumed' : ''}`);
}

async function exportOne(db: Db, a: Extract<AutomationsArgs, { action: 'export' }>): Promise<CommandResult> {
  return done(JSON.stringify(await exportAutomation(db, a.accountId, a.automationId, a.version), null, 2));
}

async function edit(db: Db, a: Extract<AutomationsArgs, { action: 'edit' }>, ctx: CommandContext): Promise<CommandResult> {
  const body = await readJsonFile(a.file, ctx);
  const saved = await inFile(a.file, () => editDraft(db, a, body));
  const current = saved.automation;
  const what = `automation ${current.id}: draft saved (${saved.steps} step${saved.steps === 1 ? '' : 's'})`;
  if (saved.differsFromPublished === null) return done(`${what}; never published (publish it to run it)`);
  return done(
    saved.differsFromPublished
      ? `${what}; it differs from published version ${current.published_version}: publish it to run the changes`
      : `${what}; it is the same as published version ${current.published_version}`,
  );
}

async function publish(db: Db, a: Extract<AutomationsArgs, { automationId: string }>): Promise<CommandResult> {
  const { id, version, status } = await publishAutomation(db, a, OPERATOR);
  if (status === 'paused') return done(`automation ${id}: version ${version} published; it stays paused until resumed`);
  return done(`automation ${id} published as version ${version}`);
}

async function move(db: Db, action: Move, a: Extract<AutomationsArgs, { automationId: string }>): Promise<CommandResult> {
  const current = await moveAutomation(db, action, a, OPERATOR);
  return done(
    action === 'pause'
      ? `automation ${current.id} paused; it takes no enrollments and its waiting runs are held until it is resumed`
      : `automation ${current.id} resumed; published version ${current.published_version} runs`,
  );
}

async function run(db: Db, a: AutomationsArgs, ctx: CommandContext): Promise<CommandResult> {
  switch (a.action) {
    case 'create':
      return create(db, a, ctx);
    case 'export':
      return exportOne(db, a);
    case 'edit':
      return edit(db, a, ctx);
    case 'publish':
      return publish(db, a);
    default:
      return move(db, a.action, a);
  }
}

export const AUTOMATIONS: OperatorCommand<AutomationsArgs> = { usage: AUTOMATIONS_USAGE, parse, run };

/** `automations …` with the arguments after "automations". */
export function automationsCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(AUTOMATIONS, db, args, ctx);
}
