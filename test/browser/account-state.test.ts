// In a real browser: the operator suspends an account (`switchboard account set`) while its owner
// works in the hub; the next page shows a banner saying the account is suspended, read-only, and
// to contact the operator, and a change is refused in words a person reads; the same for a plan
// that lapsed. Closing an account ends its sessions: the owner of a single account is sent to
// sign in; someone with another account is sent to the picker, which says which one was closed.
// Screenshots and axe at laptop width and at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHub, type Hub, type SeedOutput } from './harness.js';

const PW = 'correct horse battery staple';
let hub: Hub;
let ids: SeedOutput['accounts'];

beforeAll(async () => {
  hub = await openHub('account-state');
  const out = await hub.seed({
    accounts: [
      { ref: 'acme', name: 'Acme Ltd', users: [{ ref: 'olivia', email: 'olivia@acme.example', role: 'owner', password: PW, name: 'Olivia Owner' }], keys: [] },
      { ref: 'one', name: 'Account One', users: [{ ref: 'max', email: 'max@both.example', role: 'owner', password: PW, name: 'Max' }], keys: [] },
      { ref: 'two', name: 'Account Two', users: [{ ref: 'max', email: 'max@both.example', role: 'member', password: PW, name: 'Max' }], keys: [] },
    ],
  });
  ids = out.accounts;
}, 180_000);
afterAll(() => hub?.close());

async function accountSet(id: string, ...args: string[]): Promise<void> {
  const out = await hub.cli(['account', 'set', '--account', id, ...args]);
  expect(out.code, out.stderr).toBe(0);
}

/** Screenshot and axe at laptop width, then at 390 px, then back. */
async function visitBothWidths(name: string): Promise<void> {
  expect(await hub.visit(name)).toEqual([]);
  await hub.page.setViewportSize({ width: 390, height: 844 });
  expect(await hub.visit(`${name}-390`)).toEqual([]);
  await hub.page.setViewportSize({ width: 1280, height: 860 });
}

describe('an account the operator made read-only, or closed', { timeout: 240_000 }, () => {
  it('shows why on every page and refuses changes in words; a lapsed plan too', async () => {
    const { page } = hub;
    await hub.signIn('olivia@acme.example', PW);
    await page.goto(`${hub.baseUrl}/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(await page.getByText('This account is suspended.').count()).toBe(0);

    await accountSet(ids.acme.id, '--state', 'suspended');
    // The change the page did not know about yet is refused, and the banner comes up.
    await page.getByLabel('Account name').fill('Acme renamed');
    await page.getByRole('button', { name: 'Save name' }).click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/suspended, so it is read-only.*Ask the operator/);
    const banner = page.getByRole('status').filter({ hasText: 'This account is suspended.' });
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/read-only.*contact the operator of this Switchboard/);
    // The page reads the account again: its plan and limits show the new state.
    await page.getByRole('definition').filter({ hasText: /^suspended$/ }).waitFor();
    await visitBothWidths('suspended-settings');

    // Every page of the account shows it, from the first load.
    await page.goto(`${hub.baseUrl}/contacts`);
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await banner.waitFor();
    await visitBothWidths('suspended-contacts');

    await accountSet(ids.acme.id, '--state', 'active', '--subscription', 'lapsed');
    await page.reload();
    const lapsed = page.getByRole('status').filter({ hasText: "This account's plan has lapsed." });
    await lapsed.waitFor();
    expect(await lapsed.textContent()).toMatch(/read-only.*To renew it, contact the operator/);
    await visitBothWidths('lapsed-contacts');

    await accountSet(ids.acme.id, '--subscription', 'active');
    await page.reload();
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    expect(await page.getByText('read-only').count()).toBe(0);
  });

  it('sends the owner of a closed account to sign in at the next page', async () => {
    const { page } = hub;
    await page.goto(`${hub.baseUrl}/contacts`);
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await accountSet(ids.acme.id, '--state', 'closed');
    await page.getByRole('link', { name: 'Messages' }).click();
    await page.waitForURL(/\/sign-in/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('sends someone with another account to the picker, which names the closed one', async () => {
    const { page } = hub;
    await hub.signIn('max@both.example', PW);
    await page.goto(`${hub.baseUrl}/accounts`);
    await page.getByRole('button', { name: /Account One/ }).click();
    await page.getByText('max@both.example · owner').waitFor();
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();

    await accountSet(ids.one.id, '--state', 'closed');
    await page.getByRole('link', { name: 'Messages' }).click();
    await page.waitForURL(/\/accounts/);
    const note = page.getByRole('status').filter({ hasText: 'has been closed' });
    await note.waitFor();
    expect(await note.textContent()).toMatch(/The account Account One has been closed, so you can no longer work in it\./);
    expect(await page.getByRole('button', { name: /Account One/ }).count()).toBe(0);
    await visitBothWidths('closed-picker');
    await page.getByRole('button', { name: /Account Two/ }).click();
    await page.getByText('max@both.example · member').waitFor();
  });
});
