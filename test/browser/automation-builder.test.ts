// The automation builder in a real browser, on a fresh server. Email goes over SMTP to a sink on
// loopback (nothing leaves the machine). Built by clicking and typing: a new automation (contact
// created → email → wait 1 minute → text), published after reviewing what will run; a contact
// created through /v1 starts a run (seen on the automation's page) and gets the email (seen in
// Messages); a change to the draft shows in the publish dialog's diff and becomes version 2 (seen
// in Versions, version 1 still readable), paused and resumed; a test run for a contact sends only
// to the person testing (marked Test in Messages). Every screen: a screenshot and axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp, until, type TestSmtp } from '../delivery/support.js';
import { openHub, type Hub, type SeedOutput } from './harness.js';
import { fixture, NEW_EMAIL, OWNER, reloadUntil, shot } from './automation-builder-support.js';

describe('building, publishing and testing an automation', { timeout: 240_000 }, () => {
  const FLOW = 'automation-builder';
  let hub: Hub;
  let smtp: TestSmtp;
  let seeded: SeedOutput['accounts'][string];
  let automationId: string;

  const v1 = async (p: string, init: RequestInit = {}) => {
    const res = await fetch(`${hub.baseUrl}/v1${p}`, {
      ...init,
      headers: { authorization: `Bearer ${seeded.keys.crm}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    });
    return { status: res.status, body: await res.json() };
  };

  /** The draft is saved as you go: wait for the status line to say so. */
  const saved = () => hub.page.getByText(/^Saved at /).waitFor();

  beforeAll(async () => {
    smtp = await startSmtp();
    hub = await openHub(FLOW, { SWITCHBOARD_EMAIL_TRANSPORT: 'smtp', SWITCHBOARD_SMTP_URL: smtp.url, SWITCHBOARD_EMAIL_FROM: 'hello@acme.example' });
    seeded = (await hub.seed(fixture())).accounts.acme;
    await hub.signIn(OWNER.email, OWNER.password);
  }, 180_000);

  afterAll(async () => {
    await hub?.close();
    await smtp?.close();
  });

  it('builds contact created → email → wait 1 minute → text by clicking and typing, and publishes it', async () => {
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/automations`);
    await page.getByText('No automations match.').waitFor();
    expect(await hub.visit('automations-empty')).toEqual([]);
    await page.getByRole('link', { name: 'New automation' }).click();
    await page.getByRole('heading', { name: 'New automation' }).waitFor();
    expect(await hub.visit('new-automation')).toEqual([]);
    await page.getByLabel('Name').fill('Welcome series');
    expect(await page.getByLabel('Project').inputValue()).toBe(seeded.projects.site);
    await page.getByLabel('Starts when').selectOption({ label: 'A contact is created' });
    await page.getByRole('button', { name: 'Create and open the builder' }).click();
    await page.waitForURL(/\/automations\/[0-9a-f-]{36}\/build$/);
    automationId = page.url().split('/').at(-2)!;
    await page.getByRole('heading', { name: 'Welcome series', level: 1 }).waitFor();
    await page.getByText('No steps yet: add the first one.').waitFor();
    expect(await hub.visit('builder-empty')).toEqual([]);

    // Email: the subject with a field inserted from the list, the body typed; previewed for the sample contact.
    await page.getByRole('button', { name: 'Add step as the first step' }).click();
    expect(await hub.visit('add-step-menu')).toEqual([]);
    await page.getByRole('button', { name: 'Send email' }).click();
    await page.getByRole('textbox', { name: 'Step name' }).fill('Welcome email');
    await page.getByRole('textbox', { name: 'Subject' }).fill('Welcome, ');
    await page.getByRole('group', { name: 'Insert a field into Subject' }).getByRole('button', { name: '{{first_name}}' }).click();
    expect(await page.getByRole('textbox', { name: 'Subject' }).inputValue()).toBe('Welcome, {{first_name}}');
    await page.getByRole('textbox', { name: 'Body (HTML)' }).fill('<p>Hi {{first_name}}, thanks for joining.</p>');
    const preview = page.frameLocator('iframe[title="Email preview of Welcome email"]');
    await preview.getByText('Hi Ada, thanks for joining.').waitFor();
    await page.getByText('Subject: Welcome, Ada').waitFor();

    // Wait one minute, from the presets.
    await page.getByRole('button', { name: 'Add step after Welcome email' }).click();
    await page.getByRole('button', { name: 'Wait', exact: true }).click();
    await page.getByRole('textbox', { name: 'Step name' }).last().fill('Wait a minute');
    await page.getByLabel('Wait for').selectOption({ label: '1 minute' });

    // A text: its segments and price as it is typed.
    await page.getByRole('button', { name: 'Add step after Wait a minute' }).click();
    await page.getByRole('button', { name: 'Send text message' }).click();
    await page.getByText('Empty: nothing to send yet.').waitFor();
    await page.getByRole('textbox', { name: 'Step name' }).last().fill('Welcome text');
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Hi {{first_name}}, welcome aboard!');
    await page.getByText(/1 segment \(GSM-7\) · 0\.8¢ per send/).waitFor();
    await saved();
    const flow = page.getByRole('list', { name: 'Steps, in the order they run' });
    await expect(flow.getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual(['Step 1: Welcome email', 'Step 2: Wait a minute', 'Step 3: Welcome text']);
    expect(await hub.visit('builder-three-steps')).toEqual([]);
    await shot(hub, FLOW, 'email-step', '#step-email1');
    await shot(hub, FLOW, 'text-step', '#step-sms1');

    // Saved as you go: the server holds the draft as built.
    const editor = await (await page.request.get(`${hub.baseUrl}/hub/api/automations/${automationId}/editor`)).json();
    expect(editor.draft.trigger.type).toBe('contact.created');
    expect(editor.draft.steps.map((s: { type: string }) => s.type)).toEqual(['email.send', 'wait', 'sms.send']);
    expect(editor.draft.steps[1].config).toEqual({ duration: 'PT1M' });
    expect(editor.problems).toEqual([]);

    // Publish, after reviewing what will run.
    await page.getByRole('button', { name: 'Publish…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish version 1?' });
    await dialog.getByRole('heading', { name: 'Steps added (3)' }).waitFor();
    await dialog.getByText('Starts when: A contact is created.').waitFor();
    expect(await hub.visit('publish-v1-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Publish version 1' }).click();
    await page.getByText('Version 1 published.').waitFor();
    await page.getByText('Version 1 runs').waitFor();
    const versions = page.getByRole('list', { name: 'Published versions, newest first' });
    await expect(versions.innerText()).resolves.toMatch(/Version 1[\s\S]*Olivia Owner/);
    expect(await hub.visit('published-v1')).toEqual([]);
    const a = await v1(`/automations/${automationId}`);
    expect(a.body).toMatchObject({ status: 'published', published_version: 1, has_unpublished_changes: false });
  });

  it('a contact created through /v1 starts a run (on the automation page) and gets the email (in Messages)', async () => {
    const created = await v1('/contacts', { method: 'POST', body: JSON.stringify({ email: NEW_EMAIL, first_name: 'Nina' }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await until(async () => smtp.received.some((m) => m.to.includes(NEW_EMAIL)), 60_000, 'the welcome email at the SMTP sink');
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/automations/${automationId}`);
    const runs = page.getByRole('table', { name: /Runs of this automation/ });
    await reloadUntil(hub, async () => (await runs.locator('tr', { hasText: 'Nina' }).count()) > 0 && /Waiting/.test(await runs.locator('tr', { hasText: 'Nina' }).innerText()), 'the run waiting after the email');
    // One status word (the badge says the label), and the version the run follows.
    const nina = await runs.locator('tr', { hasText: 'Nina' }).innerText();
    expect(nina).not.toMatch(/waiting\s+waiting/i);
    expect(nina).toMatch(/\bv 1\b/);
    expect(await hub.visit('automation-page-run')).toEqual([]);

    await page.goto(`${hub.baseUrl}/messages?automation_id=${automationId}`);
    const row = page.locator('tr', { hasText: 'n***@example.org' });
    await reloadUntil(hub, async () => (await row.count()) > 0 && /Sent/.test(await row.first().innerText()), 'the email shown as sent');
    await expect(row.first().innerText()).resolves.toMatch(/Email[\s\S]*Sent[\s\S]*Nina[\s\S]*Welcome series/);
    expect(await row.first().getByText('Test', { exact: true }).count()).toBe(0);
    expect(await hub.visit('messages-email')).toEqual([]);
  });

  it('a change to the draft shows in the publish dialog and becomes version 2; version 1 stays readable', async () => {
    const page = hub.page;
    const LONG_BODY = '<p>Hi {{first_name}}, thanks for joining. Here is everything you need to get started with us this week.</p>';
    await page.goto(`${hub.baseUrl}/automations/${automationId}`);
    await page.getByRole('link', { name: 'Open builder' }).click();
    await page.getByRole('heading', { name: 'Welcome series', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Edit settings of Welcome text' }).click();
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Hi {{first_name}}, welcome aboard! Reply STOP to stop.');
    await page.getByRole('button', { name: 'Edit settings of Welcome email' }).click();
    await page.getByRole('textbox', { name: 'Body (HTML)' }).fill(LONG_BODY);
    await page.getByRole('button', { name: 'Add step after Welcome text' }).click();
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('textbox', { name: 'Tag' }).fill('welcomed');
    await saved();
    await page.getByText('the draft has unpublished changes').waitFor();

    await page.getByRole('button', { name: 'Publish…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish version 2?' });
    await dialog.getByRole('heading', { name: 'Steps added (1)' }).waitFor();
    await expect(dialog.getByRole('region', { name: 'Steps added' }).innerText()).resolves.toMatch(/Add tag/);
    // Each changed setting with its old and new value, not just "settings".
    const changedText = await dialog.getByRole('list', { name: 'Changes to Welcome text' }).innerText();
    expect(changedText).toMatch(/Text: \W?Hi \{\{first_name\}\}, welcome aboard!\W? → \W?Hi \{\{first_name\}\}, welcome aboard! Reply STOP to stop\.\W?/);
    // A long value is cut in the line; its full text opens on request.
    const email = dialog.getByRole('list', { name: 'Changes to Welcome email' });
    await expect(email.innerText()).resolves.toMatch(/Body \(HTML\): \W?<p>Hi \{\{first_name\}\}, thanks for joining\.<\/p>\W? → \W?<p>Hi \{\{first_name\}\}, thanks for joining[^\n]*…/);
    await email.locator('summary').click();
    await email.getByText(LONG_BODY, { exact: true }).waitFor();
    expect(await dialog.getByRole('region', { name: 'Steps removed' }).count()).toBe(0);
    expect(await hub.visit('publish-v2-diff')).toEqual([]);
    await dialog.getByRole('button', { name: 'Publish version 2' }).click();
    await page.getByText('Version 2 published.').waitFor();
    const versions = page.getByRole('list', { name: 'Published versions, newest first' });
    await expect(versions.getByRole('listitem').allInnerTexts()).resolves.toEqual([expect.stringMatching(/Version 2[\s\S]*Olivia Owner/), expect.stringMatching(/Version 1[\s\S]*Olivia Owner/)]);
    expect((await v1(`/automations/${automationId}`)).body).toMatchObject({ published_version: 2, has_unpublished_changes: false });

    // Version 1, read-only: three steps, the text as it was.
    await page.getByRole('button', { name: 'View version 1' }).click();
    const view = page.getByRole('dialog', { name: 'Version 1 (read-only)' });
    await view.getByText(/Published .* by Olivia Owner/).waitFor();
    await expect(view.getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual(['Step 1: Welcome email', 'Step 2: Wait a minute', 'Step 3: Welcome text']);
    await view.getByText('“Hi {{first_name}}, welcome aboard!”').waitFor();
    expect(await view.getByRole('button', { name: /Delete|Move/ }).count()).toBe(0);
    expect(await hub.visit('version-1-view')).toEqual([]);
    await view.getByRole('button', { name: 'Close' }).click();

    // Pause and resume from the builder.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    expect((await v1(`/automations/${automationId}`)).body.status).toBe('paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    expect((await v1(`/automations/${automationId}`)).body.status).toBe('published');
  });

  it('Send test runs the draft for a chosen contact, sends only to the tester, and Messages marks it Test', async () => {
    const page = hub.page;
    const before = smtp.received.length;
    // The contact picker searches the hub's contacts list (a SearchPicker over /hub/api/contacts?q=).
    await page.getByLabel('Search contact for the test').fill('kim');
    await page.getByLabel('Contact for the test', { exact: true }).selectOption({ label: 'Kim (kim@example.org)' });
    expect(await page.getByLabel('Test', { exact: true }).inputValue()).toBe('');
    // What a tester would otherwise be surprised by: texts arrive by email, and waits really wait.
    await page.getByText(/a text arrives as an email titled “\[Test\] Text message”/).waitFor();
    await page.getByText(/Waits really wait/).waitFor();
    await page.getByRole('button', { name: 'Send test for Kim' }).click();
    await page.getByText(`Sent to ${OWNER.email}.`).waitFor();
    const steps = page.getByRole('list', { name: 'Steps of the test run' });
    await steps.getByText('Welcome email').waitFor();
    await steps.getByText('Wait a minute').waitFor();
    await until(async () => /Waiting/.test(await page.locator('.test-run').innerText()), 30_000, 'the test run waiting');
    expect(await page.locator('.test-run').innerText()).not.toMatch(/waiting\s+waiting/i);
    expect(await hub.visit('test-sent')).toEqual([]);
    await until(async () => smtp.received.slice(before).some((m) => m.to.includes(OWNER.email)), 60_000, 'the test email at the tester');
    expect(smtp.received.slice(before).some((m) => m.to.includes('kim@example.org'))).toBe(false);

    await page.getByRole('link', { name: 'See it in Messages' }).click();
    const row = page.locator('tr', { hasText: 'o***@acme.example' });
    await reloadUntil(hub, async () => (await row.count()) > 0 && /Sent/.test(await row.first().innerText()), 'the test email in Messages');
    await row.first().getByText('Test', { exact: true }).waitFor();
    expect(await hub.visit('messages-test')).toEqual([]);

    // On the automation's page the test of the draft says so, rather than "version 0".
    await page.goto(`${hub.baseUrl}/automations/${automationId}`);
    const kim = page.getByRole('table', { name: /Runs of this automation/ }).locator('tr', { hasText: 'Kim' });
    await kim.first().waitFor();
    await expect(kim.first().innerText()).resolves.toMatch(/draft \(test\)/);
    expect(await hub.visit('automation-page-test-run')).toEqual([]);
  });
});
