// Webhook triggers: SQL.
import type { Queryable } from '../../db/db.js';
import type { AccountState, Subscription } from '../../domain/account.js';

export interface WebhookAutomation {
  account_id: string;
  id: string;
  /** The owning account's state and subscription: the webhook answers the API's 403s for them. */
  state: AccountState;
  subscription: Subscription;
}

export async function automationByWebhookHash(db: Queryable, hash: string): Promise<WebhookAutomation | null> {
  const rows = await db.query<WebhookAutomation>(
    `select a.account_id, a.id, ac.state, ac.subscription
       from automations a join accounts ac on ac.id = a.account_id
      where a.webhook_secret = $1 and a.deleted_at is null`,
    [hash],
  );
  return rows[0] ?? null;
}
