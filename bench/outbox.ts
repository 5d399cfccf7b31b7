// `npm run bench:outbox`: email steps delivered per second. One account, a published automation
// with one email step, N contacts (BENCH_CONTACTS, default 2,000) enrolled at once (one statement,
// as enrollment writes them); the engine and the sender in this process, email through the SMTP
// transport (nodemailer) to a local smtp-server on 127.0.0.1. On PGlite and on PostgreSQL (a
// database sb_bench_outbox_<random> created on BENCH_DATABASE_URL and dropped afterwards).
// Prints emails delivered per second (the first outbox row's enqueue to the last `sent`) and
// steps per second (enrollment to the last run finished). Watchdog: 10 minutes; loopback only.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { RUNS_CHANNEL } from '../src/queue/channels.js';
import { configWith, loadConfig } from '../src/config.js';
import type { Db } from '../src/db/db.js';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { PostgresDb } from '../src/db/postgres.js';
import { createSender } from '../src/delivery/sender.js';
import { createEngine } from '../src/engine/engine.js';
import { seedFixture } from '../src/fixtures/load.js';
import { uuidv7 } from '../src/lib/ids.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 2000);
const STORES = (process.env.BENCH_STORES ?? 'pglite,postgres').split(',');
const WATCHDOG_MS = 10 * 60_000;

const log = (m: string) => process.stderr.write(`${m}\n`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Result {
  store: string;
  contacts: number;
  sent: number;
  other: number;
  emailsPerSec: number;
  stepsPerSec: number;
  deliverySeconds: number;
  stepSeconds: number;
}

async function startSmtp(): Promise<{ url: string; count: () => number; close(): Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, cb) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received++;
        cb();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, count: () => received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function bench(store: string, db: Db, smtpUrl: string): Promise<Result> {
  await migrate(db);
  const seeded = await seedFixture(
    db,
    { accounts: [{ ref: 'bench', name: 'Outbox bench', projects: [{ ref: 'site', name: 'Site' }] }] },
    { erasureSecret: Buffer.from('bench') },
  );
  const accountId = seeded.accounts.bench.id;
  const projectId = seeded.accounts.bench.projects.site;
  const automationId = uuidv7();
  const trigger = { type: 'manual', label: 'Enrolled by hand', config: {} };
  const steps = [{ id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Welcome, {{first_name}}', body: '<p>Hello {{first_name}} {{last_name}}</p>' } }];
  await db.query(
    `insert into automations (account_id, id, project_id, name, status, trigger, steps, published_version) values ($1, $2, $3, 'Welcome', 'published', $4, $5, 1)`,
    [accountId, automationId, projectId, JSON.stringify(trigger), JSON.stringify(steps)],
  );
  await db.query(`insert into automation_versions (account_id, automation_id, version, trigger, steps) values ($1, $2, 1, $3, $4)`, [
    accountId, automationId, JSON.stringify(trigger), JSON.stringify(steps),
  ]);
  const ids = Array.from({ length: CONTACTS }, () => uuidv7());
  await db.query(
    `insert into contacts (account_id, id, email, email_normalized, first_name, last_name, sms_consent)
     select $1, c.id, 'bench' || c.n || '@example.org', 'bench' || c.n || '@example.org', 'Pat' || c.n, 'Doe', 'granted'
       from unnest($2::uuid[]) with ordinality as c(id, n)`,
    [accountId, ids],
  );

  const base = loadConfig({});
  const config = configWith({
    engine: { ...base.engine, pollMs: 50 },
    delivery: { ...base.delivery, emailTransport: 'smtp', smtpUrl, emailFrom: 'Bench <bench@example.test>', publicUrl: 'http://127.0.0.1:1' },
  });
  const engine = createEngine(db, config);
  const sender = createSender(db, config);
  await engine.start();
  await sender.start();
  log(`${store}: enrolling ${CONTACTS} contacts (engine concurrency ${config.engine.concurrency}, sender concurrency ${config.delivery.concurrency}, SMTP transport)`);
  try {
    await db.transaction(async (tx) => {
      await tx.query(
        `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, version, run_at)
         select $1, gen_random_uuid(), $2, c, 'running', 'bench', 1, now() from unnest($3::uuid[]) c`,
        [accountId, automationId, ids],
      );
      await tx.query(`select pg_notify($1, '')`, [RUNS_CHANNEL]);
    });
    const deadline = Date.now() + WATCHDOG_MS;
    for (;;) {
      const [o] = await db.query<{ n: string }>(`select count(*) as n from outbox where account_id = $1 and status in ('queued', 'sending')`, [accountId]);
      const [r] = await db.query<{ n: string }>(`select count(*) as n from automation_runs where account_id = $1 and status in ('running', 'waiting')`, [accountId]);
      const [all] = await db.query<{ n: string }>(`select count(*) as n from outbox where account_id = $1`, [accountId]);
      if (Number(r.n) === 0 && Number(o.n) === 0 && Number(all.n) > 0) break;
      if (Date.now() > deadline) throw new Error(`${store}: not finished within the watchdog (${r.n} runs, ${o.n} messages pending)`);
      await sleep(100);
    }
  } finally {
    await engine.stop();
    await sender.stop();
  }
  const [d] = await db.query<{ first: Date; last: Date; sent: string; other: string }>(
    `select min(created_at) as first, max(sent_at) as last, count(*) filter (where status = 'sent') as sent, count(*) filter (where status <> 'sent') as other
       from outbox where account_id = $1`,
    [accountId],
  );
  const [s] = await db.query<{ first: Date; last: Date; steps: string }>(
    `select (select min(started_at) from automation_runs where account_id = $1) as first,
            (select max(finished_at) from automation_runs where account_id = $1) as last,
            (select count(*) from automation_run_steps where account_id = $1 and status = 'ok') as steps`,
    [accountId],
  );
  const deliverySeconds = (d.last.getTime() - d.first.getTime()) / 1000;
  const stepSeconds = (s.last.getTime() - s.first.getTime()) / 1000;
  return {
    store,
    contacts: CONTACTS,
    sent: Number(d.sent),
    other: Number(d.other),
    emailsPerSec: Math.round(Number(d.sent) / deliverySeconds),
    stepsPerSec: Math.round(Number(s.steps) / stepSeconds),
    deliverySeconds,
    stepSeconds,
  };
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    log('watchdog: the bench took longer than 10 minutes');
    process.exit(2);
  }, WATCHDOG_MS + 30_000);
  watchdog.unref();
  const smtp = await startSmtp();
  const results: Result[] = [];
  try {
    if (STORES.includes('pglite')) {
      const db = await openPglite({ dataDir: null });
      try {
        results.push(await bench('pglite', db, smtp.url));
      } finally {
        await db.close();
      }
    }
    if (STORES.includes('postgres')) {
      const name = `sb_bench_outbox_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`create database "${name}"`);
      const u = new URL(ADMIN_URL);
      u.pathname = '/' + name;
      const db = new PostgresDb(u.toString(), 10);
      try {
        results.push(await bench('postgres', db, smtp.url));
      } finally {
        await db.close();
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      }
    }
  } finally {
    await smtp.close();
  }
  console.log(`\nEmail steps delivered over SMTP (nodemailer → local smtp-server), ${CONTACTS} contacts enrolled at once, engine + sender in one process:`);
  console.log('store     | sent | not sent | emails/s (enqueue → last sent) | steps/s (enrol → last run done)');
  for (const r of results) {
    console.log(
      `${r.store.padEnd(9)} | ${String(r.sent).padStart(4)} | ${String(r.other).padStart(8)} | ${`${r.emailsPerSec} (${r.deliverySeconds.toFixed(2)} s)`.padStart(30)} | ${`${r.stepsPerSec} (${r.stepSeconds.toFixed(2)} s)`.padStart(31)}`,
    );
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    log(String(err instanceof Error ? (err.stack ?? err.message) : err));
    process.exit(1);
  },
);
