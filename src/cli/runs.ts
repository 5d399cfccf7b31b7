// `switchboard runs start|show|retry|approve|reject|cancel`: what the hub does with workflow runs.
// Manual starts never count toward the API's run limits (those count `api` runs only); a retry is
// a manual start through the runs service, as the hub's "Run again" (audited as the operator's).
// `show` prints each block's output, cut to a screenful per block (--json has them whole). The moves
// follow the run state machine (src/domain/workflow.ts): a run in a state that cannot move is refused with
// exit code 1 and says what state it is in. Approve, reject and cancel go through the runs service,
// which records them in the audit log as the operator's.
import type { Db } from '../db/db.js';
import { getRun, getRunSteps, pagesCreatedByRun, type RunDetailRow, type RunStepRow } from '../services/runs/read-store.js';
import { findRun, type RunState } from '../engine/scheduler/store.js';
import { ApiError } from '../domain/errors.js';
import { OPERATOR } from '../services/audit/service.js';
import { moveRun, retryRun } from '../services/runs/by-user.js';
import { terminalText } from '../lib/text.js';
import { startManualRun } from '../services/runs/service.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { idArg, parseCommandArgs, show, uuidArg, type ParsedArgs } from './args.js';
import { CommandError, UsageError, done, iso, json, table, type CommandContext, type CommandResult } from './result.js';

export const RUNS_USAGE = `Usage:
  switchboard runs start --workflow ID [--account ID] [--json]
  switchboard runs show RUN_ID [--account ID] [--json]
  switchboard runs retry RUN_ID [--account ID] [--json]
  switchboard runs approve RUN_ID [--account ID]
  switchboard runs reject RUN_ID [--account ID]
  switchboard runs cancel RUN_ID [--account ID]

  start    queues a run (trigger "manual"); the account is the workflow's unless given.
           Manual runs never count toward the API's run limits.
  show     the run, its blocks and each block's output (long outputs cut; --json prints them whole)
  retry    a failed, partial, cancelled or rejected run runs again: a new manual run of the same
           workflow with the same blocks, naming the run it retries
  approve  a run awaiting approval continues from its approval block
  reject   a run awaiting approval ends "rejected"
  cancel   a queued, running or awaiting run ends "cancelled"; a worker executing it stops
  --account  narrows the lookup to one account (ids are unique anyway)`;

type Move = 'approve' | 'reject' | 'cancel';

type RunsArgs =
  | { action: 'start'; workflowId: string; accountId: string | null; json: boolean }
  | { action: 'show' | 'retry'; runId: string; accountId: string | null; json: boolean }
  | { action: Move; runId: string; accountId: string | null };

function optionalAccount(p: ParsedArgs): string | null {
  return p.strings.has('account') ? uuidArg(p, 'account') : null;
}

const runIdArg = (p: ParsedArgs): string => idArg(p, 'run');

function parse(args: readonly string[]): RunsArgs {
  const [action, ...rest] = args;
  switch (action) {
    case 'start': {
      const p = parseCommandArgs(rest, { strings: ['workflow', 'account'], flags: ['json'] });
      return { action, workflowId: uuidArg(p, 'workflow'), accountId: optionalAccount(p), json: p.flags.has('json') };
    }
    case 'show':
    case 'retry': {
      const p = parseCommandArgs(rest, { strings: ['account'], flags: ['json'], positionals: { min: 0, max: 1 } });
      return { action, runId: runIdArg(p), accountId: optionalAccount(p), json: p.flags.has('json') };
    }
    case 'approve':
    case 'reject':
    case 'cancel': {
      const p = parseCommandArgs(rest, { strings: ['account'], positionals: { min: 0, max: 1 } });
      return { action, runId: runIdArg(p), accountId: optionalAccount(p) };
    }
    case undefined:
      throw new UsageError('runs needs an action: start, show, retry, approve, reject or cancel');
    default:
      throw new UsageError(`unknown runs action ${show(action)}`);
  }
}

const PAST: Record<Move, string> = { approve: 'approved', reject: 'rejected', cancel: 'cancelled' };
const WHO_CAN: Record<Move, string> = {
  approve: 'only a run awaiting approval can be approved',
  reject: 'only a run awaiting approval can be rejected',
  cancel: 'a run that has ended cannot be cancelled',
};

async function requireRun(db: Db, runId: string, accountId: string | null): Promise<RunState> {
  const run = await findRun(db, runId, accountId);
  if (!run) throw new CommandError(accountId ? `no run ${runId} in account ${accountId}` : `no run ${runId}`);
  return run;
}

async function move(db: Db, action: Move, runId: string, accountId: string | null): Promise<CommandResult> {
  const run = await requireRun(db, runId, accountId);
  // The runs service applies the state machine (and re-checks the status in its UPDATE, so a run
  // that moved since this read is refused rather than overwritten) and records the audit entry.
  try {
    await moveRun(db, { accountId: run.account_id, runId: run.id, move: action, actor: OPERATOR });
  } catch (err) {
    if (!(err instanceof ApiError) || (err.code !== 'run_not_awaiting_approval' && err.code !== 'run_already_final')) throw err;
    const now = await requireRun(db, runId, accountId);
    throw new CommandError(`run ${run.id} is ${now.status}: ${WHO_CAN[action]}`);
  }
  const next = action === 'approve' ? '; it continues from its approval block' : '';
  return done(`run ${run.id} ${PAST[action]}${next}`);
}

/** `runs show --json`: the run with its steps and the pages it created, timestamps as ISO 8601. */
function showJson(
  accountId: string,
  detail: RunDetailRow,
  steps: RunStepRow[],
  pages: { id: string; title: string; project_id: string }[],
) {
  return {
    id: detail.id,
    account_id: accountId,
    workflow_id: detail.workflow_id,
    status: detail.status,
    trigger: detail.trigger,
    summary: detail.summary,
    created_at: iso(detail.created_at),
    started_at: iso(detail.started_at),
    finished_at: iso(detail.finished_at),
    billed_micros: Number(detail.billed_micros),
    steps: steps.map((s) => ({ ...s, started_at: iso(s.started_at), finished_at: iso(s.finished_at) })),
    pages_created: pages,
  };
}

/** How much of one block's output `runs show` prints: a screenful, the rest behind --json. */
const OUTPUT_LINES = 12;
const OUTPUT_CHARS = 1_000;

/** One block's output for a terminal, indented, cut to OUTPUT_LINES lines and OUTPUT_CHARS characters. */
function outputForTerminal(text: string): { lines: string[]; cut: boolean } {
  const all = terminalText(text).replace(/\s+$/, '');
  const kept = all.slice(0, OUTPUT_CHARS).split('\n').slice(0, OUTPUT_LINES);
  const shown = kept.join('\n').length;
  return { lines: kept.map((l) => `  ${l}`), cut: shown < all.length };
}

/** The outputs part of `runs show`: each block that has one, under its id, kind and status. */
function outputsText(runId: string, steps: RunStepRow[]): string {
  const parts: string[] = [];
  let cut = false;
  for (const s of steps) {
    const text = s.output && typeof s.output.text === 'string' ? s.output.text : null;
    if (text === null) continue;
    const o = outputForTerminal(text);
    cut ||= o.cut;
    const more = o.cut ? [`  … (cut: ${text.length} characters in all)`] : [];
    parts.push([`--- ${s.node_id} (${s.node_kind}, ${s.status})`, ...(o.lines.length && text.trim() ? o.lines : ['  (empty)']), ...more].join('\n'));
  }
  if (!parts.length) return '';
  const note = cut ? `\nlong outputs are cut; \`switchboard runs show ${runId} --json\` prints every output whole` : '';
  return `\noutputs:\n${parts.join('\n')}${note}`;
}

async function showRun(db: Db, a: { runId: string; accountId: string | null; json: boolean }): Promise<CommandResult> {
  const found = await requireRun(db, a.runId, a.accountId);
  const detail = (await getRun(db, found.account_id, found.id))!;
  const steps = await getRunSteps(db, found.account_id, found.id, true);
  const pages = await pagesCreatedByRun(db, found.account_id, found.id);
  if (a.json) return done(json(showJson(found.account_id, detail, steps, pages)));
  const head = `run ${detail.id} of workflow ${detail.workflow_id}: ${detail.status} (${detail.summary}); billed ${detail.billed_micros} micros\n`;
  if (!steps.length) return done(head + 'no steps yet');
  const made = pages.map((p) => `\ncreated page ${p.id} "${p.title}" in project ${p.project_id}`).join('');
  const rows = steps.map((s) => [s.node_id, s.node_kind, s.status, String(s.ms), terminalText(s.error ?? '')]);
  return done(head + table(['BLOCK', 'KIND', 'STATUS', 'MS', 'ERROR'], rows) + made + outputsText(detail.id, steps));
}

async function retry(db: Db, a: { runId: string; accountId: string | null; json: boolean }): Promise<CommandResult> {
  const old = await requireRun(db, a.runId, a.accountId);
  // The service refuses a run that cannot be retried (409 run_cannot_run_again: execute() prints its words).
  const started = await retryRun(db, { accountId: old.account_id, runId: old.id, actor: OPERATOR });
  if (a.json) return done(json({ ...started, account_id: old.account_id, retry_of: old.id, created_at: iso(started.created_at) }));
  return done(`started run ${started.id} of workflow ${started.workflow_id} (account ${old.account_id}), a retry of run ${old.id}; status ${started.status}`);
}

async function run(db: Db, a: RunsArgs): Promise<CommandResult> {
  switch (a.action) {
    case 'start': {
      const { run: started, accountId, workflowId } = await startManualRun(db, a);
      if (a.json) {
        return done(json({ ...started, account_id: accountId, created_at: iso(started.created_at) }));
      }
      return done(`started run ${started.id} of workflow ${workflowId} (account ${accountId}); status ${started.status}`);
    }
    case 'show':
      return showRun(db, a);
    case 'retry':
      return retry(db, a);
    default:
      return move(db, a.action, a.runId, a.accountId);
  }
}

export const RUNS: OperatorCommand<RunsArgs> = { usage: RUNS_USAGE, parse, run: (db, a) => run(db, a) };

/** `runs …` with the arguments after "runs". */
export function runsCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(RUNS, db, args, ctx);
}
