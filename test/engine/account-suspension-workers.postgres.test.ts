// The suspension test (issue 10): two real worker processes on PostgreSQL, email to a real SMTP
// server and texts to an HTTP SMS sink, an account busy with automation runs (email, SMS, team
// notes, waits), queued workflow runs (billed agent blocks) and a schedule firing every second.
// After `switchboard account set --state suspended`: nothing of the account is claimed, sent,
// billed or started for the window (SUSPENSION_WINDOW_MS, default 15 s; the acceptance run uses
// 60 s). After `--state active` the held work finishes. After `--state closed` its runs end
// (workflow runs cancelled, automation runs stopped, queued messages failed) and nothing more
// happens.
//
// PostgreSQL only: the workers share nothing but the database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_CLOSED_REASON, ACCOUNT_CLOSED_SUMMARY } from '../../src/accounts/activity.js';
import { RUNS_CHANNEL } from '../../src/queue/channels.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { exited, runCli } from '../helpers/process.js';
import { untilReady } from '../helpers/progress.js';
import { startSmtp, type TestSmtp } from '../delivery/support.js';
import { insertAutomation, seedWorld, sleep, until, type World } from './automations/support.js';

const WINDOW_MS = Number(process.env.SUSPENSION_WINDOW_MS ?? 15_000);
const CONTACTS = 120;
/** Each digest run fetches a page that takes this long: runs are mid-flight when the account is suspended. */
const PAGE_DELAY_MS = 1_500;

let t: TestDb;
let w: World;
let smtp: TestSmtp;
let sms: http.Server;
let web: http.Server;
let pageUrl: string;
const texts: unknown[] = [];
let smsUrl: string;
const children: ChildProcess[] = [];
const outputs: (() => string)[] = [];

beforeAll(async () => {
  t = await freshDb();
  w = await seedWorld(t.db);
  smtp = await startSmtp();
  sms = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      texts.push(JSON.parse(data || 'null'));
      res.writeHead(202).end('{}');
    });
  });
  await new Promise<void>((r) => sms.listen(0, '127.0.0.1', () => r()));
  smsUrl = `http://127.0.0.1:${(sms.address() as AddressInfo).port}/sms`;
  web = http.createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('Quarterly numbers are up.'), PAGE_DELAY_MS).unref();
  });
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', () => r()));
  pageUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/report`;
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  await Promise.all(children.map((c) => Promise.race([exited(c), sleep(10_000)])));
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  web?.closeAllConnections();
  await new Promise<void>((r) => (web ? web.close(() => r()) : r()));
  sms?.closeAllConnections();
  await new Promise<void>((r) => (sms ? sms.close(() => r()) : r()));
  await smtp?.close();
  await t?.close();
});

function env(): Record<string, string> {
  return {
    DATABASE_URL: t.url!,
    SWITCHBOARD_EMAIL_TRANSPORT: 'smtp',
    SWITCHBOARD_SMTP_URL: smtp.url,
    SWITCHBOARD_EMAIL_FROM: 'Switchboard <suspend@example.test>',
    SWITCHBOARD_SMS_TRANSPORT: 'http',
    SWITCHBOARD_SMS_WEBHOOK_URL: smsUrl,
    SWITCHBOARD_PUBLIC_URL: 'http://127.0.0.1:1',
    LOG_LEVEL: 'warn',
    SWITCHBOARD_LEASE_MS: '3000',
    SWITCHBOARD_POLL_MS: '200',
    SWITCHBOARD_SEND_TIMEOUT_MS: '2000',
    SWITCHBOARD_WEB_ALLOW_HOSTS: '127.0.0.1',
  };
}

function worker(): void {
  const child = runCli(['worker'], env());
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  outputs.push(() => out);
}

/** The operator command, as a separate process (it shares only the database with the workers). */
async function account(...args: string[]): Promise<string> {
  const child = runCli(['account', 'set', '--account', w.acme, ...args], { DATABASE_URL: t.url!, LOG_LEVEL: 'warn' });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const code = await exited(child);
  expect(code, out).toBe(0);
  return out;
}

const one = async <T>(sql: string, params: unknown[] = []): Promise<T> => await t.db.query<Record<string, T>>(sql, params).then((r) => Object.values(r[0])[0]);
const count = (sql: string, params: unknown[] = []) => one<number | string>(sql, params).then(Number);
const dbNow = () => one<Date>(`select now()`);
const received = () => smtp.received.length + texts.length;

/** What happened for the account after `since` (database clock). */
async function activitySince(since: Date) {
  const a = w.acme;
  return {
    messagesClaimed: await count(`select count(*) from outbox where account_id = $1 and claimed_at > $2`, [a, since]),
    microsBilled: await count(`select coalesce(sum(micros), 0) from billing_ledger where account_id = $1 and at > $2`, [a, since]),
    workflowRunsStarted: await count(`select count(*) from workflow_runs where account_id = $1 and started_at > $2`, [a, since]),
    workflowRunsCreated: await count(`select count(*) from workflow_runs where account_id = $1 and created_at > $2`, [a, since]),
    automationStepsStarted: await count(`select count(*) from automation_run_steps where account_id = $1 and started_at > $2`, [a, since]),
  };
}

const NOTHING = { messagesClaimed: 0, microsBilled: 0, workflowRunsStarted: 0, workflowRunsCreated: 0, automationStepsStarted: 0 };

async function queueWorkflowRuns(workflowId: string, n: number): Promise<void> {
  await t.db.transaction(async (tx) => {
    await tx.query(
      `insert into workflow_runs (account_id, id, workflow_id, trigger, status, summary, run_at)
       select $1, gen_random_uuid(), $2, 'manual', 'queued', 'Queued', now() from generate_series(1, $3)`,
      [w.acme, workflowId, n],
    );
    await tx.query(`select pg_notify($1, '')`, [RUNS_CHANNEL]);
  });
}

async function enrollAll(automationId: string, prefix: string, n: number): Promise<void> {
  const ids = Array.from({ length: n }, () => uuidv7());
  await t.db.query(
    `insert into contacts (account_id, id, email, email_normalized, first_name, last_name, phone, sms_consent)
     select $1, c.id, $3 || c.n || '@example.org', $3 || c.n || '@example.org', 'Pat' || c.n, 'Doe', '+1555020' || lpad(c.n::text, 4, '0'), 'granted'
       from unnest($2::uuid[]) with ordinality as c(id, n)`,
    [w.acme, ids, prefix],
  );
  await t.db.transaction(async (tx) => {
    await tx.query(
      `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, version, run_at)
       select $1, gen_random_uuid(), $2, c, 'running', 'test', 1, now() from unnest($3::uuid[]) c`,
      [w.acme, automationId, ids],
    );
    await tx.query(`select pg_notify($1, '')`, [RUNS_CHANNEL]);
  });
}

describe('suspending, resuming and closing a busy account with two workers', () => {
  it('suspended: nothing claimed, sent, billed or started; active: the held work finishes; closed: its runs end', { timeout: WINDOW_MS + 240_000 }, async () => {
    const blocks = [
      { id: 's', kind: 'source.web', config: { url: pageUrl } },
      { id: 'a', kind: 'agent', config: { prompt: 'Summarise.' } },
    ];
    const edges = [{ from: 's', to: 'a' }];
    const insertWorkflow = async (schedule: string | null) => {
      const id = uuidv7();
      await t.db.query(
        `insert into workflows (account_id, id, name, status, blocks, edges, schedule, schedule_timezone, schedule_next_at)
         values ($1, $2, 'Digest', 'active', $3, $4, $5, 'UTC', case when $5::text is null then null else now() end)`,
        [w.acme, id, JSON.stringify(blocks), JSON.stringify(edges), schedule],
      );
      return id;
    };
    const digest = await insertWorkflow(null);
    await insertWorkflow('* * * * * *'); // every second
    const welcome = await insertAutomation(t.db, w.acme, w.site, [
      { id: 'e1', type: 'email.send', config: { subject: 'Welcome', body: 'Hello {{first_name}}' } },
      { id: 's1', type: 'sms.send', config: { body: 'Hi {{first_name}}' } },
      { id: 'n1', type: 'notify.team', config: { subject: 'New contact', body: '{{first_name}}' } },
      { id: 'w1', type: 'wait', config: { duration: 'PT3S' } },
      { id: 'e2', type: 'email.send', config: { subject: 'Second', body: 'Again {{first_name}}' } },
      { id: 's2', type: 'sms.send', config: { body: 'Again {{first_name}}' } },
    ]);

    worker();
    worker();
    await queueWorkflowRuns(digest, 40);
    await enrollAll(welcome, 'busy', CONTACTS);
    await untilReady(children, () => smtp.received.length >= 5 && texts.length >= 1, {
      what: 'the workers to be sending',
      output: () => outputs.map((o) => o()).join('\n---\n'),
    });

    // ---- Suspended.
    await account('--state', 'suspended');
    const t0 = await dbNow();
    const atSuspension = received();
    const sendingAtSuspension = await count(`select count(*) from outbox where account_id = $1 and status = 'sending'`, [w.acme]);
    const balance0 = await count(`select credit_micros from accounts where id = $1`, [w.acme]);
    await sleep(WINDOW_MS);
    const suspended = await activitySince(t0);
    const heldRuns = await count(`select count(*) from automation_runs where account_id = $1 and status in ('running', 'waiting')`, [w.acme]);
    const heldWorkflowRuns = await count(`select count(*) from workflow_runs where account_id = $1 and status in ('queued', 'running')`, [w.acme]);
    const queuedMessages = await count(`select count(*) from outbox where account_id = $1 and status = 'queued'`, [w.acme]);
    const receivedInWindow = received() - atSuspension;
    console.log(
      `suspension: window ${WINDOW_MS} ms; after 'account set --state suspended': ${JSON.stringify(suspended)}; ` +
        `sinks received ${receivedInWindow} (messages already mid-send at the suspension: ${sendingAtSuspension}); ` +
        `balance moved ${balance0 - (await count(`select credit_micros from accounts where id = $1`, [w.acme]))} micros; ` +
        `held: ${heldRuns} automation runs, ${heldWorkflowRuns} workflow runs, ${queuedMessages} queued messages`,
    );
    expect(suspended).toEqual(NOTHING);
    expect(receivedInWindow).toBeLessThanOrEqual(sendingAtSuspension);
    expect(await count(`select credit_micros from accounts where id = $1`, [w.acme])).toBe(balance0);
    // There was work to hold, or the window proved nothing.
    expect(heldRuns + heldWorkflowRuns + queuedMessages).toBeGreaterThan(0);

    // ---- Active again: the held work finishes where it stood.
    const heldDigests = await t.db.query<{ id: string }>(
      `select id from workflow_runs where account_id = $1 and workflow_id = $2 and status in ('queued', 'running')`,
      [w.acme, digest],
    );
    const heldMidRun = await count(
      `select count(distinct r.id) from workflow_runs r join workflow_run_steps s on s.account_id = r.account_id and s.run_id = r.id
        where r.account_id = $1 and r.workflow_id = $2 and r.status = 'running'`,
      [w.acme, digest],
    );
    await account('--state', 'active');
    const t1 = await dbNow();
    await until(
      'the held work to finish',
      async () =>
        (await count(`select count(*) from automation_runs where account_id = $1 and automation_id = $2 and status <> 'succeeded'`, [w.acme, welcome])) === 0 &&
        (await count(`select count(*) from workflow_runs where account_id = $1 and workflow_id = $2 and status <> 'succeeded'`, [w.acme, digest])) === 0 &&
        (await count(`select count(*) from outbox where account_id = $1 and status in ('queued', 'sending')`, [w.acme])) === 0,
      120_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${outputs.map((o) => o()).join('\n---\n')}`);
    });
    const outbox = await t.db.query<{ status: string; n: string }>(`select status, count(*) as n from outbox where account_id = $1 group by status order by status`, [w.acme]);
    // Every contact got its two emails and two texts; each of the two users one note per contact.
    expect(outbox.map((r) => [r.status, Number(r.n)])).toEqual([['sent', CONTACTS * 6]]);
    expect(smtp.received.length).toBe(CONTACTS * 4);
    expect(texts.length).toBe(CONTACTS * 2);
    const resumed = await activitySince(t1);
    console.log(
      `resumed: after 'account set --state active' the ${heldDigests.length} held digest runs (${heldMidRun} of them held mid-run) and all ${CONTACTS} automation runs finished; ` +
        `${resumed.messagesClaimed} messages sent, ${resumed.microsBilled} micros billed since`,
    );

    // ---- Closed: a fresh batch of waiting automation runs, the schedule still firing.
    const slow = await insertAutomation(t.db, w.acme, w.site, [
      { id: 'e1', type: 'email.send', config: { subject: 'Soon', body: 'Soon' } },
      { id: 'w1', type: 'wait', config: { duration: 'PT1H' } },
      { id: 'e2', type: 'email.send', config: { subject: 'Later', body: 'Later' } },
    ]);
    await enrollAll(slow, 'slow', 10);
    await until('the slow runs to wait', async () => (await count(`select count(*) from automation_runs where automation_id = $1 and status = 'waiting'`, [slow])) === 10, 60_000);
    // Digest runs mid-fetch when the account closes.
    await queueWorkflowRuns(digest, 40);
    await until('digest runs to be under way', async () => (await count(`select count(*) from workflow_runs where workflow_id = $1 and status = 'running'`, [digest])) > 0, 30_000);
    const closeOut = await account('--state', 'closed');
    const t2 = await dbNow();
    await sleep(3_000); // a few polls of both workers
    const afterClose = await activitySince(t2);
    const wfOpen = await count(`select count(*) from workflow_runs where account_id = $1 and status in ('queued', 'running', 'awaiting_approval')`, [w.acme]);
    const arOpen = await count(`select count(*) from automation_runs where account_id = $1 and status in ('running', 'waiting')`, [w.acme]);
    const stopped = await t.db.query<{ error: string; n: string }>(
      `select error, count(*) as n from automation_runs where automation_id = $1 group by error`,
      [slow],
    );
    const cancelled = await count(`select count(*) from workflow_runs where account_id = $1 and status = 'cancelled' and summary = $2`, [w.acme, ACCOUNT_CLOSED_SUMMARY]);
    const queuedLeft = await count(`select count(*) from outbox where account_id = $1 and status = 'queued'`, [w.acme]);
    console.log(
      `closed: ${closeOut.trim().split('\n').pop()}; open workflow runs ${wfOpen}, open automation runs ${arOpen}, queued messages ${queuedLeft}; ` +
        `${cancelled} workflow runs "${ACCOUNT_CLOSED_SUMMARY}"; since: ${JSON.stringify(afterClose)}`,
    );
    expect(afterClose).toEqual(NOTHING);
    expect(wfOpen).toBe(0);
    expect(arOpen).toBe(0);
    expect(queuedLeft).toBe(0);
    expect(stopped.map((r) => [r.error, Number(r.n)])).toEqual([[ACCOUNT_CLOSED_REASON, 10]]);
    for (const o of outputs) expect(o()).not.toMatch(/"level":(50|60)/);
  });
});
