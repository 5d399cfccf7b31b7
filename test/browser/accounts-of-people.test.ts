// Accounts of people in a real browser, with the development outbox (no real email): "Forgot your
// password?" says to ask an owner or admin; the owner sends a member a new set-password link from
// Users, the member sets a password through it in a browser of their own and signs in; on "Your
// profile" (from the top bar) the member changes their password and their other session is signed
// out while this one stays. Every screen: a screenshot and axe at 1280 px and at 390 px, and no
// sideways scrolling at 390 px on the screens this flow adds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHub, type Hub } from './harness.js';

const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };
const MEMBER = { email: 'max@acme.example', password: 'a member passphrase' };
const person = (ref: string, who: typeof OWNER, role: string, name: string) => ({ ref, email: who.email, role, password: who.password, name });

let hub: Hub;
beforeAll(async () => {
  hub = await openHub('accounts-of-people');
  const users = [person('olivia', OWNER, 'owner', 'Olivia Owner'), person('max', MEMBER, 'member', 'Max Member')];
  await hub.seed({ accounts: [{ ref: 'acme', name: 'Acme Ltd', users }] });
}, 180_000);
afterAll(() => hub?.close());

/** Screenshot and axe at laptop width, then at 390 px (no sideways scroll when `narrow`), then back. */
async function visitBothWidths(name: string, narrow = true): Promise<void> {
  const { page } = hub;
  expect(await hub.visit(name)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await hub.visit(`${name}-390`)).toEqual([]);
  if (narrow) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 860 });
}

describe('accounts of people', { timeout: 240_000 }, () => {
  it('forgot password without real email: the page says to ask an owner or admin', async () => {
    const { page } = hub;
    await page.goto(`${hub.baseUrl}/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?', level: 1 }).waitFor();
    await page.getByText('Ask an owner or admin of your account for a new set-password link').waitFor();
    expect(await page.getByLabel('Email').count()).toBe(0);
    await visitBothWidths('forgot-password-outbox');
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  });

  it('an owner sends a member a new link; the member sets a password through it and signs in; the old link is used up', async () => {
    const { page } = hub;
    await hub.signIn(OWNER.email, OWNER.password);
    await page.goto(`${hub.baseUrl}/users`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('button', { name: `New password link for ${MEMBER.email}` }).click();
    const dialog = page.getByRole('dialog', { name: /Send Max Member .* a new set-password link\?/ });
    await dialog.waitFor();
    await dialog.getByText('Their current password keeps working until they use the new link.').waitFor();
    await visitBothWidths('users-new-link-dialog', false);
    await dialog.getByRole('button', { name: 'Make the link' }).click();
    const link = page.getByLabel('Set-password link', { exact: true });
    await link.waitFor();
    await page.getByText(`A new set-password link for ${MEMBER.email}: give it to them.`).waitFor();
    const url = (await link.textContent())!;
    expect(url).toMatch(/\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    await visitBothWidths('users-new-link-shown', false);
    await page.getByRole('button', { name: 'Done' }).click();
    await link.waitFor({ state: 'detached' });
    // An owner's own row offers it too (owners may send anyone one).
    await page.getByRole('button', { name: `New password link for ${OWNER.email}` }).waitFor();

    const maxes = await hub.browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const p2 = await maxes.newPage();
      await p2.goto(url);
      await p2.getByText(MEMBER.email).first().waitFor();
      await p2.getByLabel('New password', { exact: true }).fill('max chose this one');
      await p2.getByLabel('New password again').fill('max chose this one');
      await p2.getByRole('button', { name: 'Set password and sign in' }).click();
      await p2.waitForURL((u) => !u.pathname.startsWith('/set-password'));
      await p2.locator('.user', { hasText: MEMBER.email }).waitFor();
      await p2.goto(url);
      await p2.getByRole('alert').filter({ hasText: 'unknown, used or expired' }).waitFor();
    } finally {
      await maxes.close();
    }
  });

  it('a member changes their password on Your profile: wrong current refused; then their other session is signed out, this one stays', async () => {
    const { page } = hub;
    await hub.signIn(MEMBER.email, 'max chose this one');
    // Another browser of Max's, signed in too.
    const other = await hub.browser.newContext({ viewport: { width: 1280, height: 860 } });
    try {
      const p2 = await other.newPage();
      const res = await p2.request.post(`${hub.baseUrl}/hub/api/session`, { data: { email: MEMBER.email, password: 'max chose this one' }, headers: { origin: hub.baseUrl } });
      expect(res.ok()).toBe(true);
      await p2.goto(`${hub.baseUrl}/runs`);
      await p2.locator('.user', { hasText: MEMBER.email }).waitFor();

      await page.goto(`${hub.baseUrl}/runs`);
      await page.getByRole('link', { name: new RegExp(`Your profile: ${MEMBER.email}`) }).click();
      await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
      await page.getByText('This hub cannot send email yet, so a new address cannot be confirmed here.').waitFor();
      await visitBothWidths('profile');

      await page.getByLabel('Current password').fill('not the password');
      await page.getByLabel('New password', { exact: true }).fill('an even newer password');
      await page.getByLabel('New password again').fill('an even newer password');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('alert').filter({ hasText: 'That is not your current password.' }).waitFor();
      await visitBothWidths('profile-wrong-password');

      await page.getByLabel('Current password').fill('max chose this one');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('status').filter({ hasText: /You were signed out everywhere else \(\d+ sessions?\); this one stays signed in\./ }).waitFor();
      await visitBothWidths('profile-password-changed');

      // The other browser is signed out; this one is not.
      await p2.reload();
      await p2.waitForURL(/\/sign-in/);
      await page.reload();
      await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();

      // A new name shows at once.
      await page.getByLabel('Your name').fill('Max M.');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByRole('status').filter({ hasText: 'Your name is saved.' }).waitFor();
    } finally {
      await other.close();
    }
  });
});
