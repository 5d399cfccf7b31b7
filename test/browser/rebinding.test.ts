// DNS rebinding in a real browser: chromium resolves rebind.attacker.example to 127.0.0.1 (as a
// rebound name would; the traffic stays on loopback), so a page at
// http://rebind.attacker.example:PORT is served by the hub on the operator's machine while set-up
// is open. The hub does not take it for its own: the set-up form asks for the token, and
// submitting is refused with words naming what the operator can set; nothing is created. The
// same browser at http://127.0.0.1:PORT sets up without a token. Screenshots and axe on each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHub, type Hub } from './harness.js';

const REBOUND = 'rebind.attacker.example';
let hub: Hub;
beforeAll(async () => {
  hub = await openHub('rebinding', {}, { browserArgs: [`--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`] });
}, 120_000);
afterAll(() => hub?.close());

const OWNER = { account: 'Acme', name: 'Olivia', email: 'olivia@acme.example', password: 'correct horse battery staple' };

describe('set-up through a rebound name', { timeout: 180_000 }, () => {
  it('asks for the token and refuses the page; from 127.0.0.1 the operator sets up as before', async () => {
    const { page } = hub;
    const port = new URL(hub.baseUrl).port;
    const evil = `http://${REBOUND}:${port}`;
    await page.goto(`${evil}/`);
    await page.waitForURL(/\/setup$/);
    expect(new URL(page.url()).hostname).toBe(REBOUND);
    const tokenField = page.getByLabel('Set-up token');
    await tokenField.waitFor();
    expect(await hub.visit('rebound-setup')).toEqual([]);

    await page.getByLabel('Account name').fill(OWNER.account);
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await tokenField.fill('a guess at the token');
    await page.getByRole('button', { name: 'Create account' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(new RegExp(`does not know ${evil.replace(/\./g, '\\.')} as one of its own addresses.*SWITCHBOARD_PUBLIC_URL.*SWITCHBOARD_HUB_ORIGINS`));
    expect(await hub.visit('rebound-setup-refused')).toEqual([]);

    // The operator's own browser tab: no token asked, and set-up works.
    await page.goto(`${hub.baseUrl}/setup`);
    await page.getByRole('heading', { name: 'Set up Switchboard' }).waitFor();
    expect(await page.getByLabel('Set-up token').count()).toBe(0);
    await page.getByLabel('Account name').fill(OWNER.account);
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    // Signed in at 127.0.0.1; the rebound name gets no session (the cookie is the browser's for
    // 127.0.0.1 anyway; the server would ignore one sent to that name too).
    await page.goto(`${evil}/settings`);
    await page.waitForURL(/\/sign-in/);
    expect(await hub.visit('rebound-sign-in')).toEqual([]);
  });
});
