// The workflow builder in a real browser, each flow on a fresh server: build the five-block
// workflow from nothing by clicking, dragging and typing, save, activate, Run now, approve the
// run and find the page it made in Content; a cycle, a blank prompt and a stray placeholder shown
// live on their edge, nodes and fields (two blocks at once), Save naming how many remain and
// taking the focus to the first; Test this block; the trigger set to a schedule with its preview;
// the builder driven by the keyboard alone (Back to palette); unsaved changes restored after a
// reload, and leaving warned about. Every screen: a screenshot and axe.
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { openHub, SHOTS, type Hub } from './harness.js';

const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };
const MEMBER = { email: 'max@acme.example', password: 'a member passphrase' };

/** A fresh hub with Acme (an owner, a member, the Website project, `workflows`), signed in as `who`. */
async function open(flow: string, who: typeof OWNER, workflows: unknown[] = []) {
  const hub: Hub = await openHub(flow);
  // A failed flow leaves a picture of where it stopped and the page's text, to say why; then the hub goes.
  onTestFinished(async ({ task }) => {
    if (task.result?.state === 'fail') {
      await hub.page.screenshot({ path: path.join(SHOTS, flow, 'failed.png'), fullPage: true }).catch(() => {});
      console.error(`page at failure: ${hub.page.url()}\n${await hub.page.locator('body').innerText().catch(() => '')}`);
    }
    await hub.close();
  });
  const out = await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        credit_micros: 50_000_000,
        users: [
          { ref: 'olivia', email: OWNER.email, role: 'owner', password: OWNER.password, name: 'Olivia Owner' },
          { ref: 'max', email: MEMBER.email, role: 'member', password: MEMBER.password, name: 'Max Member' },
        ],
        projects: [{ ref: 'site', name: 'Website', items: [{ ref: 'launch', kind: 'page', title: 'Launch notes', text: 'We launched.' }] }],
        workflows,
      },
    ],
  });
  const h = hub;
  h.page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  h.page.on('console', (m) => {
    if (m.type() === 'error') console.error(`console: ${m.text()}`);
  });
  await h.signIn(who.email, who.password);
  return { hub: h, page: h.page, ids: out.accounts.acme };
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
/** The edges between blocks (the trigger's dashed edges left out). */
const blockEdges = (page: Page) => page.locator('.react-flow__edge:not(.wf-edge-trigger)');

/** Connects two blocks on the canvas as a mouse does: from `from`'s output handle to `to`'s input handle. */
async function drag(page: Page, from: string, to: string): Promise<void> {
  const boxes = async () => [await node(page, from).locator('.react-flow__handle.source').boundingBox(), await node(page, to).locator('.react-flow__handle.target').boundingBox()];
  // The canvas refits itself when a block is added: measure once the handles have stopped moving.
  let [a, b] = await boxes();
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const [a2, b2] = await boxes();
    const still = JSON.stringify([a, b]) === JSON.stringify([a2, b2]);
    [a, b] = [a2, b2];
    if (still && a && b) break;
  }
  if (!a || !b) throw new Error(`no handles to drag from ${from} to ${to}`);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

/** The block panel's inputs, as its list shows them. */
const inputsOf = (page: Page) => page.locator('.wf-inputs li code').allTextContents();

/** Tab (forwards) until the focused element's accessible name is `name`; the keyboard-only flow's way to move. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(`(() => {
      const el = document.activeElement;
      if (!el) return '';
      return (el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent) || el.textContent || '').trim();
    })()`);
    if (focused === name) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

describe('the workflow builder', { timeout: 240_000 }, () => {
  it('builds source → agent → template → approval → page from nothing, runs it, approves it and finds the page in Content', async () => {
    const { hub, page } = await open('workflow-builder-build', OWNER);
    await page.goto(`${hub.baseUrl}/workflows`);
    await page.getByRole('link', { name: 'New workflow' }).click();
    // New workflow offers templates first; this flow builds from a blank canvas.
    await page.getByRole('link', { name: 'Start blank' }).click();
    await page.getByRole('heading', { level: 1, name: 'New workflow' }).waitFor();
    await page.getByText('No blocks yet').waitFor();
    expect(await hub.visit('new')).toEqual([]);

    await page.getByLabel('Name', { exact: true }).fill('Weekly digest');
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Website' });

    // Each new block opens its settings and goes below the one selected: a chain, top to bottom.
    await page.getByRole('button', { name: 'Add Text block' }).click();
    await page.getByRole('heading', { name: 'Text: text' }).waitFor();
    await page.getByLabel('Text', { exact: true }).fill('We shipped the pricing page and fixed checkout.');
    await page.getByRole('button', { name: 'Add AI agent block' }).click();
    await page.getByRole('heading', { name: 'AI agent: agent' }).waitFor();
    expect(await page.getByText('No placeholders yet').count()).toBe(1);
    await drag(page, 'text', 'agent');
    await expect.poll(() => inputsOf(page)).toEqual(['text']);
    await page.getByLabel('Prompt', { exact: true }).fill('Summarise in one line: ');
    await page.getByRole('button', { name: 'Insert {{text}} into Prompt' }).click();
    await expect.poll(() => page.getByLabel('Prompt', { exact: true }).inputValue()).toBe('Summarise in one line: {{text}}');
    await page.getByLabel('Max tokens').fill('60');
    expect(await hub.visit('agent-settings')).toEqual([]);

    await page.getByRole('button', { name: 'Add Template block' }).click();
    await page.getByRole('heading', { name: 'Template: template' }).waitFor();
    await drag(page, 'agent', 'template');
    await expect.poll(() => inputsOf(page)).toEqual(['agent']);
    await page.getByLabel('Template', { exact: true }).fill('This week: ');
    await page.getByRole('button', { name: 'Insert {{agent}} into Template' }).click();

    await page.getByRole('button', { name: 'Add Approval block' }).click();
    await page.getByRole('heading', { name: 'Approval: approval' }).waitFor();
    await drag(page, 'template', 'approval');
    await page.getByLabel('Message to the approver').fill('Check the digest before it is published');

    await page.getByRole('button', { name: 'Add Save as page block' }).click();
    // Named for what it makes: {{page}}, not {{project}}.
    await page.getByRole('heading', { name: 'Save as page: page' }).waitFor();
    await drag(page, 'approval', 'page');
    await expect.poll(() => inputsOf(page)).toEqual(['approval']);
    // The workflow's project, shown (and changeable) from the output block too.
    await expect(page.getByLabel("Workflow's project (where the page is saved)").inputValue()).resolves.not.toBe('');
    await page.getByLabel('Page title').fill('Digest of the week');
    await page.getByRole('button', { name: 'Auto-layout' }).click();
    await page.getByText('Unsaved changes', { exact: true }).waitFor();
    expect(await blockEdges(page).count()).toBe(4);
    // The trigger heads the graph, pointing at the block that starts the run.
    expect(await page.locator('.react-flow__edge.wf-edge-trigger').count()).toBe(1);
    // One panel, one block's fields: none left behind by the blocks opened before.
    expect(await page.getByLabel('Block id').count()).toBe(1);
    expect(await page.getByLabel('Add input from…').count()).toBe(1);
    expect(await hub.visit('built')).toEqual([]);

    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page.waitForURL(/\/workflows\/[0-9a-f-]{36}\/build$/);
    await page.getByRole('heading', { level: 1, name: 'Build Weekly digest' }).waitFor();
    await page.getByText('All changes saved', { exact: true }).waitFor();
    expect(await page.locator('.react-flow__node').count()).toBe(6);
    expect(await node(page, '_trigger').textContent()).toContain('Manually');
    expect(await hub.visit('saved')).toEqual([]);

    await page.getByRole('button', { name: 'Activate' }).click();
    await page.locator('.page-head .badge', { hasText: 'active' }).waitFor();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('link', { name: 'Open the run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Awaiting your approval' }).waitFor({ timeout: 60_000 });
    await page.getByText('Check the digest before it is published').waitFor();
    expect(await hub.visit('run-awaiting')).toEqual([]);
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.locator('.page-head .badge', { hasText: 'succeeded' }).waitFor({ timeout: 60_000 });

    await page.getByRole('link', { name: 'Content', exact: true }).click();
    await page.getByRole('link', { name: 'Website' }).click();
    await page.getByRole('link', { name: 'Digest of the week' }).click();
    await page.getByRole('heading', { name: 'Digest of the week' }).waitFor();
    expect(await page.frameLocator('iframe.sandboxed').locator('body').textContent()).toContain('This week:');
    expect(await hub.visit('page-made')).toEqual([]);
  });

  it('shows a cycle on the edge that closes it and a blank prompt on its node and field; picks a content item; an owner deletes the workflow', async () => {
    const { hub, page, ids } = await open('workflow-builder-errors', OWNER, [
      {
        ref: 'chain',
        name: 'Chain',
        blocks: [
          { id: 'notes', kind: 'source.text', config: { text: 'Notes' } },
          { id: 'summary', kind: 'agent', config: { prompt: 'Summarise {{notes}}' } },
          { id: 'wrap', kind: 'transform.template', config: { template: 'Summary: {{summary}}' } },
        ],
        edges: [
          { from: 'notes', to: 'summary' },
          { from: 'summary', to: 'wrap' },
        ],
      },
    ]);
    await page.goto(`${hub.baseUrl}/workflows`);
    await page.getByRole('button', { name: 'Delete Chain' }).waitFor();
    expect(await hub.visit('list-owner')).toEqual([]);
    await page.getByRole('link', { name: 'Open builder for Chain' }).click();
    await page.getByRole('heading', { level: 1, name: 'Build Chain' }).waitFor();
    await node(page, 'wrap').waitFor();

    // The last block back into the second (from the panel, the keyboard's way): a cycle, shown on
    // that edge as soon as it is made.
    await page.getByRole('button', { name: 'Settings of summary' }).click();
    await page.getByLabel('Add input from…').selectOption('wrap');
    await page.getByRole('button', { name: 'Connect wrap to summary' }).click();
    const bad = page.locator('.react-flow__edge.wf-edge-error');
    await expect.poll(() => bad.count()).toBe(1);
    expect(await bad.getAttribute('data-id')).toBe('wrap->summary');
    await expect(page.locator('.wf-edge-label').textContent()).resolves.toContain('go round in a circle');
    // Save refuses it without asking the server, says how many problems remain and shows the first.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Not saved: 1 problem remains.').waitFor();
    await page.getByRole('heading', { name: 'Edge wrap → summary' }).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Edge wrap → summary');
    expect(await hub.visit('cycle')).toEqual([]);

    // Delete the edge (focus it, the Delete key): its marks and the Save notice go with it.
    await bad.focus();
    await page.keyboard.press('Delete');
    await expect.poll(() => blockEdges(page).count()).toBe(2);
    await expect.poll(() => page.getByText('Not saved:').count()).toBe(0);
    expect(await page.locator('.wf-edge-error, .wf-edge-label, .wf-node-error').count()).toBe(0);

    // Two blocks wrong at once, each marked as it is edited: a blank prompt, a placeholder naming no block.
    await page.getByRole('button', { name: 'Settings of summary' }).click();
    await page.getByLabel('Prompt', { exact: true }).fill('');
    await expect(node(page, 'summary').locator('.wf-node-message').textContent()).resolves.toBe('Write the prompt for this AI block');
    await expect(page.getByLabel('Prompt', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByRole('button', { name: 'Settings of wrap' }).click();
    await page.getByLabel('Template', { exact: true }).fill('Summary: {{summary}} and {{nowhere}}');
    await expect.poll(() => page.locator('.wf-node-error').count()).toBe(2);
    expect(await node(page, 'summary').getAttribute('aria-label')).toBe('Block summary (AI agent), 1 problem');
    expect(await node(page, 'wrap').getAttribute('aria-label')).toBe('Block wrap (Template), 1 problem');
    await expect(node(page, 'wrap').locator('.wf-node-badge').textContent()).resolves.toContain('1 problem');
    await page.locator('.field-error', { hasText: 'The template uses {{nowhere}}, but there is no block called “nowhere”' }).waitFor();
    await page.getByText('2 problems to fix').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Not saved: 2 problems remain.').waitFor();
    // The focus goes to the first problem's field: the blank prompt.
    await page.getByRole('heading', { name: 'AI agent: summary' }).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.labels && document.activeElement.labels[0].textContent')).toBe('Prompt');
    expect(await hub.visit('field-error')).toEqual([]);
    await page.getByRole('button', { name: 'Settings of wrap' }).click();
    await page.getByLabel('Template', { exact: true }).fill('Summary: {{summary}}');
    await page.getByRole('button', { name: 'Settings of summary' }).click();
    await page.getByLabel('Prompt', { exact: true }).fill('Summarise {{notes}} briefly');
    // Fixed in the draft: the refusal's banner, node mark and field mark are gone before saving.
    await expect.poll(() => page.getByText('Not saved:').count()).toBe(0);
    expect(await node(page, 'summary').locator('.wf-node-error').count()).toBe(0);
    expect(await page.getByLabel('Prompt', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved', { exact: true }).waitFor();
    expect(await page.getByText('Not saved:').count()).toBe(0);

    // Test this block: the saved AI block on the text its input gave in no run yet (sample text),
    // edited; the development AI answers and nothing is billed; no run starts.
    await page.getByRole('button', { name: 'Test this block' }).waitFor();
    expect(await page.getByRole('button', { name: 'Test this block' }).getAttribute('aria-describedby')).toBeTruthy();
    await page.getByLabel('Input from notes', { exact: true }).fill('Launch went well and sales doubled');
    await page.getByRole('button', { name: 'Test this block' }).click();
    await page.getByRole('heading', { name: 'Output' }).waitFor();
    await expect(page.locator('.wf-test-output').textContent()).resolves.toContain('sales doubled');
    await page.getByText('Development AI: nothing was billed.').waitFor();
    expect(await hub.visit('test-block')).toEqual([]);

    // A content item block: its item picked from the account's content, and found again after a reload.
    await page.getByRole('button', { name: 'Add Content item block' }).click();
    await page.getByRole('heading', { name: 'Content item: item' }).waitFor();
    await page.getByLabel('Project of the item').selectOption({ label: 'Website' });
    await page.getByLabel('Item', { exact: true }).selectOption({ label: 'Launch notes (page)' });
    expect(await hub.visit('item-picker')).toEqual([]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved', { exact: true }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Settings of item' }).click();
    await expect.poll(() => page.getByLabel('Project of the item').inputValue()).toBe(ids.projects.site);
    await expect.poll(() => page.getByLabel('Item', { exact: true }).locator('option:checked').textContent()).toBe('Launch notes (page)');

    // Delete, for owners and admins: a confirmation, then the list without it.
    await page.getByRole('link', { name: '← Chain' }).click();
    await page.getByRole('link', { name: 'Open builder' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete Chain?' }).waitFor();
    expect(await hub.visit('delete-confirm')).toEqual([]);
    await page.getByRole('button', { name: 'Delete the workflow' }).click();
    await page.waitForURL(/\/workflows$/);
    await page.getByText('No workflows yet.').waitFor();
  });

  it('is usable with the keyboard alone: add a block, connect two blocks, open a block\'s settings; a member sees no Delete', async () => {
    const { hub, page, ids } = await open('workflow-builder-keyboard', MEMBER, [
      { ref: 'solo', name: 'Solo', blocks: [{ id: 'notes', kind: 'source.text', config: { text: 'Notes' } }], edges: [] },
    ]);
    await page.goto(`${hub.baseUrl}/workflows`);
    await page.getByRole('link', { name: 'Open builder for Solo' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete Solo' }).count()).toBe(0);
    await page.goto(`${hub.baseUrl}/workflows/${ids.workflows.solo}`);
    await page.getByRole('link', { name: 'Open builder' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await page.getByRole('link', { name: 'Open builder' }).click();
    await node(page, 'notes').waitFor();

    await tabTo(page, 'Add Template block');
    await page.keyboard.press('Enter');
    // The new block's settings open with the focus on their heading; one Tab on, Back to palette
    // returns to the kind just added (not 30 presses back).
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Template: template');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Back to palette');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.getAttribute("data-kind")')).toBe('transform.template');
    await tabTo(page, 'Settings of template');
    await page.keyboard.press('Enter');
    // A block's buttons say which block: its id and its kind's name.
    await page.getByRole('button', { name: 'Delete block “template” (Template)' }).waitFor();
    await tabTo(page, 'Template');
    await page.keyboard.type('Notes: ');
    // Browsing the select only chooses (ArrowDown on a closed select fires change); Connect connects.
    await tabTo(page, 'Add input from…');
    await page.keyboard.press('ArrowDown');
    await page.getByRole('button', { name: 'Connect notes to template' }).waitFor();
    expect(await inputsOf(page)).toEqual([]);
    expect(await blockEdges(page).count()).toBe(0);
    await tabTo(page, 'Connect notes to template');
    await page.keyboard.press('Enter');
    await expect.poll(() => inputsOf(page)).toEqual(['notes']);
    await expect(page.locator('.react-flow__edge[data-id="notes->template"]').count()).resolves.toBe(1);
    // No block left to connect: the focus moves to the new input's Remove, not to the page.
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")')).toBe('Remove input from notes');
    await expect(page.getByLabel('Add input from…').isDisabled()).resolves.toBe(true);
    // Removing it (Enter on that Remove) puts the focus back on the select, and connecting again works.
    await page.keyboard.press('Enter');
    await expect.poll(() => inputsOf(page)).toEqual([]);
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.labels && document.activeElement.labels[0].textContent')).toBe('Add input from…');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, 'Connect notes to template');
    await page.keyboard.press('Enter');
    await expect.poll(() => inputsOf(page)).toEqual(['notes']);
    await tabTo(page, 'Insert {{notes}} into Template');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByLabel('Template', { exact: true }).inputValue()).toBe('Notes: {{notes}}');
    expect(await hub.visit('keyboard-connected')).toEqual([]);

    // Another block's settings: from the Blocks list, and from its node on the canvas.
    await tabTo(page, 'Settings of notes');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Text: notes' }).waitFor();
    await tabTo(page, 'Block template (Template)');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Template: template' }).waitFor();

    await tabTo(page, 'Save');
    await page.keyboard.press('Enter');
    await page.getByText('All changes saved', { exact: true }).waitFor();
    expect(await hub.visit('keyboard-saved')).toEqual([]);
  });

  it('keeps unsaved changes over a reload, warns before leaving, sets the trigger to a schedule with its preview, and refuses to save over someone else\'s change', async () => {
    const { hub, page, ids } = await open('workflow-builder-restore', MEMBER, [
      { ref: 'solo', name: 'Solo', blocks: [{ id: 'notes', kind: 'source.text', config: { text: 'Notes' } }], edges: [] },
    ]);
    const url = `${hub.baseUrl}/workflows/${ids.workflows.solo}/build`;
    await page.goto(url);
    await node(page, 'notes').waitFor();

    // The trigger, set to a schedule from its node: every Monday at 09:00 in Paris, the next five
    // runs in that zone; saved with the workflow. A custom expression that cannot run is a problem
    // on the trigger.
    await node(page, '_trigger').click();
    await page.getByRole('heading', { name: 'Trigger: how it starts' }).waitFor();
    expect(await page.getByLabel('From a chat (coming later)').isDisabled()).toBe(true);
    await page.getByLabel('From another app (API)').check();
    await expect(page.locator('.wf-curl').textContent()).resolves.toContain(`/v1/workflows/${ids.workflows.solo}/runs`);
    expect(await page.locator('.wf-curl').textContent()).toContain('Bearer YOUR_API_KEY');
    expect(await hub.visit('trigger-api')).toEqual([]);
    await page.getByLabel('On a schedule').check();
    await page.getByLabel('Repeat').selectOption('weekly');
    await page.getByLabel('On', { exact: true }).selectOption({ label: 'Monday' });
    await page.getByLabel('At', { exact: true }).fill('09:00');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByRole('heading', { name: 'Next runs (Europe/Paris)' }).waitFor();
    await expect.poll(() => page.locator('.wf-preview li').count()).toBe(5);
    expect(await page.locator('.wf-preview li').first().textContent()).toMatch(/Monday.*09:00/);
    await expect.poll(() => node(page, '_trigger').textContent()).toContain('Every Monday at 09:00');
    expect(await hub.visit('schedule')).toEqual([]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved', { exact: true }).waitFor();
    await page.getByLabel('Repeat').selectOption('custom');
    await expect.poll(() => node(page, '_trigger').textContent()).toContain('Every Monday at 09:00');
    await page.getByLabel('Cron expression').fill('61 * * * *');
    await page.locator('.wf-picker .field-error').waitFor();
    await expect.poll(() => node(page, '_trigger').getAttribute('aria-label')).toContain('1 problem');
    expect(await hub.visit('schedule-problem')).toEqual([]);
    await page.getByLabel('Cron expression').fill('0 9 * * 1');
    await expect.poll(() => page.locator('.wf-picker .field-error').count()).toBe(0);

    await page.getByLabel('Name', { exact: true }).fill('Solo, renamed');
    await page.getByText('Unsaved changes', { exact: true }).waitFor();

    // Leaving inside the hub asks first.
    await page.getByRole('link', { name: 'Runs', exact: true }).click();
    await page.getByRole('dialog', { name: 'Leave with unsaved changes?' }).waitFor();
    expect(await hub.visit('leave-warning')).toEqual([]);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(new URL(page.url()).pathname).toBe(`/workflows/${ids.workflows.solo}/build`);

    // Reloading asks the browser's question, and the changes come back.
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.type();
      void d.accept();
    });
    await page.reload();
    await page.getByText('Restored unsaved changes').waitFor();
    expect(asked).toBe('beforeunload');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Solo, renamed');
    expect(await hub.visit('restored')).toEqual([]);
    // Discarding asks first: Cancel keeps the changes, confirming drops them.
    await page.getByRole('button', { name: 'Discard', exact: true }).click();
    await page.getByRole('dialog', { name: 'Discard the restored changes?' }).waitFor();
    expect(await hub.visit('discard-confirm')).toEqual([]);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Solo, renamed');
    await page.getByRole('button', { name: 'Discard', exact: true }).click();
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('Solo');
    await page.getByText('All changes saved', { exact: true }).waitFor();
    await expect.poll(() => node(page, '_trigger').textContent()).toContain('Every Monday at 09:00');

    // Someone else changes the workflow meanwhile (here: its status, through the hub's API): saving
    // over it is refused, and "Reload their version" shows theirs.
    const session = (await (await page.request.get(`${hub.baseUrl}/hub/api/session`)).json()) as { csrf_token: string };
    const other = await page.request.post(`${hub.baseUrl}/hub/api/workflows/${ids.workflows.solo}/status`, {
      data: { status: 'active' },
      headers: { 'x-csrf-token': session.csrf_token, origin: hub.baseUrl },
    });
    expect(other.status()).toBe(200);
    await page.getByLabel('Description').fill('Mine');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Someone changed this workflow since you opened it.').waitFor();
    expect(await hub.visit('conflict')).toEqual([]);
    await page.getByRole('button', { name: 'Reload their version' }).click();
    await page.locator('.page-head .badge', { hasText: 'active' }).waitFor();
    await expect(page.getByLabel('Description').inputValue()).resolves.toBe('');
    await page.getByText('All changes saved', { exact: true }).waitFor();
  });
});
