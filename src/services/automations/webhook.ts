// An automation's inbound webhook (a webhook trigger): a new secret replaces the previous one, so
// the old URL stops working at once. The secret is shown once and only its hash is stored. The
// hub's "rotate secret" and `switchboard automations webhook` both come here (audited as
// automation.webhook_rotated; the entry never holds the secret).
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';
import { linkBase } from '../../delivery/unsubscribe.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { missing } from '../refusal.js';
import { setWebhookHash } from './store.js';

/** What is stored for a secret, and what an inbound call's secret is looked up by. */
export function webhookHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function webhookUrl(base: string, secret: string): string {
  return `${base}/hooks/automations/${secret}`;
}

export interface RotatedWebhook {
  url: string;
  secret: string;
}

/** A new secret for the automation's webhook; its URL is on the public base links use (linkBase). */
export async function rotateWebhook(
  db: Db,
  config: Pick<Config, 'delivery'>,
  a: { accountId: string; automationId: string },
  actor: Actor,
): Promise<RotatedWebhook> {
  const secret = randomBytes(32).toString('base64url');
  const base = await linkBase(db, config);
  await db.transaction(async (tx) => {
    if (!(await setWebhookHash(tx, a.accountId, a.automationId, webhookHash(secret)))) {
      throw missing('automation', `no automation ${a.automationId} in account ${a.accountId}`);
    }
    await recordAudit(tx, { accountId: a.accountId, actor, action: 'automation.webhook_rotated', objectKind: 'automation', objectId: a.automationId });
  });
  return { url: webhookUrl(base, secret), secret };
}
