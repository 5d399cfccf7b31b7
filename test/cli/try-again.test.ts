// Try again from the command line (issue 26, part 8): `runs retry` (the hub's Run again, as the
// operator: a manual run of the same definition naming the run, refused for a run not ended or
// one that succeeded), `runs show` printing each block's output (cut for a terminal, with no
// control character reaching it, whole with --json), and `messages retry [--force]` (a new
// operator command: the re-send's rules, in the operator's words, exit code 1 when refused).
// Arguments are refused with exit code 2 and the usage before the store is opened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOperatorArgs, runOperatorCommand } from '../../src/cli/operator.js';
import { enqueueWorkflowRun } from '../../src/queue/enqueue.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { seed } from '../http/fixtures.js';
import { UNKNOWN } from './support.js';

let t: TestDb;
let acme: { id: string; workflow: string; contact: string; automation: string };
let globex: string;

beforeAll(async () => {
  t = await freshDb();
  const s = await seed(
    t.db,
    {
      ref: 'acme',
      name: 'Acme',
      credit_micros: 1_000_000,
      projects: [{ ref: 'p', name: 'P' }],
      workflows: [{ ref: 'w', name: 'W', blocks: [{ id: 'src', kind: 'source.text', config: { text: 'hello' } }] }],
      contacts: [{ ref: 'cy', email: 'cy@example.org', first_name: 'Cy' }, { ref: 'bob', email: 'bob@example.org', do_not_contact: true }],
      automations: [{ ref: 'a', name: 'A', project: 'p', trigger: { type: 'manual', label: 'By hand' }, steps: [{ id: 'e1', name: 'Mail', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }] }],
    },
    { ref: 'globex', name: 'Globex' },
  );
  acme = { id: s.acme.id, workflow: s.acme.workflows.w, contact: s.acme.contacts.cy, automation: s.acme.automations.a };
  globex = s.globex.id;
});
afterAll(() => t?.close());

const cli = (...argv: string[]) => runOperatorCommand(t.db, argv);

async function runIn(status: string): Promise<string> {
  const r = await t.db.transaction((tx) => enqueueWorkflowRun(tx, { accountId: acme.id, workflowId: acme.workflow, trigger: 'schedule', keyId: null, startDelayMs: 600_000 }));
  await t.db.query(`update workflow_runs set status = $2, finished_at = now() where id = $1`, [r.id, status]);
  return r.id;
}

/** A failed (or other) email of a run of acme's automation, for `contact`. */
async function message(status = 'failed', contact = acme.contact): Promise<string> {
  const runId = uuidv7();
  await t.db.query(
    `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, version) values ($1, $2, $3, $4, 'failed', 'By hand', 1)`,
    [acme.id, runId, acme.automation, contact],
  );
  const id = uuidv7();
  await t.db.query(
    `insert into outbox (account_id, id, channel, status, to_address, subject, body, message_id, automation_run_id, step_id)
     values ($1, $2, 'email', $3, 'cy@example.org', 'Hi', 'Hello', $4, $5, 'e1')`,
    [acme.id, id, status, `<${id}@test>`, runId],
  );
  return id;
}

describe('runs retry', () => {
  it('starts a manual run of the same workflow naming the run, as text or JSON, audited as the operator', async () => {
    const old = await runIn('failed');
    const r = await cli('runs', 'retry', old);
    expect(r.code, r.stderr).toBe(0);
    const id = /^started run ([0-9a-f-]{36}) /.exec(r.stdout)![1];
    expect(r.stdout).toBe(`started run ${id} of workflow ${acme.workflow} (account ${acme.id}), a retry of run ${old}; status queued\n`);
    const [row] = await t.db.query<{ trigger: string; retry_of: string; started_by_user: string | null }>(`select trigger, retry_of, started_by_user from workflow_runs where id = $1`, [id]);
    expect(row).toEqual({ trigger: 'manual', retry_of: old, started_by_user: null });
    const [entry] = await t.db.query<{ actor_kind: string }>(`select actor_kind from audit_log where object_id = $1`, [id]);
    expect(entry.actor_kind).toBe('operator');

    const j = await cli('runs', 'retry', old, '--account', acme.id, '--json');
    expect(JSON.parse(j.stdout)).toMatchObject({ workflow_id: acme.workflow, account_id: acme.id, retry_of: old, status: 'queued', trigger: 'manual' });
  });

  it('refuses a run not ended, one that succeeded, an unknown one and another account\'s (exit 1)', async () => {
    const open = await runIn('running');
    expect(await cli('runs', 'retry', open)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: This run has not ended yet \(running\)/) });
    expect(await cli('runs', 'retry', await runIn('succeeded'))).toMatchObject({ code: 1, stderr: expect.stringMatching(/succeeded, so there is nothing to run again/) });
    expect(await cli('runs', 'retry', UNKNOWN)).toMatchObject({ code: 1, stderr: `error: no run ${UNKNOWN}\n` });
    const failed = await runIn('failed');
    expect(await cli('runs', 'retry', failed, '--account', globex)).toMatchObject({ code: 1, stderr: `error: no run ${failed} in account ${globex}\n` });
    const [{ n }] = await t.db.query<{ n: number }>(`select count(*)::int as n from workflow_runs where retry_of = any($1::uuid[])`, [[open, failed]]);
    expect(n).toBe(0);
  });
});

describe('runs show', () => {
  it("prints each block's output, cut for a terminal with a note, control characters as ?; --json has it all", async () => {
    const run = await runIn('failed');
    const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
    const steps: [string, string, string, string | null][] = [
      ['src', 'source.text', 'succeeded', 'Short \u001b[31mred\u001b[0m text'],
      ['ask', 'agent', 'succeeded', long],
      ['web', 'source.web', 'failed', null],
    ];
    for (const [i, [node, kind, status, text]] of steps.entries()) {
      await t.db.query(
        `insert into workflow_run_steps (account_id, run_id, seq, node_id, node_kind, status, started_at, finished_at, ms, error, output)
         values ($1, $2, $3, $4, $5, $6, now(), now(), 5, $7, $8)`,
        [acme.id, run, i + 1, node, kind, status, text === null ? 'Fetch refused' : null, text === null ? null : JSON.stringify({ text })],
      );
    }
    const r = await cli('runs', 'show', run);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('outputs:\n--- src (source.text, succeeded)\n  Short ?[31mred?[0m text\n--- ask (agent, succeeded)\n  line 1\n');
    expect(r.stdout).toContain(`  line 12\n  … (cut: ${long.length} characters in all)\n`);
    expect(r.stdout).not.toContain('line 13');
    expect(r.stdout).not.toContain('--- web');
    expect(r.stdout).toContain(`long outputs are cut; \`switchboard runs show ${run} --json\` prints every output whole`);
    const j = JSON.parse((await cli('runs', 'show', run, '--json')).stdout);
    expect(j.steps.map((s: { output: { text: string } | null }) => s.output?.text ?? null)).toEqual(steps.map((s) => s[3]));
  });
});

describe('messages retry', () => {
  it('re-sends a failed message as a new one naming it, audited as the operator', async () => {
    const old = await message();
    const r = await cli('messages', 'retry', old);
    expect(r.code, r.stderr).toBe(0);
    const id = /re-sent as message ([0-9a-f-]{36}) /.exec(r.stdout)![1];
    expect(r.stdout).toBe(`message ${old} re-sent as message ${id} (account ${acme.id}); queued for the sender\n`);
    const [row] = await t.db.query<{ status: string; resend_of: string }>(`select status, resend_of from outbox where id = $1`, [id]);
    expect(row).toEqual({ status: 'queued', resend_of: old });
    expect(await cli('messages', 'retry', old, '--account', acme.id)).toMatchObject({ code: 1, stderr: expect.stringMatching(/re-sent already \(message [0-9a-f-]{36}\)/) });
  });

  it('an unknown message only with --force; sent ones, suppressed contacts, unknown ids and other accounts refused (exit 1)', async () => {
    const unknown = await message('unknown');
    expect(await cli('messages', 'retry', unknown)).toMatchObject({ code: 1, stderr: expect.stringMatching(/delivery of this message is unknown/) });
    expect((await cli('messages', 'retry', unknown, '--force')).code).toBe(0);
    expect(await cli('messages', 'retry', await message('sent'), '--force')).toMatchObject({ code: 1, stderr: 'error: This message was sent, so it is not sent again.\n' });
    const bobs = await (async () => {
      const [{ id }] = await t.db.query<{ id: string }>(`select id from contacts where email = 'bob@example.org'`);
      return message('failed', id);
    })();
    expect(await cli('messages', 'retry', bobs)).toMatchObject({ code: 1, stderr: expect.stringMatching(/contact is on do-not-contact/) });
    expect(await cli('messages', 'retry', UNKNOWN)).toMatchObject({ code: 1, stderr: `error: no message ${UNKNOWN}\n` });
    const mine = await message();
    expect(await cli('messages', 'retry', mine, '--account', globex)).toMatchObject({ code: 1, stderr: `error: no message ${mine} in account ${globex}\n` });
  });
});

describe('arguments', () => {
  it('refuses bad arguments with exit code 2 and the usage, before touching the store', () => {
    for (const [argv, msg, usage] of [
      [['runs', 'retry'], 'the run id is required', 'switchboard runs retry RUN_ID'],
      [['runs', 'retry', 'abc'], 'the run id must be a UUID, got "abc"', 'switchboard runs retry RUN_ID'],
      [['runs', 'retry', UNKNOWN, '--force'], 'unknown option --force', 'switchboard runs retry RUN_ID'],
      [['messages'], 'messages needs an action: retry', 'switchboard messages retry MESSAGE_ID'],
      [['messages', 'resend', UNKNOWN], 'unknown messages action "resend"', 'switchboard messages retry MESSAGE_ID'],
      [['messages', 'retry'], 'the message id is required', 'switchboard messages retry MESSAGE_ID'],
      [['messages', 'retry', 'x'], 'the message id must be a UUID, got "x"', 'switchboard messages retry MESSAGE_ID'],
      [['messages', 'retry', UNKNOWN, '--account', 'x'], '--account must be a UUID', 'switchboard messages retry MESSAGE_ID'],
      [['messages', 'retry', UNKNOWN, UNKNOWN], 'unexpected argument', 'switchboard messages retry MESSAGE_ID'],
    ] as const) {
      const r = checkOperatorArgs(argv);
      expect(r?.code, argv.join(' ')).toBe(2);
      expect(r!.stderr).toContain(msg);
      expect(r!.stderr).toContain(usage);
    }
    expect(checkOperatorArgs(['messages', 'retry', UNKNOWN, '--force', '--account', UNKNOWN])).toBeNull();
    expect(checkOperatorArgs(['runs', 'retry', UNKNOWN, '--json'])).toBeNull();
  });
});
