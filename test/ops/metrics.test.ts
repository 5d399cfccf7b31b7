// /metrics, scraped from a running `serve` as Prometheus would: on its own listener
// (SWITCHBOARD_METRICS_ADDR), never on the public port; names and labels as documented; and the
// counts move with the work done between two scrapes (requests by route template, a limiter's
// refusals, runs started and worked, the queues' depth).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, onPostgres, type TestDb } from '../helpers/db.js';
import { awaitFreshWindow, cliResult, startServer, type ServerProcess } from '../helpers/process.js';

let t: TestDb;
let tmp: string;
let s: ServerProcess;
let metricsUrl: string;
let env: Record<string, string>;
beforeAll(async () => {
  t = await freshDb();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-metrics-'));
  env = onPostgres() ? { DATABASE_URL: t.url! } : { SWITCHBOARD_DATA_DIR: path.join(tmp, 'data') };
  s = await startServer({ ...env, SWITCHBOARD_METRICS_ADDR: '127.0.0.1:0', SWITCHBOARD_POLL_MS: '50' }, 'all');
  const banner = s.output().split('\n').find((l) => l.includes('"msg":"switchboard listening on'))!;
  metricsUrl = (JSON.parse(banner) as { metrics: string }).metrics;
}, 180_000);
afterAll(async () => {
  if (s) expect(await s.stop()).toBe(0);
  await t?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** One scrape: sample lines as `name{labels}` → value. */
async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    samples.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return samples;
}

const value = (m: Map<string, number>, key: string) => m.get(key) ?? 0;

describe('/metrics', () => {
  it('is served on its own listener only, at loopback', async () => {
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const publicPort = await fetch(`${s.baseUrl}/metrics`, { headers: { authorization: 'Bearer x' } });
    expect(publicPort.status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
  });

  it('names requests by route, refusals by limiter, runs by queue and outcome, queues, the pool and the process; and the counts move', async () => {
    const file = path.join(tmp, 'fixture.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        accounts: [
          {
            ref: 'a',
            name: 'A',
            credit_micros: 1_000_000,
            limits: { requests_per_minute: 4 },
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            keys: [{ ref: 'k', name: 'k', scopes: ['workflows:read', 'workflows:run'] }],
            workflows: [{ ref: 'wf', name: 'W', status: 'active', blocks: [{ id: 'a', kind: 'source.text', config: { text: 'x' } }], edges: [] }],
          },
        ],
      }),
    );
    const seeded = await cliResult(['seed', file, '--json'], env);
    expect(seeded.code, seeded.stderr).toBe(0);
    const a = (JSON.parse(seeded.stdout) as { accounts: { a: { keys: { k: string }; workflows: { wf: string } } } }).accounts.a;

    // The four requests below share one rate window.
    await awaitFreshWindow(30_000);
    const before = await scrape();
    const auth = { authorization: `Bearer ${a.keys.k}` };
    const run = await fetch(`${s.baseUrl}/v1/workflows/${a.workflows.wf}/runs`, { method: 'POST', headers: { ...auth, 'idempotency-key': 'metrics-run-1' } });
    expect(run.status).toBe(202);
    const runId = ((await run.json()) as { id: string }).id;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${s.baseUrl}/v1/workflows/${a.workflows.wf}`, { headers: auth })).status);
    // The key's 4 requests a minute: the run start and three reads pass, the fourth read is refused.
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The run is worked by this process's engine: wait for it to end (as its detail says).
    let done = false;
    while (!done) {
      const after = await scrape();
      done = value(after, 'switchboard_runs_worked_total{queue="workflow_runs",outcome="succeeded"}') > value(before, 'switchboard_runs_worked_total{queue="workflow_runs",outcome="succeeded"}');
      if (!done) await new Promise((r) => setTimeout(r, 100));
    }
    const after = await scrape();
    const read = 'switchboard_http_requests_total{method="GET",route="/v1/workflows/:id",status="200"}';
    expect(value(after, read) - value(before, read)).toBe(3);
    expect(value(after, 'switchboard_http_requests_total{method="POST",route="/v1/workflows/:id/runs",status="202"}')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'switchboard_http_request_duration_seconds_count{method="GET",route="/v1/workflows/:id",status="200"}') - value(before, 'switchboard_http_request_duration_seconds_count{method="GET",route="/v1/workflows/:id",status="200"}')).toBe(3);
    expect(value(after, 'switchboard_refusals_total{limiter="rate_limited"}') - value(before, 'switchboard_refusals_total{limiter="rate_limited"}')).toBe(1);
    expect(value(after, 'switchboard_runs_started_total{queue="workflow_runs"}') - value(before, 'switchboard_runs_started_total{queue="workflow_runs"}')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'switchboard_claim_wait_seconds_count{queue="workflow_runs"}')).toBeGreaterThanOrEqual(1);
    // No URL with an id in it ever becomes a label.
    expect([...after.keys()].filter((k) => k.includes(runId) || k.includes(a.workflows.wf))).toEqual([]);
    for (const queue of ['workflow_runs', 'automation_runs', 'outbox']) {
      expect(after.has(`switchboard_queue_depth{queue="${queue}"}`)).toBe(true);
      expect(after.get(`switchboard_queue_oldest_ready_seconds{queue="${queue}"}`)).toBeGreaterThanOrEqual(0);
    }
    expect(after.has('switchboard_db_pool_clients{state="in_use"}')).toBe(onPostgres());
    for (const name of ['switchboard_event_loop_lag_seconds', 'nodejs_eventloop_lag_seconds', 'process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) {
      expect(after.has(name), name).toBe(true);
    }
  }, 180_000);
});
