// Browser flows of issue 25's run page: a run awaiting approval puts a badge on Runs in the
// navigation ("Runs, 1 awaiting approval"); on a phone (390 px) the approver edits the draft and
// approves with one thumb (big stacked buttons, no sideways scroll); the run succeeds with the
// edited text, both texts shown; "What it made" links to the page it saved, which opens. (Run again
// on a failed run is try-again.test.ts's.) axe at 1280 and 390 px.
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { openHub, SHOTS, type Hub, type SeedOutput } from './harness.js';

const PASSWORD = 'a long member passphrase';
const DRAFT = 'Dear customer, here is the draft reply.';
const EDITED = 'Dear Sam, here is our warmer reply.';

let hub: Hub;
let ids: SeedOutput['accounts'][string];

beforeAll(async () => {
  hub = await openHub('run-decisions');
  const out = await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        credit_micros: 50_000_000,
        users: [{ ref: 'mia', email: 'mia@acme.example', role: 'member', name: 'Mia Member', password: PASSWORD }],
        keys: [],
        projects: [{ ref: 'site', name: 'Website' }],
        workflows: [
          {
            ref: 'reply',
            name: 'Customer reply',
            status: 'active',
            project: 'site',
            blocks: [
              { id: 'draft', kind: 'source.text', config: { text: DRAFT } },
              { id: 'check', kind: 'approval', config: { message: 'Check the tone before it goes out' } },
              { id: 'save', kind: 'output.project', config: { title: 'Reply to Sam' } },
            ],
            edges: [{ from: 'draft', to: 'check' }, { from: 'check', to: 'save' }],
          },
        ],
      },
    ],
  });
  ids = out.accounts.acme;
  hub.page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await hub.signIn('mia@acme.example', PASSWORD);
}, 180_000);
afterAll(async () => {
  await hub?.close();
});

beforeEach(() => {
  onTestFailed(async () => {
    await hub.page.screenshot({ path: path.join(SHOTS, 'run-decisions', 'failed.png'), fullPage: true }).catch(() => {});
    console.error(`page at failure: ${hub.page.url()}\n${await hub.page.locator('body').innerText().catch(() => '')}`);
  });
});

async function waitForStatus(status: string): Promise<void> {
  await hub.page.locator('.page-head .badge', { hasText: status }).waitFor({ timeout: 60_000 });
}

async function noSidewaysScroll(): Promise<void> {
  const [scroll, client] = await hub.page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll).toBeLessThanOrEqual(client);
}

describe('run decisions in the hub', { timeout: 240_000 }, () => {
  it('badge → approve with an edit on a phone → succeeds with the edited text → the page it made opens', async () => {
    const { page, baseUrl } = hub;
    await page.goto(`${baseUrl}/workflows/${ids.workflows.reply}`);
    await page.getByRole('heading', { level: 1, name: 'Customer reply' }).waitFor();
    // The workflow page names blocks and settings in words.
    await page.getByText('Message to the approver').waitFor();
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    const runUrl = page.url();
    await page.getByRole('heading', { name: 'Awaiting your approval' }).waitFor({ timeout: 60_000 });

    await page.reload();
    await page.getByRole('link', { name: 'Runs, 1 awaiting approval' }).waitFor();
    await page.getByRole('heading', { name: 'Awaiting your approval' }).waitFor();
    expect(await hub.visit('awaiting-1280')).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Edit, then approve' }).click();
    const box = page.getByLabel('The text to approve');
    await expect(box.inputValue()).resolves.toBe(DRAFT);
    await box.fill(EDITED);
    const approve = page.getByRole('button', { name: 'Approve the edited text' });
    const b = (await approve.boundingBox())!;
    expect(b.height).toBeGreaterThanOrEqual(44);
    expect(b.width).toBeGreaterThan(300);
    await noSidewaysScroll();
    expect(await hub.visit('approve-edit-390')).toEqual([]);

    await approve.click();
    await waitForStatus('succeeded');
    expect(page.url()).toBe(runUrl);
    await page.getByText(/Approved by Mia Member .*with an edit/).waitFor();
    await page.getByText('The draft before the edit').click();
    await expect(page.getByLabel('The draft of check before the edit').textContent()).resolves.toBe(DRAFT);
    await page.getByText(/of work, .* waiting for approval/).waitFor();
    // The badge is gone (on a phone the menu is folded, so the link is read where it stands).
    await expect.poll(() => page.locator('#main-nav a[href="/runs"]').textContent()).toBe('Runs');
    await noSidewaysScroll();
    expect(await hub.visit('approved-390')).toEqual([]);

    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await hub.visit('approved-1280')).toEqual([]);
    await page.getByRole('region', { name: 'What it made' }).getByRole('link', { name: 'Reply to Sam' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reply to Sam' }).waitFor();
    expect(await page.frameLocator('iframe').first().locator('body').textContent()).toContain('warmer reply');
  });
});
