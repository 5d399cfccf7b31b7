// `npm run bench:enroll`: POST /v1/automations/{id}/enrollments with 500 contacts per request,
// p50/p99 over a bounded number of requests, on PGlite and on PostgreSQL. Each request enrolls
// 500 fresh contacts (so every one really inserts 500 runs). In-process (app.inject): this
// measures the endpoint's own cost, not HTTP.
import { randomBytes } from 'node:crypto';
import { configWith } from '../src/config.js';
import type { Db } from '../src/db/db.js';
import { seedFixture } from '../src/fixtures/load.js';
import { createApp } from '../src/server.js';
import { benchEntry, onEachStore } from './stores.js';

const REQUESTS = Number(process.env.BENCH_ENROLL_REQUESTS ?? 30);
const BATCH = 500;

async function measure(db: Db, store: string): Promise<string> {
  const contacts = Array.from({ length: REQUESTS * BATCH }, (_, i) => ({ ref: `c${i}`, email: `c${i}@bench.example` }));
  const seeded = await seedFixture(
    db,
    {
      accounts: [
        {
          ref: 'a',
          name: 'Enroll bench',
          tier: 'enterprise',
          users: [{ ref: 'o', email: 'o@bench.example', role: 'owner' }],
          keys: [{ ref: 'k', name: 'bench', scopes: ['automations:enroll'] }],
          projects: [{ ref: 'p', name: 'P' }],
          automations: [
            {
              ref: 'welcome',
              name: 'Welcome',
              project: 'p',
              status: 'published',
              trigger: { type: 'manual', label: 'Enrolled by hand' },
              steps: [{ id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Hi', body: 'Hello {{first_name}}' } }],
            },
          ],
          contacts,
        },
      ],
    },
    { erasureSecret: randomBytes(16) },
  );
  const a = seeded.accounts.a;
  const ids = Object.values(a.contacts);
  // No engine runs here: the runs stay queued, so only the endpoint is measured.
  const app = await createApp(configWith({ rateLimitStore: 'memory' }), db);
  const times: number[] = [];
  try {
    for (let i = 0; i < REQUESTS; i++) {
      const body = JSON.stringify({ contact_ids: ids.slice(i * BATCH, (i + 1) * BATCH) });
      const t0 = performance.now();
      const r = await app.inject({
        method: 'POST',
        url: `/v1/automations/${a.automations.welcome}/enrollments`,
        headers: { authorization: `Bearer ${a.keys.k}`, 'idempotency-key': `bench-enroll-${i}`, 'content-type': 'application/json' },
        payload: body,
      });
      times.push(performance.now() - t0);
      if (r.statusCode !== 200 || r.json().enrolled !== BATCH) throw new Error(`enrollment ${i} answered ${r.statusCode}: ${r.body.slice(0, 200)}`);
    }
  } finally {
    await app.close();
  }
  times.sort((x, y) => x - y);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  return `${store.padEnd(9)} ${REQUESTS} requests × ${BATCH} contacts: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${times.at(-1)!.toFixed(1)} ms`;
}

async function main(): Promise<void> {
  console.log((await onEachStore('enroll', (db, store) => measure(db, store))).join('\n'));
}

benchEntry(import.meta.url, 'bench:enroll', 600_000, main);
