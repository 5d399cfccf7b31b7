// Webhook triggers: SQL.
import type { Queryable } from '../../db/db.js';
import type { AccountState, Subscription } from '../../domain/account.js';
import { normaliseEmail } from '../../lib/email.js';
import { uuidv7 } from '../../lib/ids.js';

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

export async function setWebhookHash(db: Queryable, accountId: string, automationId: string, hash: string): Promise<boolean> {
  const rows = await db.query(`update automations set webhook_secret = $3 where account_id = $1 and id = $2 and deleted_at is null returning id`, [
    accountId,
    automationId,
    hash,
  ]);
  return rows.length > 0;
}

/** Whether the address was erased, by its HMACs under every erasure secret version still kept. */
export async function isErasedEmail(tx: Queryable, accountId: string, hmacs: readonly string[]): Promise<boolean> {
  const rows = await tx.query(`select 1 from erased_emails where account_id = $1 and email_hmac = any($2::text[]) limit 1`, [
    accountId,
    hmacs,
  ]);
  return rows.length > 0;
}

export interface WebhookContact {
  email: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
}

/** The contact with this email (any state), or a new one created from the webhook's fields. */
export async function findOrCreateContact(tx: Queryable, accountId: string, c: WebhookContact): Promise<{ id: string; created: boolean }> {
  const normalized = normaliseEmail(c.email);
  const id = uuidv7();
  const inserted = await tx.query<{ id: string }>(
    `insert into contacts (account_id, id, email, email_normalized, first_name, last_name, phone)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (account_id, email_normalized) where email_normalized is not null do nothing
     returning id`,
    [accountId, id, c.email.trim(), normalized, c.first_name ?? null, c.last_name ?? null, c.phone ?? null],
  );
  if (inserted.length) return { id, created: true };
  const rows = await tx.query<{ id: string }>(`select id from contacts where account_id = $1 and email_normalized = $2`, [accountId, normalized]);
  return { id: rows[0].id, created: false };
}
