// Usage and Content in a real browser: an account with billed usage today (a workflow run through
// /v1 whose agent block bills LLM tokens) opens Usage and sees the chart (a canvas) with today's
// spend in its text alternative; opens Content, writes a page in Markdown, sees the sanitised
// preview in the sandboxed iframe, creates it and sees the item; then the work-management
// screens. Every screen: a screenshot and axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dollars } from '../../web/src/lib/money.js';
import { openHub, type Hub, type SeedOutput } from './harness.js';

const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };

let hub: Hub;
let seeded: SeedOutput['accounts'][string];

async function v1(path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(`${hub.baseUrl}/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${seeded.keys.runner}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

beforeAll(async () => {
  hub = await openHub('usage');
  const out = await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        credit_micros: 50_000_000,
        users: [{ ref: 'olivia', email: OWNER.email, role: 'owner', password: OWNER.password, name: 'Olivia Owner' }],
        keys: [{ ref: 'runner', name: 'Runner', scopes: ['workflows:read', 'workflows:run'], monthly_spend_cap_micros: 5_000_000 }],
        projects: [
          { ref: 'site', name: 'Website', description: 'Marketing site', workmgmt_prefix: 'WEB', items: [{ ref: 'about', kind: 'page', title: 'About us', text: '# About us' }] },
        ],
        workmgmt: {
          site: {
            sprints: [{ ref: 's1', name: 'Sprint 1', state: 'active' }],
            items: [
              { key: 'WEB-1', type: 'story', title: 'Pricing page', status: 'done', sprint: 's1', points: 3 },
              { key: 'WEB-2', type: 'bug', title: 'Checkout fails', sprint: 's1', points: 2 },
            ],
          },
        },
        workflows: [
          {
            ref: 'digest',
            name: 'Digest',
            status: 'active',
            blocks: [
              { id: 'src', kind: 'source.text', config: { text: 'Shipped the pricing page. Fixed checkout.' } },
              { id: 'write', kind: 'agent', config: { prompt: 'Write a short digest from: {{src}}', max_tokens: 200 } },
            ],
            edges: [{ from: 'src', to: 'write' }],
          },
        ],
      },
    ],
  });
  seeded = out.accounts.acme;
  await hub.signIn(OWNER.email, OWNER.password);
}, 180_000);
afterAll(() => hub?.close());

describe('usage and content', { timeout: 180_000 }, () => {
  it("shows today's spend on the usage chart, then creates a page with a preview", async () => {
    // Billed usage today: a run whose agent block bills tokens.
    const started = await v1(`/workflows/${seeded.workflows.digest}/runs`, { method: 'POST', body: '{}', headers: { 'idempotency-key': 'usage-flow-1' } });
    let run = started;
    for (let i = 0; i < 300 && !['succeeded', 'failed', 'cancelled'].includes(run.status); i++) {
      await new Promise((r) => setTimeout(r, 200));
      run = await v1(`/runs/${started.id}`);
    }
    expect(run.status).toBe('succeeded');
    expect(run.billed_micros).toBeGreaterThan(0);

    const { page } = hub;
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(`${hub.baseUrl}/usage`);
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    const chart = page.locator('figure.usage-chart');
    await chart.locator('canvas').waitFor();
    expect(await chart.getAttribute('aria-label')).toContain(`today (${today}) ${dollars(run.billed_micros)}`);
    expect(await page.getByTestId('usage-total').textContent()).toBe(dollars(run.billed_micros));
    // The days table lists today's amount; the key's spend shows against its cap (an owner sees keys).
    await page.getByText('Spend by day (table)').click();
    expect(await page.locator(`tr[data-date="${today}"] td`).nth(1).textContent()).toBe(dollars(run.billed_micros));
    const keyRow = page.getByRole('row').filter({ hasText: 'Runner' });
    expect(await keyRow.textContent()).toContain(dollars(run.billed_micros));
    expect(await keyRow.textContent()).toContain(dollars(5_000_000));
    expect(await page.getByRole('cell', { name: 'AI tokens' }).count()).toBe(1);
    expect(await page.locator('main').innerText()).not.toMatch(/llm\.tokens|\$\d+\.\d{3}/);
    expect(await hub.visit('usage')).toEqual([]);

    // Content: the project, then a new page from Markdown with its sanitised preview.
    await page.getByRole('link', { name: 'Content', exact: true }).click();
    await page.getByRole('heading', { name: 'Content', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Website' }).waitFor();
    expect(await hub.visit('content')).toEqual([]);
    await page.getByRole('link', { name: 'Website' }).click();
    await page.getByRole('link', { name: 'About us' }).waitFor();
    expect(await hub.visit('content-project')).toEqual([]);
    await page.getByRole('link', { name: 'New page' }).click();
    await page.getByRole('heading', { name: 'New page', level: 1 }).waitFor();
    await page.getByLabel('Title').fill('Release notes');
    await page.getByLabel('Markdown').fill('# Release notes\n\n- Faster **search**\n\n<script>alert(1)</script>');
    const frame = page.locator('iframe[title="Preview of the page"]');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('');
    const srcdoc = await frame.getAttribute('srcdoc');
    expect(srcdoc).toContain('<h1>Release notes</h1>');
    expect(srcdoc).toContain('<strong>search</strong>');
    expect(srcdoc).not.toContain('<script');
    await expect.poll(() => frame.contentFrame().locator('h1').textContent()).toBe('Release notes');
    expect(await hub.visit('content-new-page')).toEqual([]);
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.getByRole('heading', { name: 'Release notes', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/items\/[0-9a-f-]{36}$/);
    const shown = page.locator('iframe[title="The page Release notes"]');
    expect(await shown.getAttribute('sandbox')).toBe('');
    await expect.poll(() => shown.contentFrame().locator('strong').textContent()).toBe('search');
    expect(await hub.visit('content-item')).toEqual([]);
    // The item survives a reload (its own URL), and is listed in its project.
    await page.reload();
    await page.getByRole('heading', { name: 'Release notes', level: 1 }).waitFor();
    await page.getByRole('link', { name: '← Project' }).click();
    await page.getByRole('link', { name: 'Release notes' }).waitFor();

    // Work management: projects, then the project's items and sprints with totals.
    await page.getByRole('link', { name: 'Work management' }).click();
    await page.getByRole('link', { name: 'Website' }).waitFor();
    expect(await hub.visit('work')).toEqual([]);
    await page.getByRole('link', { name: 'Website' }).click();
    await page.getByRole('cell', { name: 'WEB-2' }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'Sprint 1' }).textContent()).toContain('1 of 2');
    await page.getByLabel('Status').selectOption('done');
    await expect.poll(() => page.getByRole('cell', { name: 'WEB-2' }).count()).toBe(0);
    expect(page.url()).toContain('status=done');
    expect(await hub.visit('work-project')).toEqual([]);
  });
});
