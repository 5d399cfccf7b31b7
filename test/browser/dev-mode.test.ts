// Saying what is real, in the browser, on a server with the default development providers (the
// local AI, the outbox transports): a signed-out load of /sign-in logs no console error and no
// failed request; the development banner on every signed-in screen (hidden for the session at
// most), its link to Settings → Providers, the "Development AI" label on an AI block's output and
// "Kept in the outbox: not delivered" on a message. Axe at 1280 and 390 px on each screen.
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import type { Page } from 'playwright-core';
import { openHub, SHOTS, type Hub, type SeedOutput } from './harness.js';

const PASSWORD = 'a long owner passphrase';
const BANNER = 'Development mode: the AI echoes its input and emails and texts stay in the outbox — nothing reaches real people.';

let hub: Hub;
let ids: SeedOutput['accounts'][string];

beforeAll(async () => {
  hub = await openHub('dev-mode');
  const out = await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        credit_micros: 50_000_000,
        users: [{ ref: 'olivia', email: 'olivia@acme.example', role: 'owner', name: 'Olivia Owner', password: PASSWORD }],
        keys: [{ ref: 'crm', name: 'CRM sync', scopes: ['automations:read', 'automations:enroll'] }],
        projects: [{ ref: 'site', name: 'Website' }],
        workflows: [
          {
            ref: 'digest',
            name: 'Weekly digest',
            status: 'active',
            blocks: [
              { id: 'notes', kind: 'source.text', config: { text: 'We shipped the pricing page. We fixed checkout.' } },
              { id: 'summary', kind: 'agent', config: { prompt: 'Summarise: {{notes}}', max_tokens: 60 } },
            ],
            edges: [{ from: 'notes', to: 'summary' }],
          },
        ],
        automations: [
          {
            ref: 'welcome',
            name: 'Welcome',
            project: 'site',
            status: 'published',
            trigger: { type: 'contact.created', label: 'Contact is created', config: {} },
            reenroll: 'never',
            steps: [{ id: 'e1', name: 'Welcome email', type: 'email.send', config: { subject: 'Welcome, {{first_name}}', body: 'Hi {{first_name}}.' } }],
          },
        ],
        contacts: [{ ref: 'ann', email: 'ann@example.org', first_name: 'Ann', last_name: 'Lee' }],
      },
    ],
  });
  ids = out.accounts.acme;
}, 180_000);
afterAll(async () => {
  await hub?.close();
});

beforeEach(() => {
  onTestFailed(async () => {
    await hub.page.screenshot({ path: path.join(SHOTS, 'dev-mode', 'failed.png'), fullPage: true }).catch(() => {});
    console.error(`page at failure: ${hub.page.url()}\n${await hub.page.locator('body').innerText().catch(() => '')}`);
  });
});

/** Axe at 1280 px, then at 390 px with no sideways scroll inside the banner or the card named; back to 1280. */
async function bothWidths(page: Page, name: string, within: string): Promise<void> {
  expect(await hub.visit(name)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await hub.visit(`${name}-390`)).toEqual([]);
  const overflow = await page.evaluate<number[]>(`[...document.querySelectorAll(${JSON.stringify(within)})].map((e) => e.scrollWidth - e.clientWidth)`);
  expect(overflow.length, within).toBeGreaterThan(0);
  expect(Math.max(...overflow), `${within} scrolls sideways at 390 px`).toBe(0);
  await page.setViewportSize({ width: 1280, height: 860 });
}

describe('what is real', { timeout: 240_000 }, () => {
  it('a signed-out load of /sign-in logs no console error and no failed request', async () => {
    const { page, baseUrl } = hub;
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`); });
    await page.goto(`${baseUrl}/sign-in`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await hub.visit('sign-in-signed-out')).toEqual([]);
    expect(problems).toEqual([]);
    // The banner is for signed-in screens only.
    expect(await page.getByText('Development mode').count()).toBe(0);
  });

  it('every signed-in screen says the providers are development stand-ins, with a link to how to make them real', async () => {
    const { page, baseUrl } = hub;
    await hub.signIn('olivia@acme.example', PASSWORD);
    await page.goto(`${baseUrl}/runs`);
    const banner = page.getByRole('status').filter({ hasText: 'Development mode' });
    await banner.waitFor();
    await expect(banner.locator('strong').textContent()).resolves.toBe(BANNER);
    await bothWidths(page, 'runs-banner', '.dev-banner');
    // Little room at 390 px: a few lines, not half the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    expect((await banner.boundingBox())!.height).toBeLessThan(140);
    await page.setViewportSize({ width: 1280, height: 860 });

    await banner.getByRole('link', { name: 'How to make it real' }).click();
    await page.waitForURL(/\/settings#providers$/);
    const card = page.getByRole('region', { name: 'Providers' });
    await card.waitFor();
    for (const name of ['SWITCHBOARD_LLM_PROVIDER=openai-compatible', 'SWITCHBOARD_EMAIL_TRANSPORT=smtp', 'SWITCHBOARD_SMTP_URL', 'SWITCHBOARD_SMS_TRANSPORT=http', 'SWITCHBOARD_SMS_WEBHOOK_URL']) {
      await expect(card.getByText(name, { exact: true }).count(), name).resolves.toBe(1);
    }
    await card.getByText('Development stand-in (local): it echoes').waitFor();
    await bothWidths(page, 'settings-providers', '.settings-providers');
  });

  it('labels an AI block\'s output made by the development AI', async () => {
    const { page, baseUrl } = hub;
    await page.goto(`${baseUrl}/workflows/${ids.workflows.digest}`);
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    await page.locator('.page-head .badge', { hasText: 'succeeded' }).waitFor({ timeout: 60_000 });
    // One label, on the agent block's step (not on the text source).
    const labels = page.locator('.runs-timeline li').filter({ hasText: 'Development AI' });
    await expect(labels.count()).resolves.toBe(1);
    await expect(labels.locator('h3').textContent()).resolves.toContain('summary');
    await labels.getByText('echoes its input, nothing is billed by a model').waitFor();
    await bothWidths(page, 'run-development-ai', '.dev-label');
  });

  it('a message the outbox transport kept says so instead of a bare "sent"', async () => {
    const { page, baseUrl } = hub;
    const res = await page.request.post(`${baseUrl}/v1/automations/${ids.automations.welcome}/enrollments`, {
      headers: { authorization: `Bearer ${ids.keys.crm}`, 'idempotency-key': 'dev-mode-1' },
      data: { contact_ids: [ids.contacts.ann] },
    });
    expect(res.status(), await res.text()).toBe(200);
    await page.goto(`${baseUrl}/messages`);
    const kept = page.getByText('Kept in the outbox: not delivered');
    const deadline = Date.now() + 60_000;
    // The sender settles it within moments; the list polls every 10 s, a reload asks at once.
    while ((await kept.count()) === 0) {
      if (Date.now() > deadline) throw new Error('the message was not kept in the outbox within 60 s');
      await new Promise((r) => setTimeout(r, 500));
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    }
    await expect(page.locator('tbody .badge', { hasText: /^sent$/ }).count()).resolves.toBe(0);
    await bothWidths(page, 'messages-kept', '.dev-banner');
  });

  it('hides the banner for the rest of the session at most', async () => {
    const { page, baseUrl } = hub;
    await page.goto(`${baseUrl}/runs`);
    const banner = page.getByRole('status').filter({ hasText: 'Development mode' });
    await banner.waitFor();
    await banner.getByRole('button', { name: /^Hide/ }).click();
    await banner.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.reload();
    await page.getByRole('region', { name: 'Providers' }).getByText('SWITCHBOARD_SMTP_URL').waitFor();
    expect(await banner.count()).toBe(0);
    // A new browser session (sessionStorage starts empty): the stand-ins are still in use, so it is back.
    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await banner.waitFor();
  });
});
