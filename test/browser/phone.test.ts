// Every screen of the hub at a phone's width (390 px): no sideways scroll of the page, axe clean,
// and the folded menu opens, names its state and closes on the next screen. The walk covers
// every route in web/src/routes.tsx: a new screen without an address here fails the first test,
// so it cannot be left out of the phone check.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { openHub, SHOTS, type Hub, type SeedOutput } from './harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PHONE = { width: 390, height: 844 };
const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };

let hub: Hub;
let ids: SeedOutput['accounts'][string];
let runId: string;
let itemId: string;
let automationRunId: string;
let messageId: string;

/** The hub's screen paths, read from the route table itself (web/src/routes.tsx). */
function screenPaths(): string[] {
  const source = fs.readFileSync(path.join(ROOT, 'web/src/routes.tsx'), 'utf8');
  return [...source.matchAll(/\{ path: '([^']+)'/g)].map((m) => m[1]);
}

/** The address the walk opens for a screen path, its ids from the seeded account. */
function addressOf(screen: string): string | undefined {
  const byPath: Record<string, string> = {
    'runs/:id': `runs/${runId}`,
    'workflows/:id': `workflows/${ids.workflows.digest}`,
    'workflows/:id/build': `workflows/${ids.workflows.digest}/build`,
    'contacts/:id': `contacts/${ids.contacts.kim}`,
    'automations/:id': `automations/${ids.automations.welcome}`,
    'automations/:id/build': `automations/${ids.automations.welcome}/build`,
    'content/:projectId': `content/${ids.projects.site}`,
    'content/:projectId/new': `content/${ids.projects.site}/new`,
    'items/:id': `items/${itemId}`,
    'automation-runs/:id': `automation-runs/${automationRunId}`,
    'messages/:id': `messages/${messageId}`,
    'work/:projectId': `work/${ids.projects.site}`,
    'work/:projectId/new': `work/${ids.projects.site}/new`,
    'work/:projectId/items/:itemKey': `work/${ids.projects.site}/items/WEB-1`,
  };
  return screen.includes(':') ? byPath[screen] : screen;
}

async function v1<T>(method: string, url: string, headers: Record<string, string> = {}, body?: unknown): Promise<T> {
  const res = await fetch(`${hub.baseUrl}/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${ids.keys.script}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  hub = await openHub('phone');
  const out = await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        credit_micros: 50_000_000,
        users: [{ ref: 'olivia', email: OWNER.email, role: 'owner', name: 'Olivia Owner', password: OWNER.password }],
        keys: [{ ref: 'script', name: 'Phone walk', scopes: ['workflows:read', 'workflows:run', 'content:read', 'contacts:write', 'automations:read'] }],
        projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB', items: [{ ref: 'about', kind: 'page', title: 'About us', text: '# About us\n\nWe make things.' }] }],
        workmgmt: { site: { items: [{ key: 'WEB-1', type: 'task', title: 'Write the pricing page', labels: ['site'] }] } },
        workflows: [
          {
            ref: 'digest',
            name: 'Weekly digest',
            status: 'active',
            project: 'site',
            blocks: [
              { id: 'notes', kind: 'source.text', config: { text: 'We shipped the pricing page.' } },
              { id: 'summary', kind: 'agent', config: { prompt: 'Summarise: {{notes}}', max_tokens: 60 } },
            ],
            edges: [{ from: 'notes', to: 'summary' }],
          },
        ],
        automations: [
          {
            ref: 'welcome',
            name: 'Welcome series',
            project: 'site',
            status: 'published',
            trigger: { type: 'contact.created', label: 'A contact is created', config: {} },
            steps: [{ id: 'hello', name: 'Say hello', type: 'email.send', config: { subject: 'Welcome', body: 'Hello {{first_name}}' } }],
          },
        ],
        contacts: [{ ref: 'kim', email: 'kim@example.org', first_name: 'Kim', lifecycle_stage: 'customer' }],
      },
    ],
  });
  ids = out.accounts.acme!;
  const started = await v1<{ id: string }>('POST', `/workflows/${ids.workflows.digest}/runs`, { 'idempotency-key': 'phone-walk-run-1' });
  runId = started.id;
  const items = await v1<{ data: { id: string }[] }>('GET', `/projects/${ids.projects.site}/items`);
  itemId = items.data[0].id;
  // A contact made through /v1 starts the welcome automation: a journey and its email to open.
  await v1('POST', '/contacts', {}, { email: 'ann@example.org', first_name: 'Ann' });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const runs = await v1<{ data: { id: string }[] }>('GET', `/automations/${ids.automations.welcome}/runs`);
    if (runs.data[0]) {
      automationRunId = runs.data[0].id;
      break;
    }
    if (Date.now() > deadline) throw new Error('the welcome automation did not start for the new contact');
    await new Promise((r) => setTimeout(r, 100));
  }
  await hub.signIn(OWNER.email, OWNER.password);
  for (;;) {
    const res = await hub.page.request.get(`${hub.baseUrl}/hub/api/messages`);
    const first = ((await res.json()) as { data: { id: string }[] }).data[0];
    if (first) {
      messageId = first.id;
      break;
    }
    if (Date.now() > deadline) throw new Error('the welcome email was not queued');
    await new Promise((r) => setTimeout(r, 100));
  }
  await hub.page.setViewportSize(PHONE);
}, 180_000);
afterAll(async () => {
  await hub?.close();
});

beforeEach(() => {
  onTestFailed(async () => {
    await hub.page.screenshot({ path: path.join(SHOTS, 'phone', 'failed.png'), fullPage: true }).catch(() => {});
  });
});

describe('the hub at 390 px', { timeout: 600_000 }, () => {
  it('every screen fits the width and is axe clean', async () => {
    const screens = screenPaths();
    expect(screens.length).toBeGreaterThan(20);
    const missing = screens.filter((s) => !addressOf(s));
    expect(missing, 'screens the phone walk has no address for').toEqual([]);
    // Every screen is walked before anything is asserted, so one run names every screen at fault.
    const wide: string[] = [];
    const axe: string[] = [];
    for (const screen of screens) {
      await hub.page.goto(`${hub.baseUrl}/${addressOf(screen)}`);
      await hub.page.locator('main h1').first().waitFor();
      const violations = await hub.visit(screen.replaceAll('/', '_').replaceAll(':', ''));
      for (const v of violations) axe.push(`${screen}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      const width = await hub.page.evaluate(() => document.documentElement.scrollWidth);
      if (width > PHONE.width) wide.push(`${screen} (${width} px)`);
    }
    expect(axe, 'serious or critical axe violations').toEqual([]);
    expect(wide, 'screens wider than the phone').toEqual([]);
  });

  it('the menu is folded behind a button that says whether it is open, and closes on the next screen', async () => {
    const { page } = hub;
    await page.goto(`${hub.baseUrl}/runs`);
    const toggle = page.getByRole('button', { name: 'Menu' });
    const contacts = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await contacts.waitFor({ state: 'hidden' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await contacts.waitFor();
    await contacts.click();
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await contacts.waitFor({ state: 'hidden' });
  });

  it('a list stacks its rows into labelled cards', async () => {
    const { page } = hub;
    await page.goto(`${hub.baseUrl}/contacts`);
    const row = page.getByRole('row').filter({ hasText: 'kim@example.org' });
    await row.waitFor();
    const labelled = await row.locator('td[data-label]').count();
    expect(labelled).toBeGreaterThan(1);
    // The column headers leave the screen (the cards carry their labels) but stay for screen readers.
    const head = page.locator('main table thead').first();
    expect(await head.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
    expect(await page.getByRole('columnheader', { name: 'Email' }).count()).toBe(1);
  });

  it('the workflow builder shows the workflow read-only with a note instead of a squeezed canvas, and the builder on a wide screen', async () => {
    const { page } = hub;
    await page.goto(`${hub.baseUrl}/workflows/${ids.workflows.digest}/build`);
    await page.getByText('Changing a workflow needs a wider screen').waitFor();
    const blocks = page.getByRole('list').filter({ hasText: 'Write with AI' });
    expect(await blocks.getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining('Start with text'), expect.stringContaining('Write with AI')]);
    expect(await page.locator('.react-flow').count()).toBe(0);
    // Turned sideways (or a wider window): the builder itself, without a reload.
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.locator('.react-flow').first().waitFor();
    expect(await page.getByText('Changing a workflow needs a wider screen').count()).toBe(0);
    // Narrowed again while it is open, the builder stays (what is being edited is not dropped);
    // the next visit on a phone gets the read-only view.
    await page.setViewportSize(PHONE);
    expect(await page.locator('.react-flow').count()).toBe(1);
    expect(await page.getByText('Changing a workflow needs a wider screen').count()).toBe(0);
    await page.reload();
    await page.getByText('Changing a workflow needs a wider screen').waitFor();
  });
});
