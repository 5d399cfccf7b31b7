// `switchboard export --to postgres://…`: the move from the embedded store to PostgreSQL. A store
// seeded from the full fixture, with a run started, a page made and a hub session open, is read
// through the API and the hub, exported by the real CLI, then read again on PostgreSQL: every
// answer must be the same (ids, cursors, key checks, the session, erased addresses). Runs on the
// PostgreSQL leg only (the target is a PostgreSQL database; vitest.config.ts), so it never skips.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { SCHEMA, type Db } from '../../src/db/db.js';
import { openPglite } from '../../src/db/pglite.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { parseExportArgs } from '../../src/cli/export.js';
import type { App } from '../../src/http/app.js';
import { createApp } from '../../src/server.js';
import { emptyDb, type TestDb } from '../helpers/db.js';
import { HUB_ORIGIN, hubClient } from '../helpers/hub.js';
import { SESSION_COOKIE } from '../../src/domain/hub.js';
import { ROOT, captured, cliResult, exited, runCli } from '../helpers/process.js';
import { storeAndFolder } from '../helpers/store-and-folder.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/fixture-format.json');
const sf = storeAndFolder('sb-export-', emptyDb);

type Answer = [url: string, status: number, body: unknown];

/** Every read an integrator or the hub makes, found by following lists to their items and cursors to their next pages. */
async function crawl(app: App, apiKey: string, hubHeaders: Record<string, string> | null): Promise<Answer[]> {
  const answers: Answer[] = [];
  const seen = new Set<string>();
  const queue: Array<[string, Record<string, string>]> = [
    ...['/v1/workflows?limit=1', '/v1/automations?limit=1', '/v1/projects?limit=1', '/v1/contacts?limit=1', '/v1/usage', '/v1/workmgmt/projects', '/v1/contacts?q=ann'].map(
      (u) => [u, { authorization: `Bearer ${apiKey}` }] as [string, Record<string, string>],
    ),
    ...(hubHeaders === null ? [] : ['/hub/api/session', '/hub/api/keys', '/hub/api/users', '/hub/api/contacts', '/hub/api/usage', '/hub/api/settings', '/hub/api/profile'].map(
      (u) => [u, hubHeaders] as [string, Record<string, string>],
    )),
  ];
  const children: Record<string, (id: string) => string[]> = {
    '/v1/workflows': (id) => [`/v1/workflows/${id}`, `/v1/workflows/${id}/runs?limit=1`],
    '/v1/automations': (id) => [`/v1/automations/${id}`, `/v1/automations/${id}/runs`],
    '/v1/projects': (id) => [`/v1/projects/${id}`, `/v1/projects/${id}/items?limit=2`],
    '/v1/contacts': (id) => [`/v1/contacts/${id}`],
    '/v1/workmgmt/projects': (id) => [`/v1/workmgmt/projects/${id}/items?limit=1`, `/v1/workmgmt/projects/${id}/sprints`],
  };
  while (queue.length) {
    const [url, headers] = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const res = await app.inject({ method: 'GET', url, headers });
    const body = res.json<{ data?: Array<{ id?: string; key?: string; project_id?: string }>; next_cursor?: string | null }>();
    // A request id is new on every request; all else must be the same.
    answers.push([url, res.statusCode, JSON.parse(res.body.replace(/"request_id":"[^"]*"/g, '"request_id":"…"'))]);
    const base = url.split('?')[0];
    if (body.next_cursor) queue.push([`${base}?limit=${new URL(url, 'http://x').searchParams.get('limit') ?? 1}&cursor=${encodeURIComponent(body.next_cursor)}`, headers]);
    for (const item of body.data ?? []) {
      const id = item.id ?? item.project_id;
      if (children[base] && id) for (const u of children[base](id)) queue.push([u, headers]);
      if (/\/v1\/workflows\/[^/]+\/runs$/.test(base) && item.id) queue.push([`/v1/runs/${item.id}`, headers]);
      if (/\/v1\/automations\/[^/]+\/runs$/.test(base) && item.id) queue.push([`/v1/automation-runs/${item.id}`, headers]);
      if (/\/v1\/projects\/[^/]+\/items$/.test(base) && item.id) queue.push([`/v1/items/${item.id}`, headers]);
      if (/\/v1\/workmgmt\/projects\/[^/]+\/items$/.test(base) && item.key) queue.push([`${base}/${item.key}`, headers]);
    }
  }
  return answers;
}

function keyFrom(seedOutput: string, name: string): string {
  const m = new RegExp(`^\\s+${name}\\s+\\S+\\s+(svc_\\S+)$`, 'm').exec(seedOutput);
  if (!m?.[1]) throw new Error(`no key ${name} in the seed output:\n${seedOutput}`);
  return m[1];
}

async function withApp<T>(db: Db, fn: (app: App) => Promise<T>): Promise<T> {
  const config = configWith({ rateLimitStore: 'memory' });
  const app = await createApp(config, db);
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

/** Every table's rows in PostgreSQL's text form, sorted: what "the same data" means, column by column. */
async function everyRow(db: Db): Promise<Record<string, string[]>> {
  const tables = await db.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r' and c.relname <> 'schema_migrations' order by 1`,
    [SCHEMA],
  );
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    const rows = await db.query<{ r: string }>(`select t::text as r from ${SCHEMA}."${name}" t order by 1`);
    out[name] = rows.map((x) => x.r);
  }
  return out;
}

async function schemaExists(url: string): Promise<boolean> {
  const db = new PostgresDb(url, 1, undefined, 0);
  try {
    const [row] = await db.query<{ n: number }>('select count(*)::int as n from pg_namespace where nspname = $1', [SCHEMA]);
    return (row?.n ?? 0) > 0;
  } finally {
    await db.close();
  }
}

describe('export into an empty PostgreSQL database', () => {
  let env: Record<string, string>;
  let before: Answer[];
  let after: Answer[];
  let rowsBefore: Record<string, string[]>;
  let rowsAfter: Record<string, string[]>;
  let exportOut: { code: number | null; stdout: string; stderr: string };
  let keys: { live: string; old: string };

  beforeAll(async () => {
    const dataDir = path.join(sf.tmp, 'data');
    env = { SWITCHBOARD_DATA_DIR: dataDir };
    const seeded = await cliResult(['seed', FIXTURE, '--create'], env);
    expect(seeded.code, seeded.stderr).toBe(0);
    keys = { live: keyFrom(seeded.stdout, 'integration'), old: keyFrom(seeded.stdout, 'old') };

    // State the fixture does not make: a run, a page, a hub session.
    const source = await openPglite({ dataDir });
    let hubHeaders: Record<string, string> = {};
    before = await withApp(source, async (app) => {
      const auth = { authorization: `Bearer ${keys.live}` };
      const wfs = (await app.inject({ method: 'GET', url: '/v1/workflows?limit=10', headers: auth })).json<{ data: Array<{ id: string; status: string }> }>();
      const active = wfs.data.find((w) => w.status === 'active') ?? wfs.data[0];
      const run = await app.inject({ method: 'POST', url: `/v1/workflows/${active.id}/runs`, headers: { ...auth, 'idempotency-key': 'export-1' }, payload: {} });
      expect(run.statusCode, run.body).toBe(202);
      const owner = (await source.query<{ id: string; account_id: string; email: string }>(`select id, account_id, email from users where role = 'owner' limit 1`))[0];
      const hub = await hubClient({ app, db: source, url: null, config: configWith({}), close: async () => {} }, { accountId: owner.account_id, userId: owner.id, email: owner.email });
      hubHeaders = { cookie: `${SESSION_COOKIE}=${hub.token}`, origin: HUB_ORIGIN };
      return [...(await crawl(app, keys.live, hubHeaders)), ...(await crawl(app, keys.old, null))];
    });
    rowsBefore = await everyRow(source);
    await source.close();

    exportOut = await cliResult(['export', '--to', sf.t.url!], env);
    const target = new PostgresDb(sf.t.url!, 4, undefined, 0);
    rowsAfter = await everyRow(target);
    after = await withApp(target, async (app) => [...(await crawl(app, keys.live, hubHeaders)), ...(await crawl(app, keys.old, null))]);
    await target.close();
  });

  it('copies every table, checks the counts and says how to start on PostgreSQL', () => {
    expect(exportOut.code, exportOut.stderr).toBe(0);
    expect(exportOut.stdout).toMatch(/every table's count checked/);
    for (const [name, rows] of Object.entries(rowsBefore)) expect(exportOut.stdout).toMatch(new RegExp(`^${name}\\s+${rows.length}$`, 'm'));
    expect(exportOut.stdout).toContain(`DATABASE_URL='${sf.t.url}' switchboard serve`);
    expect(exportOut.stderr).toMatch(/^ {2}workflow_runs: \d+ rows?$/m);
  });

  it('holds every row of every table as it was, column for column (secrets, key hashes, sessions, erased addresses)', () => {
    expect(rowsBefore.server_secrets?.length).toBeGreaterThan(0);
    expect(rowsBefore.hub_sessions?.length).toBe(1);
    expect(rowsBefore.erased_emails?.length).toBeGreaterThan(0);
    expect(rowsBefore.workflow_runs?.length).toBe(1);
    expect(rowsAfter).toEqual(rowsBefore);
  });

  it('answers every read the same after the move: ids, cursors, keys, the hub session, erased addresses', () => {
    // The crawl really read things: lists, items, next pages, a signed-in hub, a refused key.
    expect(before.length).toBeGreaterThan(30);
    expect(before.some(([u]) => u.includes('cursor='))).toBe(true);
    expect(before.find(([u]) => u === '/hub/api/session')?.[1]).toBe(200);
    expect(before.some(([u, s]) => u.startsWith('/v1/runs/') && s === 200)).toBe(true);
    expect(after).toEqual(before);
  });

  it('refuses a database that already holds a store, and changes nothing in it', async () => {
    const again = await cliResult(['export', '--to', sf.t.url!], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds a Switchboard store \(schema version \d+\); export copies into an empty database only/);
    const target = new PostgresDb(sf.t.url!, 1, undefined, 0);
    const rows = await everyRow(target);
    await target.close();
    expect(rows).toEqual(rowsAfter);
  });

  it('refuses while another process holds the embedded store', async () => {
    const holder = await openPglite({ dataDir: env.SWITCHBOARD_DATA_DIR });
    try {
      const r = await cliResult(['export', '--to', sf.t.url!], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/Stop the server first/);
    } finally {
      await holder.close();
    }
  });
});

describe('export killed part-way', () => {
  let target: TestDb;
  afterAll(async () => target?.close());

  it('leaves the target empty, and the next export completes', async () => {
    target = await emptyDb();
    const dataDir = path.join(sf.tmp, 'big');
    const env = { SWITCHBOARD_DATA_DIR: dataDir };
    expect((await cliResult(['seed', FIXTURE, '--create'], env)).code).toBe(0);
    // Enough contacts that the copy is still in its transaction when the kill lands.
    const src = await openPglite({ dataDir });
    await src.query(
      `insert into contacts (id, account_id, email, created_at, updated_at)
       select gen_random_uuid(), a.id, 'bulk' || g || '@example.com', now(), now() from accounts a, generate_series(1, 20000) g`,
    );
    await src.close();

    const child = runCli(['export', '--to', target.url!], env);
    const { output } = captured(child);
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (/ {2}contacts: \d+ rows/.test(output())) resolve();
        else if (child.exitCode !== null) reject(new Error(`export ended before the contacts:\n${output()}`));
        else setTimeout(check, 20);
      };
      check();
    });
    child.kill('SIGKILL');
    expect(await exited(child)).toBeNull();
    expect(await schemaExists(target.url!)).toBe(false);

    const r = await cliResult(['export', '--to', target.url!], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^contacts\s+20004$/m);
  });
});

describe('export arguments', () => {
  it('needs a postgres:// URL naming a database', () => {
    expect(parseExportArgs([])).toMatch(/--to postgres:\/\/… is required/);
    expect(parseExportArgs(['--to', 'mysql://h/db'])).toMatch(/must be a postgres:\/\/ URL/);
    expect(parseExportArgs(['--to', 'postgres://h'])).toMatch(/must name the database/);
    expect(parseExportArgs(['--to', 'not a url'])).toMatch(/is not a URL/);
    expect(parseExportArgs(['--to=postgres://u:secret@h/db', '--to', 'postgres://h/x'])).toBe('--to given twice');
    expect(parseExportArgs(['--to=postgres://u@h:5432/db'])).toEqual({ to: 'postgres://u@h:5432/db' });
    expect(JSON.stringify(parseExportArgs(['--to', 'ftp://u:hunter2@h/db']))).not.toContain('hunter2');
  });

  it('is refused from a PostgreSQL configuration, and where there is no store', async () => {
    const pgConfigured = await cliResult(['export', '--to', sf.t.url!], { DATABASE_URL: sf.t.url!, SWITCHBOARD_DATA_DIR: path.join(sf.tmp, 'x') });
    expect(pgConfigured.code).toBe(1);
    expect(pgConfigured.stderr).toMatch(/export copies the embedded store, but DATABASE_URL is set/);
    const none = await cliResult(['export', '--to', sf.t.url!], { SWITCHBOARD_DATA_DIR: path.join(sf.tmp, 'nothing-here') });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/there is no store in .*nothing-here/);
  });
});
