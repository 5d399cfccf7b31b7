// In a real browser: someone whose email opens two accounts signs in on the sign-in page, picks
// one on the account picker, switches to the other from the shell; a new owner made by
// `account create` opens the printed one-time link, sets a password (typed twice) and lands
// signed in; the same link a second time says it is used. Screenshots and axe on every screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHub, type Hub } from './harness.js';

let hub: Hub;
const PW = 'correct horse battery staple';
beforeAll(async () => {
  hub = await openHub('accounts');
  const user = (role: string) => ({ ref: 'multi', email: 'multi@both.example', role, password: PW, name: 'Max Multi' });
  await hub.seed({
    accounts: [
      { ref: 'one', name: 'Account One', users: [user('owner')], keys: [] },
      { ref: 'two', name: 'Account Two', users: [user('member')], keys: [] },
    ],
  });
}, 120_000);
afterAll(() => hub?.close());

describe('the account picker and set-password links', { timeout: 180_000 }, () => {
  it('picks and switches accounts after signing in', async () => {
    const { page } = hub;
    await page.goto(`${hub.baseUrl}/sign-in`);
    await page.getByLabel('Email').fill('multi@both.example');
    await page.getByLabel('Password').fill(PW);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/accounts/);
    await page.getByRole('heading', { name: 'Choose an account' }).waitFor();
    expect(await hub.visit('accounts')).toEqual([]);

    await page.getByRole('button', { name: /Account Two/ }).click();
    await page.getByText('multi@both.example · member').waitFor();
    expect(await hub.visit('shell-as-member')).toEqual([]);

    await page.getByRole('link', { name: 'Switch account' }).click();
    await page.waitForURL(/\/accounts/);
    expect(await page.getByRole('button', { name: /Account Two/ }).getAttribute('aria-current')).toBe('true');
    await page.getByRole('button', { name: /Account One/ }).click();
    await page.getByText('multi@both.example · owner').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
  });

  it('sets a password through a one-time link and signs in; the link then says it is used', async () => {
    const { page } = hub;
    const out = await hub.cli(['account', 'create', '--name', 'Beta', '--owner-email', 'bea@beta.example', '--json']);
    expect(out.code, out.stderr).toBe(0);
    const link = JSON.parse(out.stdout).set_password_url as string;
    expect(link.startsWith(`${hub.baseUrl}/set-password?token=`)).toBe(true);

    await page.goto(link);
    await page.getByText('bea@beta.example').waitFor();
    expect(await hub.visit('set-password')).toEqual([]);
    await page.getByLabel('New password', { exact: true }).fill('a fine new password');
    await page.getByLabel('New password again').fill('a different password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/differ/);
    await page.getByLabel('New password again').fill('a fine new password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByText('bea@beta.example · owner').waitFor();
    await page.getByText('Beta').first().waitFor();

    await page.goto(link);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/This link has been used or has expired.*invalid_link/);
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await hub.visit('set-password-used')).toEqual([]);
  });
});
