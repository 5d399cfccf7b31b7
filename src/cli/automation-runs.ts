// `switchboard automation-runs stop RUN_ID`: what the hub's Run history does to one contact's run.
// Only a running or waiting run can be stopped; it ends `stopped` with the reason in `error`
// (docs/architecture.md §12.5). Any other run is refused with exit code 1 and says what state it is
// in.
import type { Db } from '../db/db.js';
import { OPERATOR } from '../services/audit/service.js';
import { STOPPED_BY_OPERATOR } from '../services/automation-runs/store.js';
import { stopRun } from '../services/automation-runs/service.js';
import { isUuid } from '../lib/ids.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { parseCommandArgs, show, uuidArg } from './args.js';
import { UsageError, done, type CommandContext, type CommandResult } from './result.js';

export const AUTOMATION_RUNS_USAGE = `Usage:
  switchboard automation-runs stop RUN_ID [--account ID]

  stop     a running or waiting automation run ends "stopped" (error "${STOPPED_BY_OPERATOR}");
           it sends nothing more
  --account  narrows the lookup to one account (ids are unique anyway)`;

interface AutomationRunsArgs {
  action: 'stop';
  runId: string;
  accountId: string | null;
}

function parse(args: readonly string[]): AutomationRunsArgs {
  const [action, ...rest] = args;
  if (action === undefined) throw new UsageError('automation-runs needs an action: stop');
  if (action !== 'stop') throw new UsageError(`unknown automation-runs action ${show(action)}`);
  const p = parseCommandArgs(rest, { strings: ['account'], positionals: { min: 0, max: 1 } });
  const id = p.positionals[0];
  if (id === undefined) throw new UsageError('the run id is required');
  if (!isUuid(id)) throw new UsageError(`the run id must be a UUID, got ${show(id)}`);
  return { action, runId: id.toLowerCase(), accountId: p.strings.has('account') ? uuidArg(p, 'account') : null };
}

async function run(db: Db, a: AutomationRunsArgs): Promise<CommandResult> {
  // A refusal (unknown run, or already final) is printed by execute() like a CommandError.
  const found = await stopRun(db, a.runId, a.accountId, STOPPED_BY_OPERATOR, OPERATOR);
  return done(`automation run ${found.id} stopped; it sends nothing more`);
}

export const AUTOMATION_RUNS: OperatorCommand<AutomationRunsArgs> = { usage: AUTOMATION_RUNS_USAGE, parse, run: (db, a) => run(db, a) };

/** `automation-runs …` with the arguments after "automation-runs". */
export function automationRunsCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(AUTOMATION_RUNS, db, args, ctx);
}
