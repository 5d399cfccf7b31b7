// The README tour as a test: the demo fixture's workflow without approval runs to `succeeded` and
// its page exists; the one with an approval block waits at awaiting_approval and, once approved
// (switchboard runs approve), succeeds. The API, the engine and the operator command share a store.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsCommand } from '../../src/cli/runs.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let engine: Engine;
let demo: Awaited<ReturnType<typeof seedFixture>>['accounts'][string];

beforeAll(async () => {
  t = await testApp();
  engine = createEngine(t.db, { ...t.config, engine: { ...t.config.engine, pollMs: 50 } });
  await engine.start();
  const json = JSON.parse(fs.readFileSync(new URL('../../examples/demo.json', import.meta.url), 'utf8'));
  demo = (await seedFixture(t.db, json, { erasureSecret: Buffer.from('t') })).accounts.demo;
});
afterAll(async () => {
  await engine?.stop();
  await t?.close();
});

const auth = () => ({ authorization: `Bearer ${demo.keys.integration}` });

async function startRun(workflowId: string, key: string): Promise<string> {
  const r = await t.app.inject({ method: 'POST', url: `/v1/workflows/${workflowId}/runs`, headers: { ...auth(), 'idempotency-key': key } });
  expect(r.statusCode).toBe(202);
  return r.json().id;
}

async function waitFor(runId: string, statuses: string[]): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const run = (await t.app.inject({ method: 'GET', url: `/v1/runs/${runId}`, headers: auth() })).json();
    if (statuses.includes(run.status) || Date.now() > deadline) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the demo workflows', () => {
  it('the digest (no approval) succeeds and its page exists', async () => {
    const id = await startRun(demo.workflows.digest, 'demo-digest-1');
    const run = await waitFor(id, ['succeeded', 'failed', 'partial']);
    expect(run).toMatchObject({ status: 'succeeded' });
    expect((run.billed_micros as number) > 0).toBe(true);
    const shown = JSON.parse((await runsCommand(t.db, ['show', id, '--json'])).stdout);
    expect(shown.pages_created).toHaveLength(1);
    const [page] = await t.db.query<{ kind: string; text: string }>('select kind, text from content_items where id = $1', [shown.pages_created[0].id]);
    expect(page.kind).toBe('page');
    expect(page.text.length).toBeGreaterThan(0);
  });

  it('the announcement waits for approval, then succeeds', async () => {
    const id = await startRun(demo.workflows.announce, 'demo-announce-1');
    const waiting = await waitFor(id, ['awaiting_approval', 'failed', 'partial']);
    expect(waiting).toMatchObject({ status: 'awaiting_approval', finished_at: null });
    expect((waiting.steps as { status: string }[]).at(-1)!.status).toBe('awaiting');
    const approved = await runsCommand(t.db, ['approve', id]);
    expect(approved.code).toBe(0);
    const done = await waitFor(id, ['succeeded', 'failed', 'partial']);
    expect(done).toMatchObject({ status: 'succeeded' });
    expect((done.steps as { node_kind: string; status: string }[]).map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(JSON.parse((await runsCommand(t.db, ['show', id, '--json'])).stdout).pages_created).toHaveLength(1);
  });
});
