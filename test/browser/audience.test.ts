// Contacts, Messages and Automations in a real browser. The server delivers email over SMTP to a
// sink on loopback (nothing leaves the machine). An account with a published automation (a new
// contact gets a welcome email): a contact created through /v1 with a key → the email reaches
// the sink → the message shows on the Messages screen and on the contact's page; the contact is
// then erased from its page with the typed confirmation → it is gone from the list and from /v1.
// Also: a contact created on the New contact page (a taken address refused first), and a waiting
// run stopped from its automation's page.
// Every screen: a screenshot and axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp, until, type TestSmtp } from '../delivery/support.js';
import { openHub, type Hub, type SeedOutput } from './harness.js';

const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };
const NEW_EMAIL = 'nina.new@example.org';

let hub: Hub;
let smtp: TestSmtp;
let seeded: SeedOutput['accounts'][string];

async function v1(path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${hub.baseUrl}/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${seeded.keys.crm}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  smtp = await startSmtp();
  hub = await openHub('audience', { SWITCHBOARD_EMAIL_TRANSPORT: 'smtp', SWITCHBOARD_SMTP_URL: smtp.url, SWITCHBOARD_EMAIL_FROM: 'hello@acme.example' });
  const out = await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        users: [{ ref: 'olivia', email: OWNER.email, role: 'owner', password: OWNER.password, name: 'Olivia Owner' }],
        keys: [{ ref: 'crm', name: 'CRM sync', scopes: ['contacts:read', 'contacts:write', 'automations:read'] }],
        projects: [{ ref: 'site', name: 'Website' }],
        automations: [
          {
            ref: 'welcome',
            name: 'Welcome',
            project: 'site',
            status: 'published',
            trigger: { type: 'contact.created', label: 'Contact is created', config: {} },
            steps: [
              { id: 'e1', name: 'Welcome email', type: 'email.send', config: { subject: 'Welcome, {{first_name}}', body: 'Hi {{first_name}}.' } },
              { id: 'w1', name: 'Wait a day', type: 'wait', config: { duration: 'P1D' } },
              { id: 'e2', name: 'Tips email', type: 'email.send', config: { subject: 'Tips', body: 'Some tips.' } },
            ],
          },
          { ref: 'later', name: 'Later', project: 'site', trigger: { type: 'manual', label: 'Enrolled by hand', config: {} }, steps: [] },
        ],
        contacts: [{ ref: 'kim', email: 'kim@example.org', first_name: 'Kim', lifecycle_stage: 'customer' }],
      },
    ],
  });
  seeded = out.accounts.acme;
  await hub.signIn(OWNER.email, OWNER.password);
}, 180_000);

afterAll(async () => {
  await hub?.close();
  await smtp?.close();
});

describe('audience flows', { timeout: 180_000 }, () => {
  let contactId: string;

  it('a contact created through /v1 gets the welcome email; Messages shows it, masked', async () => {
    const created = await v1('/contacts', { method: 'POST', body: JSON.stringify({ email: NEW_EMAIL, first_name: 'Nina', lifecycle_stage: 'lead' }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    contactId = created.body.id;
    await until(async () => smtp.received.some((m) => m.to.includes(NEW_EMAIL)), 60_000, 'the welcome email at the SMTP sink');

    const page = hub.page;
    await page.goto(`${hub.baseUrl}/messages`);
    // The sender settles the row just after the sink has the message: reload until it says sent.
    const row = page.locator('tr', { hasText: 'n***@example.org' });
    await until(async () => {
      if ((await row.count()) && /Sent/.test(await row.first().innerText())) return true;
      await page.reload();
      await page.waitForLoadState('networkidle');
      return false;
    }, 30_000, 'the message shown as sent');
    await expect(row.first().innerText()).resolves.toMatch(/Email[\s\S]*Sent[\s\S]*n\*\*\*@example\.org[\s\S]*Nina[\s\S]*Welcome/);
    expect(await page.content()).not.toContain(NEW_EMAIL);
    expect(await hub.visit('messages')).toEqual([]);

    // Filters live in the URL: a reload keeps them.
    await page.goto(`${hub.baseUrl}/messages?status=failed`);
    await page.getByText('No messages match.').waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('failed');
    expect(await hub.visit('messages-filtered')).toEqual([]);
  });

  it("the contact's page shows its fields and a timeline with its automation run and the message", async () => {
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/contacts`);
    await page.getByRole('link', { name: 'Nina' }).waitFor();
    expect(await hub.visit('contacts')).toEqual([]);
    await page.getByRole('link', { name: 'Nina' }).click();
    await page.getByRole('heading', { name: 'Nina', level: 1 }).waitFor();
    expect(page.url()).toBe(`${hub.baseUrl}/contacts/${contactId}`);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(NEW_EMAIL);
    // Its timeline: the message and the run (test/browser/journeys.test.ts follows them to their pages).
    const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
    await expect(timeline.innerText()).resolves.toMatch(/Email “Welcome, Nina”[\s\S]*Sent[\s\S]*Automation “Welcome”[\s\S]*Waiting/);
    await expect(timeline.innerText()).resolves.not.toMatch(/waiting\s+waiting/i);
    expect(await hub.visit('contact')).toEqual([]);

    // Edit a field: saved through the same rules as /v1.
    await page.getByLabel('Last name').fill('Newman');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await v1(`/contacts/${contactId}`)).body.last_name).toBe('Newman');
  });

  it('search and new contact keep their state in the URL', async () => {
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/contacts?q=kim`);
    await page.getByRole('link', { name: 'Kim' }).waitFor();
    expect(await page.getByRole('link', { name: 'Nina' }).count()).toBe(0);
    expect(await hub.visit('contacts-search')).toEqual([]);
    await page.goto(`${hub.baseUrl}/contacts/new`);
    await page.getByRole('heading', { name: 'New contact' }).waitFor();
    expect(await hub.visit('contact-new')).toEqual([]);
    // A taken address is refused in words with a link to the contact that has it, and on the
    // field; a new one opens the contact's page.
    await page.getByLabel('Email', { exact: true }).fill('KIM@example.org');
    await page.getByRole('button', { name: 'Create contact' }).click();
    const taken = page.getByRole('alert');
    await taken.getByText('A contact with this email already exists.').waitFor();
    expect(await taken.getByRole('link', { name: 'Open that contact' }).getAttribute('href')).toMatch(/^\/contacts\/[0-9a-f-]{36}$/);
    expect(await taken.innerText()).not.toMatch(/contact_exists|resource_id/);
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-describedby')).toBeTruthy();
    expect(await hub.visit('contact-new-refused')).toEqual([]);
    await page.getByLabel('Email', { exact: true }).fill('lou@example.org');
    await page.getByLabel('First name').fill('Lou');
    await page.getByRole('button', { name: 'Create contact' }).click();
    await page.getByRole('heading', { name: 'Lou', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/contacts\/[0-9a-f-]{36}$/);
  });

  it('Automations list the welcome automation with its counters; its page shows the run per contact', async () => {
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/automations`);
    const row = page.locator('tr', { hasText: 'Welcome' });
    await row.waitFor();
    await expect(row.innerText()).resolves.toMatch(/published/);
    expect(await hub.visit('automations')).toEqual([]);
    await page.getByRole('link', { name: 'Welcome' }).click();
    await page.getByRole('heading', { name: 'Welcome', level: 1 }).waitFor();
    const runsTable = page.getByRole('table', { name: /Runs of this automation/ });
    await expect(runsTable.locator('tr', { hasText: 'Nina' }).innerText()).resolves.toMatch(/Waiting/);
    expect(await hub.visit('automation')).toEqual([]);
    // Stop Nina's waiting run: confirmed, then shown as Stopped with the hub's reason.
    await page.getByRole('button', { name: 'Stop the run of Nina Newman' }).click();
    await page.getByRole('dialog', { name: 'Stop the run of Nina Newman?' }).getByRole('button', { name: 'Stop run' }).click();
    await runsTable.locator('tr', { hasText: 'Nina' }).getByText('Stopped in the hub').waitFor();
    expect(await hub.visit('automation-run-stopped')).toEqual([]);
    // Pause, then resume, from the page.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    expect((await v1(`/automations/${seeded.automations.welcome}`)).body.status).toBe('paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    expect((await v1(`/automations/${seeded.automations.welcome}`)).body.status).toBe('published');
  });

  it('erasing the contact from its page, with the typed confirmation, makes it gone', async () => {
    const page = hub.page;
    await page.goto(`${hub.baseUrl}/contacts/${contactId}`);
    await page.getByRole('button', { name: 'Erase contact…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this contact?' });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Erase', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type ${NEW_EMAIL} to confirm`).fill(NEW_EMAIL);
    expect(await hub.visit('contact-erase-dialog')).toEqual([]);
    await confirm.click();
    await page.waitForURL(`${hub.baseUrl}/contacts`);
    await page.getByRole('link', { name: 'Kim' }).waitFor();
    expect(await page.getByRole('link', { name: /Nina/ }).count()).toBe(0);
    expect(await hub.visit('contacts-after-erase')).toEqual([]);
    expect((await v1(`/contacts/${contactId}`)).status).toBe(404);
    // Its messages went with it; Lou's (created on the New contact page) are still there.
    await page.goto(`${hub.baseUrl}/messages`);
    await page.locator('tr', { hasText: 'l***@example.org' }).first().waitFor();
    expect(await page.locator('tr', { hasText: 'n***@example.org' }).count()).toBe(0);
  });
});
