// Screenshots of every list screen of the hub, for comparing a change's before and after on the
// same data (issue 24): `npx tsx scripts/list-screens.ts <out-dir>` (build the hub first:
// `npx vite build web`). It starts a real `switchboard serve` on a fresh PGlite data dir (loopback
// only), seeds one fixed data set in which every paged list has more than one page, signs in as
// the owner and saves <out-dir>/<screen>-{laptop,phone}.png for each screen. Then it clicks "Next
// page" on Runs and records in <out-dir>/next-page.txt whether a table was on screen just after
// the click and during the load (screenshots next-page-*.png). The next page's answer is held
// back NEXT_PAGE_DELAY_MS, so the load lasts long enough to be seen on a fast loopback server.
// The data is fixed; times on screen are the real clock's (the server has no fixed clock).
// Not through test/browser/harness.ts (it reads vitest's inject(), which works only inside a
// vitest run): through the pieces of it that need no vitest.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, untilSettled } from '../test/browser/chromium.js';
import { cliResult, startServer } from '../test/helpers/process.js';

const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };
const N = 30; // more than the hub's page of 25 rows
const MANUAL_RUNS = 52; // the audit log's page is 50 rows; each manual start is one entry
const NEXT_PAGE_DELAY_MS = 400;
const VIEWPORTS = { laptop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const pad = (i: number) => String(i).padStart(2, '0');

function fixture() {
  const prefixes = range(N).map((i) => `P${pad(i)}`);
  return {
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        tier: 'team',
        credit_micros: 50_000_000,
        limits: { requests_per_minute: 100_000, run_starts_per_minute: 10_000, concurrent_runs: 1_000 },
        users: [
          { ref: 'olivia', email: OWNER.email, role: 'owner', password: OWNER.password, name: 'Olivia Owner' },
          ...range(N).map((i) => ({ ref: `u${i}`, email: `user${pad(i)}@acme.example`, role: i % 5 === 0 ? 'admin' : 'member', password: i % 3 === 0 ? null : `a long passphrase ${i}`, name: `User ${pad(i)}` })),
        ],
        keys: range(N).map((i) => ({
          ref: `k${i}`,
          name: `Key ${pad(i)}`,
          scopes: ['workflows:read', 'workflows:run', 'usage:read'],
          // At most 10 active keys: the rest are revoked; room is left for the three made in the hub.
          revoked: i > 6,
          expires_at: i % 4 === 0 ? '2027-06-30T00:00:00Z' : null,
          monthly_spend_cap_micros: i % 2 === 0 ? 5_000_000 : null,
        })),
        projects: [
          {
            ref: 'site',
            name: 'Website',
            description: 'Marketing site',
            workmgmt_prefix: 'WEB',
            items: range(N).map((i) => ({ ref: `item${i}`, kind: 'page', title: `Page ${pad(i)}`, text: `# Page ${i}\n\nFixed text.` })),
          },
          ...range(N).map((i) => ({ ref: `p${i}`, name: `Project ${pad(i)}`, description: `Project number ${i}`, workmgmt_prefix: prefixes[i - 1] })),
        ],
        workflows: [
          {
            ref: 'note',
            name: 'Release note',
            status: 'active',
            project: 'site',
            blocks: [
              { id: 'src', kind: 'source.text', config: { text: 'Shipped the pricing page.' } },
              { id: 'out', kind: 'transform.template', config: { template: 'Note: {{src}}' } },
            ],
            edges: [{ from: 'src', to: 'out' }],
          },
          {
            ref: 'digest',
            name: 'Weekly digest',
            status: 'active',
            project: 'site',
            blocks: [
              { id: 'src', kind: 'source.text', config: { text: 'Shipped the pricing page. Fixed checkout.' } },
              { id: 'write', kind: 'agent', config: { prompt: 'Write a short weekly digest from: {{src}}', max_tokens: 60 } },
            ],
            edges: [{ from: 'src', to: 'write' }],
          },
          ...range(N).map((i) => ({ ref: `wf${i}`, name: `Workflow ${pad(i)}`, status: i % 2 ? 'draft' : 'active', blocks: [], edges: [] })),
        ],
        automations: [
          {
            ref: 'welcome',
            name: 'Welcome series',
            project: 'site',
            status: 'published',
            trigger: { type: 'contact.created', label: 'Contact is created', config: {} },
            steps: [
              { id: 'e1', name: 'Welcome email', type: 'email.send', config: { subject: 'Welcome, {{first_name}}', body: 'Hi {{first_name}}.' } },
              { id: 'w1', name: 'Wait a day', type: 'wait', config: { duration: 'P1D' } },
            ],
          },
          {
            ref: 'tips',
            name: 'Tips',
            project: 'site',
            status: 'published',
            trigger: { type: 'contact.created', label: 'Contact is created', config: {} },
            steps: [{ id: 'e1', name: 'Tips email', type: 'email.send', config: { subject: 'Tips', body: 'Some tips.' } }],
          },
          ...range(N).map((i) => ({ ref: `a${i}`, name: `Automation ${pad(i)}`, project: 'site', trigger: { type: 'manual', label: 'Enrolled by hand', config: {} }, steps: [] })),
        ],
        contacts: range(N).map((i) => ({
          ref: `c${i}`,
          email: `contact${pad(i)}@example.org`,
          first_name: `Contact${pad(i)}`,
          last_name: 'Example',
          lifecycle_stage: ['lead', 'subscriber', 'customer'][i % 3],
          tags: i % 2 ? ['newsletter'] : [],
        })),
        workmgmt: {
          site: {
            sprints: range(N).map((i) => ({
              ref: `s${i}`,
              name: `Sprint ${pad(i)}`,
              state: i === N ? 'active' : 'finished',
              start_date: `2026-${pad(1 + Math.floor((i - 1) / 3))}-0${1 + ((i - 1) % 3) * 3}`,
              end_date: `2026-${pad(1 + Math.floor((i - 1) / 3))}-${pad(2 + ((i - 1) % 3) * 3)}`,
            })),
            items: range(N).map((i) => ({ key: `WEB-${i}`, type: i === 1 ? 'epic' : 'story', title: `Work item ${pad(i)}`, status: ['todo', 'in_progress', 'done'][i % 3], sprint: `s${1 + (i % N)}` })),
          },
        },
      },
    ],
  };
}

async function until(what: string, check: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main(): Promise<void> {
  const out = path.resolve(process.argv[2] ?? '');
  if (!process.argv[2]) throw new Error('usage: npx tsx scripts/list-screens.ts <out-dir>');
  fs.mkdirSync(out, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-shots-'));
  const env = { SWITCHBOARD_DATA_DIR: dataDir };
  const server = await startServer({ ...env, SWITCHBOARD_POLL_MS: '100' }, 'all');
  const base = server.baseUrl;
  console.log(`serve: ${base}`);
  const browser = await launchChromium();
  console.log('chromium started');
  try {
    const file = path.join(dataDir, '..', `sb-shots-fixture-${process.pid}.json`);
    fs.writeFileSync(file, JSON.stringify(fixture()));
    const seeded = await cliResult(['seed', file, '--json', '--fire-triggers'], env);
    fs.rmSync(file, { force: true });
    if (seeded.code !== 0) throw new Error(`seed failed (${seeded.code}): ${seeded.stderr}`);
    console.log('seeded');
    const acme = (JSON.parse(seeded.stdout) as { accounts: Record<string, any> }).accounts.acme;

    const context = await browser.newContext({ viewport: VIEWPORTS.laptop });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    const signIn = await page.request.post(`${base}/hub/api/session`, { data: OWNER, headers: { origin: base } });
    if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()} ${await signIn.text()}`);
    const csrf = ((await signIn.json()) as { csrf_token: string }).csrf_token;
    const hubPost = async (p: string, data: unknown) => {
      const res = await page.request.post(`${base}/hub/api${p}`, { data, headers: { origin: base, 'x-csrf-token': csrf } });
      if (!res.ok()) throw new Error(`POST ${p}: ${res.status()} ${await res.text()}`);
      return res.json() as Promise<any>;
    };
    const hubGet = async (p: string) => (await page.request.get(`${base}/hub/api${p}`)).json() as Promise<any>;

    // Runs (and the audit log's run.started entries), one at a time so their order is fixed.
    for (const i of range(MANUAL_RUNS)) await hubPost(`/workflows/${i % 4 === 0 ? acme.workflows.digest : acme.workflows.note}/runs`, {});
    console.log('manual runs started');
    // Usage by key: runs started through /v1 with a key.
    for (const i of range(4)) {
      const res = await fetch(`${base}/v1/workflows/${acme.workflows.digest}/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${acme.keys[`k${i}`]}`, 'idempotency-key': `list-screens-${i}`, 'content-type': 'application/json' },
        body: '{}',
      });
      if (res.status !== 202) throw new Error(`/v1 run start: ${res.status} ${await res.text()}`);
    }
    // Key moves for the audit log.
    for (const i of range(3)) await hubPost('/keys', { name: `Hub key ${i}`, scopes: ['usage:read'] });
    await until('every run to finish', async () => {
      const runs = (await hubGet('/runs?limit=100')).data as { status: string }[];
      return runs.length >= MANUAL_RUNS + 4 && runs.every((r) => r.status !== 'queued' && r.status !== 'running');
    });
    await until('every welcome and tips email to be sent', async () => {
      const all: { status: string }[] = [];
      let cursor: string | null = null;
      do {
        const pageOf: any = await hubGet(`/messages?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        all.push(...pageOf.data);
        cursor = pageOf.next_cursor;
      } while (cursor);
      return all.length >= 2 * N && all.every((m) => m.status !== 'queued' && m.status !== 'sending');
    });

    console.log('runs finished, messages sent');
    const [latest] = (await hubGet(`/runs?workflow_id=${acme.workflows.note}&limit=1`)).data as { id: string }[];
    if (!latest) throw new Error('the note workflow has no run');
    const firstRun = latest.id;
    const screens: [string, string][] = [
      ['runs', '/runs'],
      ['run', `/runs/${firstRun}`],
      ['workflows', '/workflows'],
      ['workflow', `/workflows/${acme.workflows.note}`],
      ['automations', '/automations'],
      ['automation', `/automations/${acme.automations.welcome}`],
      ['contacts', '/contacts'],
      ['contact', `/contacts/${acme.contacts.c1}`],
      ['messages', '/messages'],
      ['content', '/content'],
      ['content-project', `/content/${acme.projects.site}`],
      ['work', '/work'],
      ['work-project', `/work/${acme.projects.site}`],
      ['keys', '/keys'],
      ['users', '/users'],
      ['audit', '/audit'],
      ['usage', '/usage'],
      ['settings', '/settings'],
    ];
    for (const [vp, size] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(size);
      for (const [name, url] of screens) {
        await page.goto(`${base}${url}`);
        await untilSettled(page, name);
        await page.screenshot({ path: path.join(out, `${name}-${vp}.png`), fullPage: true });
        console.log(`${name}-${vp}.png`);
      }
    }

    await page.setViewportSize(VIEWPORTS.laptop);
    fs.writeFileSync(path.join(out, 'next-page.txt'), await nextPage(page, base, out));
    await context.close();
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Clicks "Next page" on Runs and notes whether a table was on screen at each moment of the load. */
async function nextPage(page: Page, base: string, outDir: string): Promise<string> {
  await page.route(/\/hub\/api\/runs\?.*cursor=/, async (route) => {
    await new Promise((r) => setTimeout(r, NEXT_PAGE_DELAY_MS));
    await route.continue();
  });
  await page.goto(`${base}/runs`);
  await untilSettled(page, 'runs');
  const tableShown = () => page.evaluate(`(() => { const t = document.querySelector('main table'); return !!t && t.getBoundingClientRect().height > 0; })()`) as Promise<boolean>;
  const rowsShown = () => page.evaluate(`document.querySelectorAll('main table tbody tr').length`) as Promise<number>;
  const lines = [`Runs, "Next page" (the next page's answer held back ${NEXT_PAGE_DELAY_MS} ms; times from the click's dispatch; each check is followed by its screenshot, so later checks come late):`, `before the click: table ${(await tableShown()) ? 'visible' : 'NOT visible'}, ${await rowsShown()} rows`];
  await page.getByRole('button', { name: 'Next page' }).first().click();
  const clicked = Date.now(); // once the click has been dispatched
  for (const [label, at] of [['immediately', 0], ['50ms', 50], ['150ms', 150], ['300ms', 300]] as const) {
    const wait = clicked + at - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t = Date.now() - clicked;
    const shown = await tableShown();
    const rows = await rowsShown();
    await page.screenshot({ path: path.join(outDir, `next-page-${label}.png`) });
    lines.push(`${label} (checked at ${t} ms): table ${shown ? 'visible' : 'NOT visible'}, ${rows} rows`);
  }
  await untilSettled(page, 'runs page 2');
  await page.screenshot({ path: path.join(outDir, 'next-page-loaded.png') });
  lines.push(`loaded: table ${(await tableShown()) ? 'visible' : 'NOT visible'}, ${await rowsShown()} rows, ${await page.locator('.pager span').first().innerText()}`);
  return lines.join('\n') + '\n';
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
