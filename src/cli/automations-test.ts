// `switchboard automations test ID --contact CONTACT_ID --by USER_ID`: a test run, as the hub's
// builder starts one (docs/architecture.md §12.6; the rules are in
// src/services/automations/test-run.ts).
import type { Db } from '../db/db.js';
import { isUuid } from '../lib/ids.js';
import { OPERATOR } from '../services/audit/service.js';
import { startTestRun, type TestTarget } from '../services/automations/test-run.js';
import { intArg, parseCommandArgs, show, uuidArg } from './args.js';
import { UsageError, done, json, type CommandResult } from './result.js';
import type { OperatorCommand } from './command.js';

export const AUTOMATIONS_TEST_USAGE = `Usage:
  switchboard automations test AUTOMATION_ID --contact CONTACT_ID --by USER_ID [--draft | --version N] [--json]

  test   starts a test run of the automation's published version (--draft: the draft as saved
         now, as the hub's Send test does; --version N: that version) for the contact; every
         message goes only to the user's email address (texts too, as an email), records are not
         changed, and no counter moves. The run appears in the automation's runs with test: true.`;

export interface TestRunArgs {
  action: 'test';
  automationId: string;
  contactId: string;
  userId: string;
  target: TestTarget;
  json: boolean;
}

function parse(args: readonly string[]): TestRunArgs {
  const [action, ...rest] = args;
  if (action === undefined) throw new UsageError('automations needs an action: test');
  if (action !== 'test') throw new UsageError(`unknown automations action ${show(action)}`);
  const p = parseCommandArgs(rest, { strings: ['contact', 'by', 'version'], flags: ['json', 'draft'], positionals: { min: 0, max: 1 } });
  const id = p.positionals[0];
  if (id === undefined) throw new UsageError('the automation id is required');
  if (!isUuid(id)) throw new UsageError(`the automation id must be a UUID, got ${show(id)}`);
  const version = p.strings.get('version');
  if (version !== undefined && p.flags.has('draft')) throw new UsageError('give --draft or --version, not both');
  const target: TestTarget = p.flags.has('draft') ? 'draft' : version !== undefined ? { version: intArg('version', version, 1, 1_000_000) } : 'published';
  return { action, automationId: id.toLowerCase(), contactId: uuidArg(p, 'contact'), userId: uuidArg(p, 'by'), target, json: p.flags.has('json') };
}

async function run(db: Db, a: TestRunArgs): Promise<CommandResult> {
  const r = await startTestRun(db, a, OPERATOR);
  if (a.json) return done(json({ ...r, status: 'running', test: true }));
  const what = r.draft ? 'the draft' : `version ${r.version}`;
  return done(`started test run ${r.id} of automation ${r.automation_id} (${what}) for contact ${r.contact_id}; messages go only to ${r.tester_email}`);
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
