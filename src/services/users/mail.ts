// Email to the account's own people (an invitation, a new set-password link, a new address to
// confirm): queued in the outbox on channel `team`, in the caller's transaction, so the email
// exists exactly when its link does. Only with an SMTP transport: the development outbox would
// deliver nothing, so a link is shown or printed instead (or, for a link the person must receive
// themselves, not made at all).
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/db.js';
import { enqueueMessage } from '../../delivery/store.js';
import { uuidv7 } from '../../lib/ids.js';
import { getAccount } from '../../accounts/store.js';

/** True when an email queued now would actually leave (an SMTP transport is configured). */
export const sendsEmail = (config: Pick<Config, 'delivery'>): boolean => config.delivery.emailTransport === 'smtp';

export async function accountNameOf(tx: Queryable, accountId: string): Promise<string> {
  return (await getAccount(tx, accountId))?.name ?? '';
}

/** Queues one email; `kind` starts its effect key (one email per issued link, never deduplicated away). */
export async function queueTeamEmail(tx: Queryable, m: { accountId: string; kind: string; to: string; subject: string; body: string }): Promise<void> {
  await enqueueMessage(tx, {
    accountId: m.accountId,
    channel: 'team',
    to: m.to,
    subject: m.subject,
    body: m.body,
    headers: {},
    automationRunId: null,
    stepId: null,
    effectKey: `${m.kind}:${uuidv7()}`,
  });
}
