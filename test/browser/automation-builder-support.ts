// What the automation builder's browser flows share: the account they seed (an owner, a member, a
// key for /v1, a project and a contact), and screenshots of one part of a page.
import path from 'node:path';
import { until } from '../delivery/support.js';
import { openHub, SHOTS, type Hub } from './harness.js';

export const OWNER = { email: 'olivia@acme.example', password: 'correct horse battery staple' };
export const MEMBER = { email: 'mia@acme.example', password: 'another long pass phrase' };
export const NEW_EMAIL = 'nina.new@example.org';

export function fixture(automations: unknown[] = []) {
  return {
    accounts: [
      {
        ref: 'acme',
        name: 'Acme Ltd',
        users: [
          { ref: 'olivia', email: OWNER.email, role: 'owner', password: OWNER.password, name: 'Olivia Owner' },
          { ref: 'mia', email: MEMBER.email, role: 'member', password: MEMBER.password, name: 'Mia Member' },
        ],
        keys: [{ ref: 'crm', name: 'CRM sync', scopes: ['contacts:read', 'contacts:write', 'automations:read'] }],
        projects: [{ ref: 'site', name: 'Website' }],
        automations,
        contacts: [{ ref: 'kim', email: 'kim@example.org', first_name: 'Kim', lifecycle_stage: 'customer' }],
      },
    ],
  };
}

/** A screenshot of one part of the page (a step card, the email preview) beside the flow's screens. */
export async function shot(hub: Hub, flow: string, name: string, selector: string): Promise<void> {
  await hub.page.locator(selector).first().screenshot({ path: path.join(SHOTS, flow, `part-${name}.png`) });
}

/** Reloads the page (settled: its requests done) until `check` holds; the engine and the sender work on their own time. */
export async function reloadUntil(hub: Hub, check: () => Promise<boolean>, what: string): Promise<void> {
  await until(async () => {
    await hub.page.waitForLoadState('networkidle');
    if (await check()) return true;
    await hub.page.reload();
    return false;
  }, 30_000, what);
}


/** A hub with the fixture above and one draft automation, Drip (contact created → one email), signed in as the owner. */
export async function openWithDrip(flow: string): Promise<{ hub: Hub; automationId: string }> {
  const hub = await openHub(flow);
  const out = await hub.seed(
    fixture([
      {
        ref: 'drip',
        name: 'Drip',
        project: 'site',
        trigger: { type: 'contact.created', label: 'Contact is created', config: {} },
        steps: [{ id: 'email1', name: 'First email', type: 'email.send', config: { subject: 'Hello', body: 'Hello there.' } }],
      },
    ]),
  );
  await hub.signIn(OWNER.email, OWNER.password);
  return { hub, automationId: out.accounts.acme.automations.drip };
}
