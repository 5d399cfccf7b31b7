// kill -9 a worker process in the middle of a run; another worker finishes it, and no step and no
// side effect happens twice. PostgreSQL only: separate worker processes need a store several
// processes can open (on the embedded store one process owns the data dir and runs the engine
// itself; the in-process resume test in scheduler.test.ts covers that store).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixture } from '../../src/fixtures/load.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { exited, runCli } from '../helpers/process.js';
import { untilReady } from '../helpers/progress.js';
import { queueRun, runRow, steps, until } from './support.js';

let t: TestDb;
let server: http.Server;
let hits = 0;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await freshDb();
  // The first fetch hangs (the worker is killed while waiting for it); later ones answer at once.
  server = http.createServer((req, res) => {
    hits++;
    if (hits === 1) return; // never answered
    res.writeHead(200, { 'content-type': 'text/plain' }).end('fresh news');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  server?.closeAllConnections();
  server?.close();
  await t?.close();
});

function worker(): { child: ChildProcess; output: () => string } {
  const child = runCli(['worker'], {
    DATABASE_URL: t.url!,
    SWITCHBOARD_LEASE_MS: '1000',
    SWITCHBOARD_POLL_MS: '100',
    SWITCHBOARD_WEB_ALLOW_HOSTS: '127.0.0.1',
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  return { child, output: () => out };
}

describe('crash of a worker process', () => {
  it('a run whose worker was killed -9 mid-block is finished by another worker, with no step or page twice', { timeout: 120_000 }, async () => {
    const port = (server.address() as AddressInfo).port;
    const seeded = await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'acme',
            name: 'Acme',
            credit_micros: 10_000_000,
            projects: [{ ref: 'site', name: 'Site' }],
            workflows: [
              {
                ref: 'news',
                name: 'News page',
                status: 'active',
                project: 'site',
                blocks: [
                  { id: 'intro', kind: 'source.text', config: { text: 'Our news. It is good.' } },
                  { id: 'ai', kind: 'agent', config: { prompt: 'Write it up: {{intro}}', max_tokens: 100 } },
                  { id: 'page', kind: 'output.project', config: { title: 'Crash test page' } },
                  { id: 'web', kind: 'source.web', config: { url: `http://127.0.0.1:${port}/news` } },
                  { id: 'tpl', kind: 'transform.template', config: { template: 'Latest: {{web}}' } },
                ],
                edges: [
                  { from: 'intro', to: 'ai' },
                  { from: 'ai', to: 'page' },
                  { from: 'page', to: 'web' },
                  { from: 'web', to: 'tpl' },
                ],
              },
            ],
          },
        ],
      },
      { erasureSecret: Buffer.from('t') },
    );
    const acme = seeded.accounts.acme;
    const first = worker();
    await untilReady(first.child, () => /worker running/.test(first.output()), { what: 'the first worker to start', output: first.output });
    const id = await queueRun(t.db, acme.id, acme.workflows.news);
    // The worker has created the page and is waiting on the web fetch: kill it there.
    await until('the web fetch', () => hits === 1, 30_000);
    first.child.kill('SIGKILL');
    await exited(first.child);
    const left = await runRow(t.db, id);
    expect(left.status).toBe('running');
    expect((await steps(t.db, id)).map((s) => [s.node_id, s.status])).toEqual([
      ['intro', 'succeeded'],
      ['ai', 'succeeded'],
      ['page', 'succeeded'],
      ['web', 'running'],
    ]);

    const second = worker();
    await untilReady(second.child, async () => (await runRow(t.db, id)).status === 'succeeded', { what: 'the second worker to finish the run', output: second.output });
    const run = await runRow(t.db, id);
    expect(run.attempt).toBe(2);
    const s = await steps(t.db, id);
    expect(s.map((x) => [x.seq, x.node_id, x.status])).toEqual([
      [1, 'intro', 'succeeded'],
      [2, 'ai', 'succeeded'],
      [3, 'page', 'succeeded'],
      [4, 'web', 'succeeded'],
      [5, 'tpl', 'succeeded'],
    ]);
    expect(s[4].output!.text).toBe('Latest: fresh news');
    // The AI step was billed once, before the crash, and not again after it.
    const ledger = await t.db.query<{ n: number; s: number }>(
      'select count(*)::int as n, coalesce(sum(micros), 0)::bigint as s from billing_ledger where workflow_run_id = $1',
      [id],
    );
    expect(ledger[0].n).toBe(1);
    const [billed] = await t.db.query<{ billed_micros: number }>('select billed_micros from workflow_runs where id = $1', [id]);
    expect(billed.billed_micros).toBe(ledger[0].s);
    expect(billed.billed_micros).toBeGreaterThan(0);
    // The page was made before the crash and not again after it.
    const pages = await t.db.query<{ id: string }>(`select id from content_items where account_id = $1 and title = 'Crash test page'`, [acme.id]);
    expect(pages).toHaveLength(1);
    expect(s[2].output!.item_id).toBe(pages[0].id);
    expect(hits).toBe(2);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });
});
