// Account → API keys in a real browser: an owner creates a key by clicking, uses its value against
// /v1 from the test, revokes it in the page (401 from the next request), and rolls a key with a
// 1-hour grace (old and new both work); a member finds no "API keys" in the menu, gets the
// server's refusal on /keys and 403 from its API. Every screen: a screenshot and axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHub, type Hub, type SeedOutput } from './harness.js';

const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };
const MEMBER = { email: 'mo@acme.example', password: 'another long passphrase' };

let hub: Hub;
let seeded: SeedOutput['accounts'][string];

beforeAll(async () => {
  hub = await openHub('keys');
  const out = await hub.seed({
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        users: [
          { ref: 'olivia', email: OWNER.email, role: 'owner', password: OWNER.password, name: 'Olivia Owner' },
          { ref: 'mo', email: MEMBER.email, role: 'member', password: MEMBER.password, name: 'Mo Member' },
        ],
        keys: [{ ref: 'seeded', name: 'Seeded', scopes: ['workflows:read'], created_by: 'olivia', monthly_spend_cap_micros: 5_000_000 }],
      },
    ],
  });
  seeded = out.accounts.acme;
  await hub.signIn(OWNER.email, OWNER.password);
}, 180_000);
afterAll(() => hub?.close());

/** GET /v1/workflows with the key, from Node (the API is for servers, not browsers). */
const workflows = async (key: string) => (await fetch(`${hub.baseUrl}/v1/workflows`, { headers: { authorization: `Bearer ${key}` } })).status;

describe('keys', { timeout: 180_000 }, () => {
  it('creates, uses, revokes and rolls keys; a member is refused', async () => {
    const { page } = hub;
    page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
    await page.goto(`${hub.baseUrl}/keys`);
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByRole('rowheader', { name: /^Seeded/ }).waitFor();
    expect(await hub.visit('keys')).toEqual([]);

    // Create a key by clicking; its value is shown once.
    await page.getByRole('button', { name: 'Create key' }).click();
    const form = page.getByRole('form', { name: 'New API key' });
    await form.getByLabel('Name', { exact: true }).fill('Browser key');
    await form.getByRole('checkbox', { name: 'workflows:read', exact: true }).check();
    await form.getByLabel('Monthly spend cap in US$ (optional)').fill('2.50');
    expect(await hub.visit('keys-create')).toEqual([]);
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('New API key value');
    await shown.waitFor();
    const value = (await shown.textContent())!.trim();
    expect(value).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
    await page.getByText('it will not be shown again').waitFor();
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    await page.getByRole('rowheader', { name: /^Browser key/ }).waitFor();
    expect(await hub.visit('keys-created')).toEqual([]);
    expect(await workflows(value)).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    // Revoke it in the page: the same request is refused from then on.
    await page.getByRole('button', { name: /^Revoke Browser key/ }).click();
    const confirmRevoke = page.getByRole('dialog', { name: 'Revoke Browser key?' });
    await confirmRevoke.waitFor();
    expect(await hub.visit('keys-revoke-dialog')).toEqual([]);
    await confirmRevoke.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('button', { name: /^Revoke Browser key/ }).waitFor({ state: 'detached' });
    expect(await workflows(value)).toBe(401);

    // Roll the seeded key with a 1-hour grace: the old and the new key both work.
    await page.getByRole('button', { name: /^Roll Seeded/ }).click();
    const rollDialog = page.getByRole('dialog', { name: 'Roll Seeded' });
    await rollDialog.getByLabel('Grace period for the old key').selectOption('1h');
    expect(await hub.visit('keys-roll-dialog')).toEqual([]);
    await rollDialog.getByRole('button', { name: 'Roll key' }).click();
    await shown.waitFor();
    const rolled = (await shown.textContent())!.trim();
    expect(rolled).not.toBe(seeded.keys.seeded);
    await page.getByText(/The old key svc_live_\w+… works until/).waitFor();
    expect(await workflows(seeded.keys.seeded)).toBe(200);
    expect(await workflows(rolled)).toBe(200);
    await page.getByText('rolled', { exact: true }).waitFor();
    expect(await hub.visit('keys-rolled')).toEqual([]);

    // A member: no "API keys" in the menu, one "Owners and admins only" state on /keys (asking
    // nothing the server would refuse), 403 from the API.
    await hub.context.clearCookies();
    await hub.signIn(MEMBER.email, MEMBER.password);
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/hub/api/') && r.status() === 403) refused.push(r.url());
    });
    await page.goto(`${hub.baseUrl}/keys`);
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByText('Owners and admins only.').waitFor();
    expect(refused).toEqual([]);
    expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await page.getByText(rolled).count()).toBe(0);
    expect(await hub.visit('keys-member')).toEqual([]);
    const api = await page.request.get(`${hub.baseUrl}/hub/api/keys`);
    expect(api.status()).toBe(403);
    expect((await api.json()).error.code).toBe('role_forbidden');
  });
});
