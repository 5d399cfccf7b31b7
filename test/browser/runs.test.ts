// Browser flows of the run screens on a real server (API and workers, the built-in local model):
// open a workflow, "Run now", watch the run finish and see each block's output (the page the run
// made rendered in a sandboxed frame); a run awaiting approval shows its draft above Approve, and
// approving it ends it succeeded. Every screen visited is screenshotted and checked with axe.
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { openHub, SHOTS, type Hub, type SeedOutput } from './harness.js';

const PASSWORD = 'a long member passphrase';
const SOURCE = 'We shipped the pricing page and fixed checkout.';
const DRAFT = 'Dear customer, here is the draft reply.';

let hub: Hub;
let ids: SeedOutput['accounts'][string];

beforeAll(async () => {
  hub = await openHub('runs');
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
            ref: 'digest',
            name: 'Weekly digest',
            status: 'active',
            project: 'site',
            blocks: [
              { id: 'notes', kind: 'source.text', config: { text: SOURCE } },
              { id: 'summary', kind: 'agent', config: { prompt: 'Summarise: {{notes}}', max_tokens: 60 } },
              { id: 'publish', kind: 'output.project', config: { title: 'This week' } },
            ],
            edges: [{ from: 'notes', to: 'summary' }, { from: 'summary', to: 'publish' }],
          },
          {
            ref: 'reply',
            name: 'Customer reply',
            status: 'active',
            blocks: [
              { id: 'draft', kind: 'source.text', config: { text: DRAFT } },
              { id: 'check', kind: 'approval', config: { message: 'Check the tone before it goes out' } },
              { id: 'send', kind: 'transform.template', config: { template: 'Approved: {{check}}' } },
            ],
            edges: [{ from: 'draft', to: 'check' }, { from: 'check', to: 'send' }],
          },
        ],
      },
    ],
  });
  ids = out.accounts.acme;
  hub.page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  hub.page.on('requestfailed', (r) => console.error(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  hub.page.on('console', (m) => { if (m.type() === 'error') console.error(`console: ${m.text()}`); });
  await hub.signIn('mia@acme.example', PASSWORD);
}, 180_000);
afterAll(async () => {
  await hub?.close();
});

// A failed flow leaves a picture of where it stopped and the page's text, to say why.
beforeEach(() => {
  onTestFailed(async () => {
    await hub.page.screenshot({ path: path.join(SHOTS, 'runs', 'failed.png'), fullPage: true }).catch(() => {});
    console.error(`page at failure: ${hub.page.url()}\n${await hub.page.locator('body').innerText().catch(() => '')}`);
  });
});

/** The run page's status badge (next to the title) reads `status`. */
async function waitForStatus(status: string): Promise<void> {
  await hub.page.locator('.page-head .badge', { hasText: status }).waitFor({ timeout: 60_000 });
}

describe('runs in the hub', { timeout: 180_000 }, () => {
  it('Runs starts empty; a workflow\'s page runs it now, and the run page shows it finish with every output', async () => {
    const { page, baseUrl } = hub;
    // Home is the getting-started screen now (test/browser/onboarding.test.ts); Runs is one click away.
    await page.goto(`${baseUrl}/runs`);
    await page.getByRole('heading', { level: 1, name: 'Runs' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/runs');
    await page.getByText('No runs match').waitFor();
    expect(await hub.visit('runs-empty')).toEqual([]);

    await expect(page.title()).resolves.toBe('Runs · Switchboard');
    await page.getByRole('link', { name: 'Workflows' }).click();
    await page.getByRole('link', { name: 'Weekly digest', exact: true }).waitFor();
    // A screen change names the tab and puts focus on the new heading (read out by a screen reader).
    await expect(page.title()).resolves.toBe('Workflows · Switchboard');
    await expect(page.evaluate(() => document.activeElement?.outerHTML.startsWith('<h1') && document.activeElement.textContent)).resolves.toBe('Workflows');
    expect(await hub.visit('workflows')).toEqual([]);

    await page.getByRole('link', { name: 'Weekly digest', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Weekly digest' }).waitFor();
    const blocks = await page.getByRole('list', { name: 'Blocks in order' }).locator('h3').allTextContents();
    expect(blocks).toEqual(['Start with text · notes', 'Write with AI · summary', 'Save as page · publish']);
    expect(await hub.visit('workflow')).toEqual([]);

    await page.getByRole('button', { name: 'Run now' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    await waitForStatus('succeeded');
    await expect(page.getByLabel('Output of Start with text (notes)').textContent()).resolves.toBe(SOURCE);
    const summary = (await page.getByLabel('Output of Write with AI (summary)').textContent()) ?? '';
    expect(summary.length).toBeGreaterThan(0);
    // The page the run made: its HTML in a frame with every sandbox restriction.
    const frame = page.locator('iframe[title="Output of Save as page (publish)"]');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await page.frameLocator('iframe[title="Output of Save as page (publish)"]').locator('body').textContent()).toContain('pricing page');
    await expect(page.getByText('Run now by Mia Member <mia@acme.example>').count()).resolves.toBe(1);
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    expect(await hub.visit('run-succeeded')).toEqual([]);

    // The run is on the Runs screen, and the workflow filter in the URL survives a reload.
    await page.goto(`${baseUrl}/runs?workflow_id=${ids.workflows.digest}`);
    await page.locator('tbody tr').first().waitFor();
    await page.reload();
    await page.locator('tbody tr').first().waitFor();
    await expect(page.getByLabel('Workflow', { exact: true }).inputValue()).resolves.toBe(ids.workflows.digest);
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await hub.visit('runs-filtered')).toEqual([]);
  });

  it('a run awaiting approval shows the draft above Approve; approving it ends succeeded', async () => {
    const { page, baseUrl } = hub;
    await page.goto(`${baseUrl}/workflows/${ids.workflows.reply}`);
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Awaiting your approval' }).waitFor({ timeout: 60_000 });
    const draft = page.getByLabel('The output to approve');
    await expect(draft.textContent()).resolves.toBe(DRAFT);
    await page.getByText('Check the tone before it goes out').waitFor();
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    const [draftBox, buttonBox] = [await draft.boundingBox(), await approve.boundingBox()];
    expect(draftBox!.y + draftBox!.height).toBeLessThanOrEqual(buttonBox!.y);
    expect(await hub.visit('run-awaiting-approval')).toEqual([]);

    await approve.click();
    await waitForStatus('succeeded');
    await expect(page.getByLabel('Output of Fill in a template (send)').textContent()).resolves.toBe(`Approved: ${DRAFT}`);
    expect(await page.getByRole('heading', { name: 'Awaiting your approval' }).count()).toBe(0);
    expect(await hub.visit('run-approved')).toEqual([]);
  });

  it('cancels a run awaiting approval after a confirmation', async () => {
    const { page, baseUrl } = hub;
    await page.goto(`${baseUrl}/workflows/${ids.workflows.reply}`);
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('heading', { name: 'Awaiting your approval' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('dialog', { name: 'Cancel this run?' }).waitFor();
    expect(await hub.visit('run-cancel-confirm')).toEqual([]);
    await page.getByRole('button', { name: 'Cancel the run' }).click();
    await waitForStatus('cancelled');
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
  });
});
