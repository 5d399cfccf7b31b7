// First run in a real browser: a fresh server's / leads to the set-up page (through a proxy it
// asks for the token serve wrote to <data dir>/setup-token); creating the account and its owner signs the owner in and
// opens the shell; sign-out leads to the sign-in page, a wrong password is refused there with the
// server's message, and the right one opens the shell again. Every screen is screenshot and
// checked with axe (no serious or critical violation). The new account has no project: New
// automation says so and links to Content's New project, which creates one and opens it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'playwright-core';
import { openHub, type Hub } from './harness.js';

let hub: Hub;
beforeAll(async () => {
  hub = await openHub('first-run');
}, 120_000);
afterAll(() => hub?.close());

const OWNER = { account: 'Acme Outreach', name: 'Olivia Owner', email: 'olivia@acme.example', password: 'correct horse battery staple' };

describe('first run', { timeout: 180_000 }, () => {
  it('sets up the first account from /, signs in and out, and signs in again', async () => {
    const { page } = hub;
    // While the store has no account, serve wrote the set-up token to a file only its user may
    // read, and its log (JSON lines, not a terminal) names that file but never holds the token.
    const tokenFile = path.join(hub.dataDir, 'setup-token');
    const token = fs.readFileSync(tokenFile, 'utf8').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(hub.server.output()).not.toContain(token);
    const setupLine = hub.server.output().split('\n').filter((l) => l.includes('first-run set-up'));
    expect(setupLine).toHaveLength(1);
    expect(JSON.parse(setupLine[0])).toMatchObject({ level: 30, setupTokenFile: tokenFile, setupUrl: `${hub.baseUrl}/setup` });

    await page.goto(`${hub.baseUrl}/`);
    await page.waitForURL(/\/setup$/);
    // The heading waits on the set-up status the page asks for, so wait for it rather than glance.
    await page.getByRole('heading', { name: 'Set up Switchboard' }).waitFor();
    // A loopback visitor is not asked for the token.
    expect(await page.getByLabel('Set-up token').count()).toBe(0);
    expect(await hub.visit('setup')).toEqual([]);

    // Through a proxy (a forwarding header) the page asks for the token, and a wrong one is refused.
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.5' });
    await page.reload();
    const tokenField = page.getByLabel('Set-up token');
    await tokenField.waitFor();
    await page.getByLabel('Account name').fill(OWNER.account);
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await tokenField.fill('not-the-printed-token');
    await page.getByRole('button', { name: 'Create account' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/needs the set-up token the server wrote when it started\..*setup-token in the server’s data directory/s);
    expect(await refused.innerText()).not.toMatch(/setup_token_required/);
    await refused.getByText('Details').click();
    expect(await refused.innerText()).toMatch(/setup_token_required for setup_token · request id \S+/);
    expect(await tokenField.getAttribute('aria-invalid')).toBe('true');
    expect(await hub.visit('setup-token-refused')).toEqual([]);
    await tokenField.fill(token);
    await page.getByRole('button', { name: 'Create account' }).click();

    // Signed in, in the shell; the token is void, and its file gone.
    const signOut = page.getByRole('button', { name: 'Sign out' });
    await signOut.waitFor();
    expect(fs.existsSync(tokenFile)).toBe(false);
    await page.setExtraHTTPHeaders({});
    await page.getByText(OWNER.account).first().waitFor();
    await page.getByText(`${OWNER.email} · owner`).waitFor();
    expect(await hub.visit('shell')).toEqual([]);

    await signOut.click();
    await page.waitForURL(/\/sign-in/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await hub.visit('sign-in')).toEqual([]);
    // Set-up is over: /setup now leads to sign-in (and on to the shell, being signed in).
    await page.goto(`${hub.baseUrl}/setup`);
    await page.waitForURL(/\/sign-in/);
    // A signed-out visit to a page of the shell goes through sign-in and comes back to it.
    await page.goto(`${hub.baseUrl}/settings`);
    await page.waitForURL(/\/sign-in\?next=%2Fsettings$/);

    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('wrong password!!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    // A wrong password is an ordinary mistake: said plainly, with no code or request id at all.
    expect((await alert.innerText()).trim()).toBe('Wrong email or password.');
    expect(await alert.textContent()).not.toMatch(/sign_in_failed|request id/);
    expect(await alert.getByText('Details').count()).toBe(0);
    expect(await hub.visit('sign-in-refused')).toEqual([]);

    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect(await hub.visit('signed-in-again')).toEqual([]);

    // A reload keeps the session (the cookie).
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    // Signing out asks nothing more of the account: no screen of the shell is refusedAfterSignOut with a 401.
    const refusedAfterSignOut: string[] = [];
    const onResponse = (r: Response) => {
      if (r.status() >= 400) refusedAfterSignOut.push(`${r.status()} ${r.url()}`);
    };
    page.on('response', onResponse);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await hub.visit('signed-out')).toEqual([]);
    page.off('response', onResponse);
    expect(refusedAfterSignOut).toEqual([]);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  it("gives the new account its first project from New automation's link to Content", async () => {
    const { page } = hub;
    await page.goto(`${hub.baseUrl}/automations/new`);
    const link = page.getByRole('link', { name: 'Create a project in Content' });
    await link.waitFor();
    expect(await hub.visit('no-project-yet')).toEqual([]);
    await link.click();
    await page.waitForURL(/\/content\?new=project$/);
    await page.getByRole('heading', { name: 'New project' }).waitFor();
    await page.getByLabel('Name').fill('Newsletter');
    await page.getByLabel('Description (optional)').fill('The weekly digest');
    expect(await hub.visit('new-project')).toEqual([]);
    await page.getByRole('button', { name: 'Create project' }).click();
    // The new project opens on its own screen, and the automation form now offers it.
    await page.getByRole('heading', { name: 'Newsletter' }).waitFor();
    expect(page.url()).toMatch(/\/content\/[0-9a-f-]{36}$/);
    await page.getByText('The weekly digest').waitFor();
    expect(await hub.visit('project-created')).toEqual([]);
    await page.goto(`${hub.baseUrl}/automations/new`);
    const project = page.getByLabel('Project');
    await project.waitFor();
    expect(await project.locator('option:checked').textContent()).toBe('Newsletter');
  });
});
