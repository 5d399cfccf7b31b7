// Seeds the benchmark data into an open, migrated store: two accounts through the real fixture
// loader (so keys, hashes and limits are exactly what production code writes), then their
// workflows in bulk with generate_series — row-by-row inserts would take minutes on PGlite.
import type { Db } from '../src/db/db.js';
import { seedFixture } from '../src/fixtures/load.js';
import { loadSecrets } from '../src/secrets/store.js';
import { ERASURE_SECRET } from '../src/secrets/one-way.js';

/** What the parent needs to aim load at the seeded data. */
export interface SeedInfo {
  small: { accountId: string; key: string; workflows: number };
  large: { accountId: string; key: string; workflows: number };
  /** A workflow of the small account that has a run, so GET /workflows/{id} exercises last_run. */
  workflowId: string;
  seedMs: number;
}

// Far above what 50 connections can send in a minute: the limiter runs on every request (we
// measure its cost) but never answers 429.
const REQUESTS_PER_MINUTE = 100_000_000;
const BATCH = 10_000;

function account(ref: string) {
  return {
    ref,
    name: `Bench ${ref}`,
    tier: 'enterprise',
    limits: { requests_per_minute: REQUESTS_PER_MINUTE },
    // No password: scrypt would only slow the seed, and nothing here signs in.
    users: [{ ref: 'owner', email: `owner@${ref}.bench.example`, role: 'owner', name: 'Bench Owner' }],
    keys: [{ ref: 'reader', name: 'Bench reader', scopes: ['workflows:read'] }],
    projects: [{ ref: 'main', name: 'Main project' }],
  };
}

// One statement per batch: the CTE makes ids and timestamps once (it is referenced twice, so
// PostgreSQL materialises it), inserts the workflows, and gives every 10th one (by recency) a
// finished run, created after the workflow's last update like a real run would be. updated_at
// spreads the workflows over a year in a scrambled order (i * 7919 mod count is a permutation), so
// the (account_id, updated_at desc, id desc) index is filled out of insertion order, and every
// page of the list, the first included, has workflows with and without a last run.
const INSERT_BATCH = `
  with src as (
    select i, gen_random_uuid() as id, p,
           now() - p * (interval '365 days' / $5::int) as updated_at
      from generate_series($2::int, $3::int) as i,
           lateral (select ((i::bigint * 7919) % $5::int)::int as p) as perm
  ), w as (
    insert into workflows (account_id, id, project_id, name, description, status, blocks, edges, schedule,
                           created_at, updated_at)
    select $1::uuid, id,
           case when i % 2 = 0 then $4::uuid end,
           'Workflow ' || i,
           case when i % 4 = 0 then '' else 'Benchmark workflow number ' || i || ': fetch, summarise, publish.' end,
           case when i % 10 = 5 then 'paused' when i % 3 = 0 then 'draft' else 'active' end,
           jsonb_build_array(
             jsonb_build_object('id', 'fetch', 'kind', 'source.web', 'config', jsonb_build_object('url', 'https://example.com/' || i)),
             jsonb_build_object('id', 'sum', 'kind', 'agent', 'config', jsonb_build_object('prompt', 'Summarise the page in three bullets.')),
             jsonb_build_object('id', 'out', 'kind', 'output.project', 'config', '{}'::jsonb)),
           '[{"from": "fetch", "to": "sum"}, {"from": "sum", "to": "out"}]'::jsonb,
           case when i % 5 = 0 then '0 9 * * 1' end,
           updated_at - random() * interval '30 days',
           updated_at
      from src
    returning id
  )
  insert into workflow_runs (account_id, id, workflow_id, status, trigger, summary, created_at, started_at, finished_at, run_at)
  select $1::uuid, gen_random_uuid(), src.id, 'succeeded', 'api', 'Finished',
         src.updated_at + interval '1 hour', src.updated_at + interval '1 hour', src.updated_at + interval '61 minutes',
         src.updated_at + interval '1 hour'
    from src
   where src.p % 10 = 0`;

async function insertWorkflows(db: Db, accountId: string, projectId: string, count: number): Promise<void> {
  for (let lo = 1; lo <= count; lo += BATCH) {
    const hi = Math.min(count, lo + BATCH - 1);
    await db.query(INSERT_BATCH, [accountId, lo, hi, projectId, count]);
  }
}

export async function seedBench(db: Db, counts: { small: number; large: number }): Promise<SeedInfo> {
  const t0 = performance.now();
  // The secret `switchboard seed` uses, so the store ends up as the real command would leave it
  // (the fixture has no erased contacts, but the loader requires the secret).
  const [erasure] = await loadSecrets(db, ERASURE_SECRET);
  const seeded = await seedFixture(db, { accounts: [account('small'), account('large')] }, { erasureSecret: erasure.secret });
  const small = seeded.accounts.small;
  const large = seeded.accounts.large;
  await insertWorkflows(db, small.id, small.projects.main, counts.small);
  await insertWorkflows(db, large.id, large.projects.main, counts.large);
  // Fresh statistics, so the planner sees 100k rows and not the empty table it migrated. VACUUM
  // too: 100k fresh inserts would otherwise trigger autovacuum in the middle of a measured case
  // (and set hint bits on first read), charging seeding work to whichever case runs first.
  await db.exec('vacuum analyze');
  const [withRun] = await db.query<{ id: string }>(
    `select w.id from workflows w
      where w.account_id = $1 and exists (select 1 from workflow_runs r where r.account_id = w.account_id and r.workflow_id = w.id)
      limit 1`,
    [small.id],
  );
  if (!withRun) throw new Error('seeding made no workflow with a run');
  return {
    small: { accountId: small.id, key: small.keys.reader, workflows: counts.small },
    large: { accountId: large.id, key: large.keys.reader, workflows: counts.large },
    workflowId: withRun.id,
    seedMs: Math.round(performance.now() - t0),
  };
}
