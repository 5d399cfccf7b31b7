// Account → Users, Settings and Audit log in a real browser: an owner invites a user and sees the
// one-time link, changes their role; the user sets a password through the link in a browser of
// their own; the owner removes them, renames the account and changes a project's
// settings, then finds each change in the audit log. Every screen: a screenshot and axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHub, type Hub } from './harness.js';

const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };
const MEMBER = { email: 'max@acme.example', password: 'a member passphrase' };

let hub: Hub;
beforeAll(async () => {
  hub = await openHub('people');
  await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        users: [
          { ref: 'olivia', email: OWNER.email, role: 'owner', password: OWNER.password, name: 'Olivia Owner' },
          { ref: 'max', email: MEMBER.email, role: 'member', password: MEMBER.password },
        ],
        projects: [{ ref: 'site', name: 'Website' }],
      },
    ],
  });
  await hub.signIn(OWNER.email, OWNER.password);
}, 180_000);
afterAll(() => hub?.close());

describe('people', { timeout: 180_000 }, () => {
  it('invites a user, changes their role, removes them; renames the account and changes a project; sees it all in the audit log', async () => {
    const { page } = hub;
    await page.goto(`${hub.baseUrl}/users`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Remove olivia@acme.example' }).waitFor();
    expect(await hub.visit('users')).toEqual([]);

    // Invite: the link is shown once, with a copy button.
    await page.getByLabel('Email', { exact: true }).fill('nina@acme.example');
    await page.getByLabel('Name (optional)').fill('Nina New');
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = page.getByLabel('Set-password link', { exact: true });
    await link.waitFor();
    const url = (await link.textContent())!;
    expect(url).toMatch(/\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copy link' }).waitFor();
    expect(await hub.visit('users-invited')).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByLabel('Set-password link', { exact: true }).waitFor({ state: 'detached' });

    // Change the role; the list reloads with it.
    const role = page.getByLabel('Role of nina@acme.example');
    await role.selectOption('admin');
    await page.waitForResponse((r) => r.url().endsWith('/hub/api/users') && r.request().method() === 'GET');
    await expect.poll(() => role.inputValue()).toBe('admin');

    // The last owner cannot be demoted: said in words with the next step; the code and request id
    // only behind Details.
    await page.getByLabel('Role of olivia@acme.example').selectOption('member');
    const refusal = page.getByRole('alert').filter({ hasText: 'its last owner cannot be removed or given another role' });
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/Make someone else an owner first\./);
    expect(await refusal.innerText()).not.toMatch(/last_owner|request id/);
    await refusal.getByText('Details').click();
    expect(await refusal.innerText()).toMatch(/last_owner · request id \S+/);

    // Nina opens the link in a browser of her own, sets a password and is signed in; the owner
    // then sees her password set.
    const ninas = await hub.browser.newContext({ viewport: { width: 1280, height: 860 } });
    try {
      const p2 = await ninas.newPage();
      await p2.goto(url);
      await p2.getByText('nina@acme.example').first().waitFor();
      await p2.getByLabel('New password', { exact: true }).fill('ninas own long passphrase');
      await p2.getByLabel('New password again').fill('ninas own long passphrase');
      await p2.getByRole('button', { name: 'Set password and sign in' }).click();
      await p2.waitForURL((u) => !u.pathname.startsWith('/set-password'));
      await p2.locator('.user', { hasText: 'nina@acme.example' }).waitFor();
      // The link is used up.
      await p2.goto(url);
      await p2.getByRole('alert').filter({ hasText: 'This link has been used or has expired.' }).waitFor();
    } finally {
      await ninas.close();
    }
    await page.reload();
    const ninaRow = page.getByRole('row').filter({ hasText: 'nina@acme.example' });
    await ninaRow.getByRole('cell', { name: 'Set', exact: true }).waitFor();

    // Remove, after confirming in the dialog.
    await page.getByRole('button', { name: 'Remove nina@acme.example' }).click();
    const dialog = page.getByRole('dialog', { name: /Remove Nina New/ });
    await dialog.waitFor();
    expect(await hub.visit('users-remove-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Remove user' }).click();
    await page.getByRole('button', { name: 'Remove nina@acme.example' }).waitFor({ state: 'detached' });

    // Settings: rename the account, change the project's settings.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const name = page.getByLabel('Account name');
    await expect.poll(() => name.inputValue()).toBe('Acme Ltd');
    expect(await page.getByText('Set by the operator of this Switchboard; ask them to change these.').count()).toBe(1);
    expect(await hub.visit('settings')).toEqual([]);
    await name.fill('Acme Group');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).first().waitFor();
    await page.getByLabel(/SMS consent required/).uncheck();
    await page.getByLabel('Automations per contact').fill('3');
    await page.getByRole('button', { name: 'Save settings of Website' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(2);
    // The top bar shows the new name (from the session).
    await page.locator('.account-name', { hasText: 'Acme Group' }).waitFor();

    // The audit log: each change, newest first, as a sentence naming who did it, linking what
    // still exists; the raw record only behind Details.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByRole('cell', { name: /changed the settings of the project Website/ }).waitFor();
    const sentences = await page.locator('.audit-table tbody tr td:nth-child(2)').allTextContents();
    expect(sentences.slice(0, 6)).toEqual([
      'Olivia Owner changed the settings of the project Website',
      'Olivia Owner renamed the account from “Acme Ltd” to Acme Group',
      'Olivia Owner removed nina@acme.example (admin)',
      'Nina New set their password with a one-time link',
      'Olivia Owner made nina@acme.example an admin (was member)',
      'Olivia Owner invited nina@acme.example as a member',
    ]);
    const first = page.locator('.audit-table tbody tr').first();
    expect(await first.getByRole('link', { name: 'Website' }).getAttribute('href')).toMatch(/^\/content\/[0-9a-f-]{36}$/);
    // Nina was removed: her entries name her without a link.
    expect(await page.locator('.audit-table tbody tr').nth(2).getByRole('link').count()).toBe(0);
    expect(await page.locator('.audit-table tbody').innerText()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-|\d\d:\d\d:\d\d\.\d|project\.settings_changed/);
    expect(await first.locator('td').first().innerText()).toMatch(/^today \d\d:\d\d/);
    await first.getByText('Details').click();
    expect(await first.innerText()).toMatch(/project\.settings_changed/);
    expect(await hub.visit('audit')).toEqual([]);

    // A filter is in the URL and survives a reload.
    await page.getByLabel('Action').selectOption('Role changed');
    await page.waitForURL(/action=user\.role_changed/);
    await page.reload();
    await page.getByRole('cell', { name: /made nina@acme\.example an admin/ }).waitFor();
    expect(await page.locator('.audit-table tbody tr').count()).toBe(1);
    expect(await page.getByRole('cell', { name: /admin/ }).count()).toBeGreaterThan(0);
    expect(await hub.visit('audit-filtered')).toEqual([]);
  });

  it('a member reads the settings but cannot change them, and has no Users or Audit log', async () => {
    const { page } = hub;
    await hub.signIn(MEMBER.email, MEMBER.password);
    await page.goto(`${hub.baseUrl}/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByText('Only owners and admins change these settings.').waitFor();
    expect(await page.getByLabel('Account name').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('button', { name: /Save/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    expect(await hub.visit('settings-member')).toEqual([]);
    // Typed in by hand, the Users page says whose it is, without asking the server to refuse.
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/hub/api/') && r.status() === 403) refused.push(r.url());
    });
    await page.goto(`${hub.baseUrl}/users`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByText('Owners and admins only.').waitFor();
    expect(await page.getByLabel('Email', { exact: true }).count()).toBe(0);
    expect(refused).toEqual([]);
    expect(await hub.visit('users-member')).toEqual([]);
  });
});
