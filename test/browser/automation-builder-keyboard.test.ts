// The automation builder with the keyboard only, on a fresh server: add a step and open its
// settings (a step's problem shows on it and blocks Publish until fixed); a condition step's two
// sides and the Run-only-if filter; the webhook URL shown once and a schedule's next times; a
// member builds but cannot delete, an owner deletes after typing the name. Every screen: a
// screenshot and axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hub } from './harness.js';
import { MEMBER, openWithDrip, OWNER, shot } from './automation-builder-support.js';

describe('the builder with the keyboard only', { timeout: 180_000 }, () => {
  let hub: Hub;
  let automationId: string;

  beforeAll(async () => {
    ({ hub, automationId } = await openWithDrip('automation-builder-keyboard'));
  }, 180_000);

  afterAll(async () => {
    await hub?.close();
  });

  /** Presses Tab until the focus is on the element with this accessible name (at most 80 presses). */
  async function tabTo(name: string): Promise<void> {
    for (let i = 0; i < 80; i++) {
      await hub.page.keyboard.press('Tab');
      const focused = await hub.page.evaluate(`document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''`);
      if (focused === name) return;
    }
    throw new Error(`Tab never reached ${name}`);
  }
  const focusedLabel = () => hub.page.evaluate(`(() => { const e = document.activeElement; return e && e.labels && e.labels[0] ? e.labels[0].textContent : e?.getAttribute('aria-label') ?? e?.textContent ?? ''; })()`);

  it('adds a step and opens its settings without a mouse', async () => {
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/automations/${automationId}/build`);
    await page.getByRole('heading', { name: 'Drip', level: 1 }).waitFor();
    await tabTo('Add step after First email');
    await page.keyboard.press('Enter');
    // The menu opens with the focus on its first type; Escape closes it and returns the focus.
    expect(await focusedLabel()).toBe('Send email');
    await page.keyboard.press('Escape');
    expect(await focusedLabel()).toBe('Add step after First email');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Send text message');
    await page.keyboard.press('Enter');
    // The new step's settings are open, the focus on its name.
    expect(await focusedLabel()).toBe('Step name');
    await page.keyboard.type('Reminder text');
    // Saved with its text empty: the server's problem shows on the step and its field, and blocks Publish.
    const card = page.getByRole('article', { name: 'Step 2: Reminder text' });
    await card.getByText('1 problem').waitFor();
    await card.getByText('Fill in the text').waitFor();
    expect(await page.getByRole('button', { name: 'Publish…' }).isDisabled()).toBe(true);
    expect(await hub.visit('keyboard-step-problem')).toEqual([]);
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Text');
    await page.keyboard.type('See you soon');
    await card.getByText('1 problem').waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Publish…' }).isDisabled()).toBe(false);
    expect(await hub.visit('keyboard-step-added')).toEqual([]);

    // Close and open the first step's settings from the keyboard.
    await page.getByRole('button', { name: 'Edit settings of First email' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Close settings of First email' }).waitFor();
    await expect(page.getByRole('textbox', { name: 'Subject' }).inputValue()).resolves.toBe('Hello');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Edit settings of First email' }).waitFor();
    expect(await hub.visit('keyboard-settings')).toEqual([]);

    const editor = await (await page.request.get(`${hub.baseUrl}/hub/api/automations/${automationId}/editor`)).json();
    expect(editor.draft.steps.map((s: { name: string; type: string }) => [s.name, s.type])).toEqual([
      ['First email', 'email.send'],
      ['Reminder text', 'sms.send'],
    ]);
  });

  it('a condition step goes two ways, shown side by side; the Run-only-if filter is saved with the draft', async () => {
    const page = hub.page;
    await page.getByRole('button', { name: 'Add step after First email' }).click();
    await page.getByRole('button', { name: 'Condition', exact: true }).click();
    await page.getByLabel('Condition: value').selectOption('customer');
    await page.getByRole('button', { name: 'Add step after Reminder text' }).click();
    await page.getByRole('button', { name: 'End', exact: true }).click();
    await page.getByLabel('If no, go to').selectOption({ label: 'Step 4: End' });
    const yes = page.getByRole('group', { name: 'Condition: if yes' });
    const no = page.getByRole('group', { name: 'Condition: if no' });
    // Yes: on down the flow (the text, then the end); no: straight to the end.
    await expect(yes.getByRole('link').allTextContents()).resolves.toEqual(['Reminder text', 'End']);
    await expect(no.getByRole('link').allTextContents()).resolves.toEqual(['End']);
    await page.getByLabel('Run only if the contact matches a condition').check();
    await page.getByLabel('Run only if: value').selectOption('customer');
    await page.getByText(/^Saved at /).waitFor();
    expect(await hub.visit('condition-step')).toEqual([]);
    await shot(hub, 'automation-builder-keyboard', 'condition-step', '#step-branch1');

    const editor = await (await page.request.get(`${hub.baseUrl}/hub/api/automations/${automationId}/editor`)).json();
    expect(editor.draft.steps.map((s: { id: string }) => s.id)).toEqual(['email1', 'branch1', 'sms1', 'end1']);
    expect(editor.draft.steps[1]).toMatchObject({ type: 'branch', config: { field: 'lifecycle_stage', op: 'eq', value: 'customer' }, branches: { no: 'end1' } });
    expect(editor.draft.run_only_if).toEqual({ field: 'lifecycle_stage', op: 'eq', value: 'customer' });
    expect(editor.problems).toEqual([]);
  });

  it('a webhook trigger shows its new URL once; a schedule shows its next times', async () => {
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/automations/${automationId}/build`);
    await page.getByLabel('Starts when').selectOption({ label: 'A webhook is called' });
    await page.getByRole('button', { name: 'Make webhook URL' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'it is shown only once' });
    await expect(notice.locator('code').innerText()).resolves.toMatch(new RegExp(`^${hub.baseUrl}/hooks/automations/\\S+$`));
    await notice.getByRole('button', { name: 'Copy webhook URL' }).waitFor();
    await page.getByRole('button', { name: 'Rotate secret' }).waitFor();
    expect(await hub.visit('webhook-url')).toEqual([]);

    await page.getByLabel('Starts when').selectOption({ label: 'On a schedule' });
    await page.getByLabel('Cron schedule').fill('0 9 * * 1');
    await page.getByLabel('Time zone').selectOption('Europe/Paris');
    const next = page.getByRole('list', { name: "The schedule's next five times" });
    await next.getByRole('listitem').nth(4).waitFor();
    expect(await next.getByRole('listitem').count()).toBe(5);
    await page.getByLabel('Cron schedule').fill('61 * * * *');
    await page.getByText(/^Saved at /).waitFor();
    await page.locator('.field-error').first().waitFor();
    expect(await hub.visit('schedule')).toEqual([]);
    const editor = await (await page.request.get(`${hub.baseUrl}/hub/api/automations/${automationId}/editor`)).json();
    expect(editor.draft.trigger).toEqual({ type: 'schedule', label: 'On a schedule', config: { cron: '61 * * * *', timezone: 'Europe/Paris' } });
  });

  it('a member can open the builder but not delete; an owner deletes the automation after typing its name', async () => {
    const page = hub.page;
    await hub.signIn(MEMBER.email, MEMBER.password);
    await page.goto(`${hub.baseUrl}/automations/${automationId}`);
    await page.getByRole('link', { name: 'Open builder' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete…' }).count()).toBe(0);
    await page.goto(`${hub.baseUrl}/automations/${automationId}/build`);
    await page.getByText('Owners and admins change these in Settings.').waitFor();
    expect(await page.getByRole('link', { name: "Change the project's settings" }).count()).toBe(0);
    expect(await hub.visit('member-builder')).toEqual([]);

    await hub.signIn(OWNER.email, OWNER.password);
    await page.goto(`${hub.baseUrl}/automations/${automationId}`);
    // The page's Publish reviews first, in the builder's dialog.
    await page.getByRole('button', { name: 'Publish draft…' }).click();
    const review = page.getByRole('dialog', { name: 'Publish version 1?' });
    await review.getByRole('heading', { name: 'Steps added (4)' }).waitFor();
    await review.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Drip?' });
    const confirm = dialog.getByRole('button', { name: 'Delete automation' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type Drip to confirm').fill('Drip');
    expect(await hub.visit('delete-dialog')).toEqual([]);
    await confirm.click();
    await page.waitForURL(`${hub.baseUrl}/automations`);
    await page.getByText('No automations match.').waitFor();
    expect((await page.request.get(`${hub.baseUrl}/hub/api/automations/${automationId}`)).status()).toBe(404);
  });
});
