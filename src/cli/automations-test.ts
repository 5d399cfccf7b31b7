// `switchboard automations test ID --contact CONTACT_ID --by USER_ID`: a test run, as the hub's
// builder starts one (DESIGN 9). It runs the published version for one contact, sends only to the
// person testing (their address is fixed on the run now), changes no records, and moves no
// counter (not last_run_at, not the enrollments; the one-active-run index leaves test runs out).
import type { Db, Queryable } from '../db/db.js';
import { enqueueAutomationRun } from '../queue/enqueue.js';
import { isUuid, uuidv7 } from '../lib/ids.js';
import { parseCommandArgs, show, uuidArg } from './args.js';
import { CommandError, UsageError, done, json, type CommandResult } from './result.js';
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

export interface StartedTestRun {
  id: string;
  account_id: string;
  automation_id: string;
  contact_id: string;
  version: number;
  tester_email: string;
}

/** Inserts the test run (status running, due now) and wakes the workers on commit. */
export async function startTestRun(db: Db, a: Pick<TestRunArgs, 'automationId' | 'contactId' | 'userId'>): Promise<StartedTestRun> {
  return db.transaction(async (tx: Queryable) => {
    const autos = await tx.query<{ account_id: string; published_version: number; deleted: boolean }>(
      `select account_id, published_version, deleted_at is not null as deleted from automations where id = $1`,
      [a.automationId],
    );
    const auto = autos[0];
    if (!auto || auto.deleted) throw new CommandError(`no automation ${a.automationId}`);
    if (auto.published_version < 1) {
      throw new CommandError(`automation ${a.automationId} has never been published: a test run runs the published version, so publish it first`);
    }
    const users = await tx.query<{ email: string; name: string }>(`select email, name from users where account_id = $1 and id = $2`, [auto.account_id, a.userId]);
    if (!users.length) throw new CommandError(`no user ${a.userId} in the automation's account`);
    const contacts = await tx.query<{ archived: boolean; erased: boolean }>(
      `select archived_at is not null as archived, erased_at is not null as erased from contacts where account_id = $1 and id = $2`,
      [auto.account_id, a.contactId],
    );
    if (!contacts.length || contacts[0].archived) throw new CommandError(`no contact ${a.contactId} in the automation's account`);
    if (contacts[0].erased) throw new CommandError(`contact ${a.contactId} was erased at their request`);
    const id = uuidv7();
    const who = users[0].name.trim() || users[0].email;
    await enqueueAutomationRun(tx, {
      accountId: auto.account_id,
      automationId: a.automationId,
      version: auto.published_version,
      startedBy: `Test by ${who}`,
      runs: [{ id, contactId: a.contactId }],
      testerEmail: users[0].email,
    });
    return { id, account_id: auto.account_id, automation_id: a.automationId, contact_id: a.contactId, version: auto.published_version, tester_email: users[0].email };
  });
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
