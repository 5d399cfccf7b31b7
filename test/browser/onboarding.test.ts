// Onboarding and review before going live (issue 25, items 8 and 10), in a real browser on an
// account with nothing in it: home's getting-started checklist → a first project created inline
// on New workflow → a workflow from a template → the checklist ticks both; an automation from a
// template → Send test creates a test contact inline and says the filter would skip them →
// Publish lists the filter; after an edit the dialog says what changed, old → new. Every screen is
// checked with axe at 1280 and 390 px, with no sideways scroll of the page's content at 390.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHub, type Hub } from './harness.js';

const OWNER = { email: 'olivia@fresh.example', password: 'correct horse battery staple' };
let hub: Hub;
beforeAll(async () => {
  hub = await openHub('onboarding');
  await hub.seed({ accounts: [{ ref: 'fresh', name: 'Fresh Ltd', users: [{ ref: 'o', email: OWNER.email, role: 'owner', password: OWNER.password, name: 'Olivia' }] }] });
  await hub.signIn(OWNER.email, OWNER.password);
}, 120_000);
afterAll(() => hub?.close());

/** Axe at laptop width, then at 390 px (the main content must not scroll sideways), then back. */
async function bothWidths(name: string): Promise<void> {
  expect(await hub.visit(name)).toEqual([]);
  await hub.page.setViewportSize({ width: 390, height: 844 });
  expect(await hub.visit(`${name}-390`)).toEqual([]);
  const main = await hub.page.evaluate(() => {
    const m = document.querySelector('main');
    return m ? m.scrollWidth - m.clientWidth : 0;
  });
  expect(main, `${name}: the main content scrolls sideways at 390 px`).toBeLessThanOrEqual(1);
  await hub.page.setViewportSize({ width: 1280, height: 860 });
}

const step = (title: string) => hub.page.locator('.home-step', { hasText: title });

describe('onboarding', { timeout: 300_000 }, () => {
  it('checklist → first project inline → a workflow from a template → the checklist updates', async () => {
    const { page, baseUrl } = hub;
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(/\/home$/);
    await page.getByRole('heading', { name: 'Getting started' }).waitFor();
    await page.getByText('0 of 6 done').waitFor();
    expect(await step('Set up real email').textContent()).toContain('outbox');
    await bothWidths('home-fresh');

    await page.getByRole('link', { name: 'New workflow: build your first workflow' }).click();
    await page.getByRole('heading', { name: 'New workflow', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Create your first project' }).waitFor();
    // No project yet: the templates wait for one.
    expect(await page.getByRole('button', { name: 'Use this template: Weekly digest' }).isDisabled()).toBe(true);
    await bothWidths('new-workflow-no-project');
    await page.getByLabel('Project name').fill('Newsletter');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByLabel('Project', { exact: true }).waitFor();
    await bothWidths('new-workflow-templates');
    await page.getByRole('button', { name: 'Use this template: Weekly digest' }).click();
    await page.waitForURL(/\/workflows\/[0-9a-f-]{36}\/build$/);
    await page.getByRole('heading', { name: 'Build Weekly digest', level: 1 }).waitFor();

    await page.goto(`${baseUrl}/home`);
    await page.getByText('2 of 6 done').waitFor();
    expect(await step('Create a project').textContent()).toContain('(done)');
    expect(await step('Build your first workflow').textContent()).toContain('(done)');
    expect(await step('Build your first automation').textContent()).toContain('(to do)');
    await bothWidths('home-two-done');
  });

  it('an automation from a template → Send test with a new test contact → the filter note; Publish lists the filter and the changes', async () => {
    const { page, baseUrl } = hub;
    await page.goto(`${baseUrl}/automations/new`);
    await page.getByRole('heading', { name: 'Start from a template' }).waitFor();
    await page.getByLabel('Project', { exact: true }).waitFor();
    expect(await page.getByLabel('Project', { exact: true }).locator('option:checked').textContent()).toBe('Newsletter');
    await bothWidths('new-automation-templates');
    await page.getByRole('button', { name: 'Use this template: Re-engagement' }).click();
    await page.waitForURL(/\/automations\/[0-9a-f-]{36}\/build$/);
    await page.getByRole('heading', { name: 'Re-engagement', level: 1 }).waitFor();

    // No contact in the account: Send test offers to make one.
    await page.getByRole('heading', { name: 'No contact yet: create a test contact' }).waitFor();
    await page.getByLabel("Test contact's email").fill('me+test@fresh.example');
    await bothWidths('send-test-new-contact');
    await page.getByRole('button', { name: 'Create test contact' }).click();
    await page.getByRole('button', { name: 'Send test for Test contact' }).click();
    await page.getByText('Test contact does not match the filter “Tags contains "inactive"”').waitFor();
    await page.getByText('The test ran anyway.').waitFor();
    await bothWidths('send-test-filter-note');

    const dialog = page.getByRole('dialog');
    await page.getByRole('button', { name: 'Publish…' }).click();
    await dialog.getByText('Run only if:').waitFor();
    expect(await dialog.textContent()).toContain('Tags contains "inactive"');
    expect(await dialog.textContent()).toContain('After their last run ended');
    await bothWidths('publish-first');
    await dialog.getByRole('button', { name: 'Publish version 1' }).click();
    await page.getByText('Version 1 published.').waitFor();

    await page.getByLabel('Enroll a contact again').selectOption({ label: 'Each time the trigger fires' });
    await page.getByRole('button', { name: 'Publish…' }).click();
    const changes = dialog.getByRole('list', { name: 'Settings changed' });
    await changes.waitFor();
    expect(await changes.textContent()).toBe('Re-enrollment: After their last run ended → Each time the trigger fires');
    expect(await dialog.textContent()).toContain('Tags contains "inactive"');
    await bothWidths('publish-changes');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The checklist: project, workflow, automation and contact done; a key and real email to do.
    await page.goto(`${baseUrl}/home`);
    await page.getByText('4 of 6 done').waitFor();
    await page.getByRole('button', { name: 'Hide this checklist' }).click();
    await page.getByText('Getting started: 4 of 6 done.').waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Show the checklist' }).waitFor();
    await bothWidths('home-hidden');
  });
});
