// What the hub's work-management write tests share: an account's people (an owner, two members)
// and a workmgmt:read key for reading back through /v1, and a signed-in client for each person.
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import type { TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { account } from '../http/fixtures.js';

/** An account fixture with the people every work test signs in as, and what `more` adds. */
export const workAccount = (ref: string, more: Record<string, unknown>) => ({
  ...account(ref, { keys: [{ ref: 'main', scopes: ['workmgmt:read'] }] }),
  users: [
    { ref: 'owner', email: `owner@${ref}.example`, role: 'owner' },
    { ref: 'olivia', email: `olivia@${ref}.example`, role: 'member', name: 'Olivia Lee' },
    { ref: 'sam', email: `sam@${ref}.example`, role: 'member', name: 'Sam' },
  ],
  ...more,
});

export interface WorkClients {
  owner: HubClient;
  member: HubClient;
  sam: HubClient;
  /** The owner of the account `other`: every acme id must look unknown to them. */
  other: HubClient;
}

export async function workClients(t: TestApp, s: Record<string, AccountSeedResult>): Promise<WorkClients> {
  const as = (ref: string, user: string) => hubClient(t, { accountId: s[ref].id, userId: s[ref].users[user], email: `${user}@${ref}.example` });
  return { owner: await as('acme', 'owner'), member: await as('acme', 'olivia'), sam: await as('acme', 'sam'), other: await as('other', 'owner') };
}
