// Real processes on one PostgreSQL database: an API process records the URL it really listens on
// (PORT=0: the bound port) and a worker without SWITCHBOARD_PUBLIC_URL links to it; a worker with
// SMTP refuses to start without SWITCHBOARD_PUBLIC_URL.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../helpers/db.js';
import { captured, exited, runCli, startServer, type ServerProcess } from '../helpers/process.js';
import { untilReady } from '../helpers/progress.js';
import { enroll, insertAutomation, outbox, seedWorld } from '../engine/automations/support.js';

const children: ChildProcess[] = [];
const servers: ServerProcess[] = [];
const dirs: string[] = [];
let t: TestDb | null = null;

afterAll(async () => {
  // Only the processes this file started, by pid.
  for (const c of [...children, ...servers.map((s) => s.child)]) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all([...children, ...servers.map((s) => s.child)].map((c) => exited(c)));
  await t?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function track(child: ChildProcess): { child: ChildProcess; output: () => string } {
  children.push(child);
  return captured(child);
}

describe('workers and the API URL (PostgreSQL: separate processes)', () => {
  it('a worker without SWITCHBOARD_PUBLIC_URL links to the port the API process really bound', { timeout: 180_000 }, async () => {
    t = await freshDb();
    const w = await seedWorld(t.db);
    const api = await startServer({ DATABASE_URL: t.url! }); // PORT=0
    servers.push(api);
    expect(api.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(api.baseUrl).not.toMatch(/:0$/);
    const rows = await t.db.query<{ url: string }>('select url from api_urls');
    expect(rows.map((r) => r.url)).toEqual([api.baseUrl]);

    // A development worker (outbox transport): no listener, and its own PORT would say 8080.
    const worker = track(runCli(['worker'], { DATABASE_URL: t.url!, SWITCHBOARD_POLL_MS: '100' }));
    const auto = await insertAutomation(t.db, w.acme, w.site, [{ id: 'e1', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }]);
    const run = await enroll(t.db, w.acme, auto, w.contacts.ann);
    await untilReady(worker.child, async () => (await outbox(t!.db, run)).length === 1, { what: 'the worker to send the email', output: worker.output });
    const [mail] = await outbox(t.db, run);
    expect(mail.body).toContain(`unsubscribe: ${api.baseUrl}/unsubscribe/`);
    worker.child.kill('SIGTERM');
    expect(await exited(worker.child)).toBe(0);

    // A clean stop removes the API's row: links must not point at a process that is gone.
    expect(await api.stop()).toBe(0);
    expect(await t.db.query('select url from api_urls')).toEqual([]);
  });

  it('a worker with SMTP and no SWITCHBOARD_PUBLIC_URL refuses to start, naming the variable', { timeout: 60_000 }, async () => {
    t ??= await freshDb();
    const smtp = { DATABASE_URL: t.url!, SWITCHBOARD_EMAIL_TRANSPORT: 'smtp', SWITCHBOARD_SMTP_URL: 'smtp://127.0.0.1:1' };
    const refused = track(runCli(['worker'], smtp));
    expect(await exited(refused.child)).toBe(1);
    expect(refused.output()).toMatch(/error: a worker that sends email over SMTP needs SWITCHBOARD_PUBLIC_URL/);
    // With it, the same worker starts.
    const ok = track(runCli(['worker'], { ...smtp, SWITCHBOARD_PUBLIC_URL: 'https://hub.example.com' }));
    await untilReady(ok.child, () => /worker running/.test(ok.output()), { what: 'the worker to start', output: ok.output });
    expect(ok.output()).toMatch(/switchboard worker running/);
    ok.child.kill('SIGTERM');
    expect(await exited(ok.child)).toBe(0);
  });
});
