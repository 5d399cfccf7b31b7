// `npm run bench:contacts`: GET /v1/contacts unfiltered and with each filter (q, email,
// lifecycle_stage, changed_since), on an account of 1,000 and one of 100,000 contacts, on PGlite
// and on PostgreSQL. p50/p99 over a bounded number of requests per case, and the ratio of the
// 100k p50 to the 1k p50: keyset pages on matching indexes should cost about the same at both
// sizes (target: within 1.5x). In-process (app.inject): the endpoint's own cost, not HTTP.
// Both accounts share the table (as tenants do) and are ANALYZEd once written, as autovacuum would
// do on a live PostgreSQL. Requests alternate between the two accounts, so load from anything else
// on the machine weighs on both sides of the ratio alike.
import { randomBytes } from 'node:crypto';
import { configWith } from '../src/config.js';
import type { Db } from '../src/db/db.js';
import { seedFixture } from '../src/fixtures/load.js';
import type { App } from '../src/http/app.js';
import { createApp } from '../src/server.js';
import { benchEntry, onEachStore } from './stores.js';

const REQUESTS = Number(process.env.BENCH_CONTACTS_REQUESTS ?? 300);
const WARMUP = 50;
const SIZES = [1_000, 100_000];
const TARGET = 1.5;

const log = (m: string) => process.stderr.write(`${m}\n`);

const FIRST = ['Ann', 'Bob', 'Cara', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivan', 'Jo', 'Kai', 'Lena', 'Milo', 'Nia', 'Omar', 'Pia', 'Quinn',
  'Rosa', 'Sam', 'Tara', 'Uma', 'Vic', 'Wes', 'Xena', 'Yuri', 'Zoe', 'Aiko', 'Bram', 'Chloé', 'Dara', 'Emil', 'Finn', 'Greta', 'Hugo',
  'Iris', 'Jonas', 'Kira', 'Luca', 'Maya', 'Nils', 'Olga', 'Paul', 'Rhea', 'Sven', 'Theo', 'Ula', 'Vera', 'Will', 'Yara', 'Zane'];
// 400 surnames from syllables: realistic spread (a surname is ~0.25% of an account).
const SYL = ['an', 'ber', 'cor', 'dal', 'en', 'fer', 'gar', 'hol', 'ing', 'jen', 'kel', 'lin', 'mor', 'nor', 'ost', 'par', 'quin', 'ros', 'sten', 'tor'];
const LAST = SYL.flatMap((a) => SYL.map((b) => a[0].toUpperCase() + a.slice(1) + b));
const STAGES = ['subscriber', 'lead', 'marketing_qualified', 'sales_qualified', 'opportunity', 'customer', 'evangelist', 'other'];

/** n contacts in one statement per 10k rows: names cycle through the lists, changes spread over a year. */
export async function bulkInsert(db: Db, accountId: string, n: number): Promise<void> {
  for (let from = 0; from < n; from += 10_000) {
    await db.query(
      `insert into contacts (account_id, id, email, email_normalized, first_name, last_name, lifecycle_stage, tags, created_at, updated_at)
       select $1, gen_random_uuid(), e, lower(e), f, l, ($5::text[])[1 + i % 8], '{}', ts, ts
         from (select i, f, l, ts, lower(f) || '.' || lower(l) || i || '@mail' || (i % 10) || '.example' as e
                 from (select i, ($3::text[])[1 + i % cardinality($3::text[])] as f,
                              ($4::text[])[1 + (i / 7) % cardinality($4::text[])] as l,
                              now() - (((i * 7919) % 525600) * interval '1 minute') - (i % 1000) * interval '1 millisecond' as ts
                         from generate_series($2::int, $6::int) i) g) x`,
      [accountId, from, FIRST, LAST, STAGES, Math.min(n, from + 10_000) - 1],
    );
  }
  await db.query('analyze contacts');
}

export async function account(db: Db, ref: string): Promise<{ id: string; key: string }> {
  const res = await seedFixture(
    db,
    {
      accounts: [
        {
          ref,
          name: `Contacts bench ${ref}`,
          tier: 'enterprise',
          limits: { requests_per_minute: 1_000_000 },
          users: [{ ref: 'o', email: `o@${ref}.example`, role: 'owner' }],
          keys: [{ ref: 'k', name: 'bench', scopes: ['contacts:read'] }],
        },
      ],
    },
    { erasureSecret: randomBytes(16) },
  );
  return { id: res.accounts[ref].id, key: res.accounts[ref].keys.k };
}

interface Case {
  name: string;
  /** The query string of request i (cases rotate through values so no single plan or row is always hot). */
  qs: (i: number) => string;
}

async function cases(db: Db, accountId: string): Promise<Case[]> {
  const sample = await db.query<{ email: string; first_name: string; last_name: string }>(
    `select email, first_name, last_name from contacts where account_id = $1 order by id limit 50`,
    [accountId],
  );
  const [{ since }] = await db.query<{ since: Date }>(
    `select updated_at as since from contacts where account_id = $1 order by updated_at desc offset 200 limit 1`,
    [accountId],
  );
  const enc = encodeURIComponent;
  return [
    { name: 'unfiltered', qs: () => '' },
    { name: 'q (first + last name)', qs: (i) => `q=${enc(`${sample[i % 50].first_name} ${sample[i % 50].last_name}`)}` },
    { name: 'q (one surname prefix)', qs: (i) => `q=${enc(LAST[(i * 37) % LAST.length].slice(0, 5))}` },
    // Its words include the account-wide "example" and a 10% "mailN": the GIN index reads their whole posting lists.
    { name: 'q (an email address)', qs: (i) => `q=${enc(sample[i % 50].email)}` },
    { name: 'email', qs: (i) => `email=${enc(sample[i % 50].email.toUpperCase())}` },
    { name: 'lifecycle_stage', qs: (i) => `lifecycle_stage=${STAGES[i % STAGES.length]}` },
    { name: 'changed_since', qs: () => `changed_since=${enc(since.toISOString())}` },
  ];
}

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

interface Stats {
  p50: number;
  p99: number;
  rows: number;
}

/** One case on every account, request by request in turn. */
async function measure(app: App, accounts: Array<{ key: string; case: Case }>): Promise<Stats[]> {
  const times = accounts.map(() => [] as number[]);
  const rows = accounts.map(() => 0);
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    for (const [k, a] of accounts.entries()) {
      const t0 = performance.now();
      const r = await app.inject({ method: 'GET', url: `/v1/contacts?${a.case.qs(i)}`, headers: { authorization: `Bearer ${a.key}` } });
      const ms = performance.now() - t0;
      if (r.statusCode !== 200) throw new Error(`${a.case.name} answered ${r.statusCode}: ${r.body.slice(0, 200)}`);
      if (i >= WARMUP) {
        times[k].push(ms);
        rows[k] += r.json().data.length;
      }
    }
  }
  return times.map((t, k) => {
    t.sort((a, b) => a - b);
    return { p50: pct(t, 0.5), p99: pct(t, 0.99), rows: rows[k] / REQUESTS };
  });
}

async function run(db: Db, store: string): Promise<string[]> {
  const accounts: Array<{ key: string; cases: Case[] }> = [];
  for (const size of SIZES) {
    const acct = await account(db, `n${size}`);
    const t0 = performance.now();
    await bulkInsert(db, acct.id, size);
    log(`${store}: ${size} contacts written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    accounts.push({ key: acct.key, cases: await cases(db, acct.id) });
  }
  const app = await createApp(configWith({ rateLimitStore: 'memory' }), db);
  const f = (n: number) => n.toFixed(2).padStart(7);
  const lines = [`${store}: ${REQUESTS} requests per case and size (after ${WARMUP} warm-up), ms; rows = average page size`];
  lines.push(`  ${'case'.padEnd(24)} ${'1k p50'.padStart(7)} ${'1k p99'.padStart(7)} ${'100k p50'.padStart(9)} ${'100k p99'.padStart(9)} ${'ratio'.padStart(6)}  rows 1k/100k`);
  try {
    for (const [n, name] of accounts[0].cases.map((c) => c.name).entries()) {
      const [small, big] = await measure(app, accounts.map((a) => ({ key: a.key, case: a.cases[n] })));
      const ratio = big.p50 / small.p50;
      lines.push(
        `  ${name.padEnd(24)} ${f(small.p50)} ${f(small.p99)} ${f(big.p50).padStart(9)} ${f(big.p99).padStart(9)} ${ratio.toFixed(2).padStart(6)}` +
          `  ${small.rows.toFixed(1)}/${big.rows.toFixed(1)}${ratio <= TARGET ? '' : `  OVER ${TARGET}x`}`,
      );
    }
  } finally {
    await app.close();
  }
  return lines;
}

async function main(): Promise<void> {
  const perStore = await onEachStore('contacts', (db, store) => run(db, store));
  console.log(perStore.flat().join('\n'));
}

benchEntry(import.meta.url, 'bench:contacts', 900_000, main);
