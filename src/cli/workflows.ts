// `switchboard workflows create|edit|status|schedule|export`: what the hub's workflow builder does,
// from JSON files in the builder's definition format (the fixture's workflow with ids instead of
// refs). `export` prints a definition that `create` takes back unchanged. Rules, refusals and audit
// entries are the services' (src/services/workflows/manage.ts).
import type { Db } from '../db/db.js';
import { WORKFLOW_STATUSES, type WorkflowStatus } from '../domain/workflow.js';
import { isUuid } from '../lib/ids.js';
import { OPERATOR } from '../services/audit/service.js';
import { createWorkflow, exportWorkflow, replaceWorkflow, setWorkflowSchedule, setWorkflowStatus, type WorkflowRef } from '../services/workflows/manage.js';
import type { WorkflowEditRow } from '../services/workflows/store.js';
import { parseCommandArgs, show, uuidArg, type ParsedArgs } from './args.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { readJsonFile, inFile } from './json-file.js';
import { UsageError, done, type CommandContext, type CommandResult } from './result.js';

export const WORKFLOWS_USAGE = `Usage:
  switchboard workflows create FILE --account ID
  switchboard workflows edit WORKFLOW_ID FILE [--account ID]
  switchboard workflows status WORKFLOW_ID draft|active|paused [--account ID]
  switchboard workflows schedule WORKFLOW_ID CRON [--timezone TZ] [--account ID]
  switchboard workflows schedule WORKFLOW_ID --off [--account ID]
  switchboard workflows export WORKFLOW_ID [--account ID]

  create    a new workflow in the account from FILE, a JSON definition: name, description,
            project_id, status, blocks [{id, kind, config}], edges [{from, to}], schedule,
            schedule_timezone (a source.item block names its item as config.item_id).
            Validated like a fixture's workflow; prints the new workflow's id
  edit      replaces the whole definition with FILE (fields left out take their defaults);
            runs already started keep the blocks they started with
  status    draft, active or paused (any move)
  schedule  runs it on a cron schedule (5 fields; --timezone an IANA zone, default the current
            one); --off removes the schedule
  export    prints the definition as JSON, a FILE that create and edit take back unchanged
  --account  create: the account; otherwise narrows the lookup (ids are unique anyway)`;

type WorkflowsArgs =
  | { action: 'create'; file: string; accountId: string }
  | { action: 'edit'; ref: WorkflowRef; file: string }
  | { action: 'status'; ref: WorkflowRef; status: WorkflowStatus }
  | { action: 'schedule'; ref: WorkflowRef; schedule: string | null; timezone: string | undefined }
  | { action: 'export'; ref: WorkflowRef };

function refArg(p: ParsedArgs): WorkflowRef {
  const id = p.positionals[0];
  if (id === undefined) throw new UsageError('the workflow id is required');
  if (!isUuid(id)) throw new UsageError(`the workflow id must be a UUID, got ${show(id)}`);
  return { workflowId: id.toLowerCase(), accountId: p.strings.has('account') ? uuidArg(p, 'account') : null };
}

function parse(args: readonly string[]): WorkflowsArgs {
  const [action, ...rest] = args;
  switch (action) {
    case 'create': {
      const p = parseCommandArgs(rest, { strings: ['account'], positionals: { min: 0, max: 1 } });
      if (p.positionals[0] === undefined) throw new UsageError('the definition FILE is required');
      if (!p.strings.has('account')) throw new UsageError('--account is required: the account the workflow is created in');
      return { action, file: p.positionals[0], accountId: uuidArg(p, 'account') };
    }
    case 'edit': {
      const p = parseCommandArgs(rest, { strings: ['account'], positionals: { min: 0, max: 2 } });
      const ref = refArg(p);
      if (p.positionals[1] === undefined) throw new UsageError('the definition FILE is required');
      return { action, ref, file: p.positionals[1] };
    }
    case 'status': {
      const p = parseCommandArgs(rest, { strings: ['account'], positionals: { min: 0, max: 2 } });
      const ref = refArg(p);
      const status = p.positionals[1];
      if (status === undefined) throw new UsageError(`the status is required: ${WORKFLOW_STATUSES.join(', ')}`);
      if (!(WORKFLOW_STATUSES as readonly string[]).includes(status)) {
        throw new UsageError(`the status must be one of ${WORKFLOW_STATUSES.join(', ')}, got ${show(status)}`);
      }
      return { action, ref, status: status as WorkflowStatus };
    }
    case 'schedule': {
      const p = parseCommandArgs(rest, { strings: ['account', 'timezone'], flags: ['off'], positionals: { min: 0, max: 2 } });
      const ref = refArg(p);
      const cron = p.positionals[1];
      const timezone = p.strings.get('timezone');
      if (p.flags.has('off')) {
        if (cron !== undefined || timezone !== undefined) throw new UsageError('--off takes no CRON or --timezone');
        return { action, ref, schedule: null, timezone: undefined };
      }
      if (cron === undefined) throw new UsageError('give a CRON expression (quoted, e.g. "0 9 * * 1") or --off');
      return { action, ref, schedule: cron, timezone };
    }
    case 'export': {
      const p = parseCommandArgs(rest, { strings: ['account'], positionals: { min: 0, max: 1 } });
      return { action, ref: refArg(p) };
    }
    case undefined:
      throw new UsageError('workflows needs an action: create, edit, status, schedule or export');
    default:
      throw new UsageError(`unknown workflows action ${show(action)}`);
  }
}

/** The file a `workflows create|edit` reads, so the CLI can send its contents to a running server. */
export function workflowsInputFile(args: readonly string[]): string | null {
  try {
    const a = parse(args);
    return a.action === 'create' || a.action === 'edit' ? a.file : null;
  } catch {
    return null;
  }
}

const blocks = (w: WorkflowEditRow) => `${w.blocks.length} block${w.blocks.length === 1 ? '' : 's'}`;

async function run(db: Db, a: WorkflowsArgs, ctx: CommandContext): Promise<CommandResult> {
  switch (a.action) {
    case 'create': {
      const body = await readJsonFile(a.file, ctx);
      const w = await inFile(a.file, () => createWorkflow(db, a.accountId, body, OPERATOR));
      return done(`workflow ${w.id} created (${w.status}, ${blocks(w)})`);
    }
    case 'edit': {
      const body = await readJsonFile(a.file, ctx);
      const w = await inFile(a.file, () => replaceWorkflow(db, a.ref, body, OPERATOR));
      return done(`workflow ${w.id} saved (${w.status}, ${blocks(w)}); runs already started keep their blocks`);
    }
    case 'status': {
      const w = await setWorkflowStatus(db, a.ref, a.status, OPERATOR);
      return done(`workflow ${w.id} is ${w.status}`);
    }
    case 'schedule': {
      const w = await setWorkflowSchedule(db, a.ref, { schedule: a.schedule, timezone: a.timezone }, OPERATOR);
      if (w.schedule === null) return done(`workflow ${w.id}: no schedule`);
      return done(`workflow ${w.id} runs on "${w.schedule}" (${w.schedule_timezone}); next at ${w.schedule_next_at?.toISOString() ?? 'never'}`);
    }
    case 'export':
      return done(JSON.stringify(await exportWorkflow(db, a.ref), null, 2));
  }
}

export const WORKFLOWS: OperatorCommand<WorkflowsArgs> = { usage: WORKFLOWS_USAGE, parse, run };

/** `workflows …` with the arguments after "workflows". */
export function workflowsCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(WORKFLOWS, db, args, ctx);
}
