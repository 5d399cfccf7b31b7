// `switchboard automations test ID --contact CONTACT_ID --by USER_ID`: a test run, as the hub's
// builder starts one (DESIGN 9; the rules are in src/services/automations/test-run.ts).
import type { Db } from '../db/db.js';
import { isUuid } from '../lib/ids.js';
import { startTestRun } from '../services/automations/test-run.js';
import { parseCommandArgs, show, uuidArg } from './args.js';
import { UsageError, done, json, type CommandResult } from './result.js';
import type { OperatorCommand } from './command.js';

export const AUTOMATIONS_TEST_USAGE = `Usage:
  switchboard automations test AUTOMATION_ID --contact CONTACT_ID --by USER_ID [--json]

  test   starts a test run of the automation's published version for the contact; every message
         goes only to the user's email address (texts too, as an email), records are not changed,
         and no counter moves. The run appears in the automation's runs with test: true.`;

export interface TestRunArgs {
  action: 'test';
  automationId: string;
  contactId: string;
  userId: string;
  json: boolean;
}

function parse(args: readonly string[]): TestRunArgs {
  const [action, ...rest] = args;
  if (action === undefined) throw new UsageError('automations needs an action: test');
  if (action !== 'test') throw new UsageError(`unknown automations action ${show(action)}`);
  const p = parseCommandArgs(rest, { strings: ['contact', 'by'], flags: ['json'], positionals: { min: 0, max: 1 } });
  const id = p.positionals[0];
  if (id === undefined) throw new UsageError('the automation id is required');
  if (!isUuid(id)) throw new UsageError(`the automation id must be a UUID, got ${show(id)}`);
  return { action, automationId: id.toLowerCase(), contactId: uuidArg(p, 'contact'), userId: uuidArg(p, 'by'), json: p.flags.has('json') };
}

async function run(db: Db, a: TestRunArgs): Promise<CommandResult> {
  const r = await startTestRun(db, a);
  if (a.json) return done(json({ ...r, status: 'running', test: true }));
  return done(`started test run ${r.id} of automation ${r.automation_id} (version ${r.version}) for contact ${r.contact_id}; messages go only to ${r.tester_email}`);
}

export const AUTOMATIONS_TEST: OperatorCommand<TestRunArgs> = { usage: AUTOMATIONS_TEST_USAGE, parse, run };

/**
 * `automations` with the `test` action added to another `automations` command (edit, publish,
 * pause, resume live in automations.ts): `test …` comes here, everything else goes to `base`.
 */
export function withTestAction<P>(base: OperatorCommand<P>): OperatorCommand<{ test: TestRunArgs } | { other: P }> {
  return {
    usage: `${base.usage}\n${AUTOMATIONS_TEST_USAGE.replace(/^Usage:\n/, '')}`,
    parse: (args) => (args[0] === 'test' ? { test: parse(args) } : { other: base.parse(args) }),
    run: (db, p, ctx) => ('test' in p ? run(db, p.test) : base.run(db, p.other, ctx)),
  };
}
