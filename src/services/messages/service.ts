// Re-sending a message (the hub's Re-send, `switchboard messages retry`). Only a failed message is
// re-sent as a matter of course; an unknown one (the sender lost track of it mid-send: it may have
// arrived) only when the person forces it, accepting that it may arrive twice; a sent, queued or
// sending one never. The contact's suppression is checked again now, as the sender checks it
// before every attempt (and will again before this one).
//
// A re-send is a NEW outbox row naming the one it re-sends (resend_of), never the old row put back
// in the queue:
// - At most once holds per row, as the sender was built: a row is claimed once per attempt, and a
//   row that ended failed or unknown stays so. Re-queueing it would reopen a row whose first
//   claim's late answer may still come (an unknown row is settled by a late answer), mixing two
//   deliveries' outcomes in one row and one attempt count.
// - The history stays honest: the old row keeps its outcome and attempt log, the run's step keeps
//   what the run did (the re-send has no effect key, so the sender never rewrites the step), and
//   the re-send has its own status, attempts, retry window and audit entry.
// - Exactly one re-send per message, even when two people (or two processes) re-send at once:
//   the message row is locked for the decision, and a unique index (0034) refuses a second
//   re-send row outright. A re-send that fails can itself be re-sent: a chain, each link once.
// - It keeps the message's Message-ID: it is the same message, so a recipient's mail client or the
//   SMS provider (it is sent the id) can drop a copy of one that did arrive.
import type { Db, Queryable } from '../../db/db.js';
import { suppressedNow } from '../../delivery/sender.js';
import { ApiError } from '../../domain/errors.js';
import { resendRule, type OutboxStatus } from '../../domain/message.js';
import { uuidv7 } from '../../lib/ids.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { missing } from '../refusal.js';
import { insertResend, lockMessageToResend, resentAs, type MessageToResend } from './store.js';

const refuse = (message: string, resourceId?: string) => new ApiError('message_cannot_resend', message, resourceId ? { resourceId } : {});

/** Each message is re-sent once; its re-send (resource_id) is the one to re-send next. */
const alreadyResent = (again: string | null) =>
  refuse(`This message was re-sent already${again ? ` (message ${again})` : ''}; if that one failed too, re-send it instead.`, again ?? undefined);

/** Why a message in this status is not re-sent (resendRule said `refused`). */
function statusWords(s: Extract<OutboxStatus, 'queued' | 'sending' | 'sent'>): string {
  switch (s) {
    case 'sent':
      return 'This message was sent, so it is not sent again.';
    case 'queued':
      return 'This message is still waiting to be sent; there is nothing to re-send.';
    case 'sending':
      return 'This message is being sent right now; there is nothing to re-send.';
    default: {
      const never: never = s;
      throw new Error(`unknown message status ${String(never)}`);
    }
  }
}

/** Why this message must not go to its contact now, in a sentence; null when it may. */
function suppressionWords(m: MessageToResend): string | null {
  if (m.contact_erased) return 'Its contact was erased at their request, so nothing is sent to them again.';
  if (m.contact_archived) return 'Its contact is archived, so nothing is sent to them; restore the contact first.';
  const why = suppressedNow(m);
  return why ? `It cannot be re-sent now: ${why.replace(/^Not sent: /, '')}.` : null;
}

/** The refusal for this message and request, or null when it may be re-sent. */
async function refusal(tx: Queryable, m: MessageToResend, force: boolean): Promise<ApiError | null> {
  const rule = resendRule(m.status);
  if (rule === 'refused') return refuse(statusWords(m.status as 'queued' | 'sending' | 'sent'));
  if (rule === 'needs_force' && !force) {
    return refuse('The delivery of this message is unknown: it may have arrived already. Re-send it only if a second copy is acceptable (force).');
  }
  const again = await resentAs(tx, m.account_id, m.id);
  if (again) return alreadyResent(again);
  const suppressed = suppressionWords(m);
  return suppressed ? refuse(suppressed) : null;
}

/**
 * Re-sends a message: the new message queued, in the transaction that records the audit entry.
 * accountId null (the operator's CLI) finds the message in any account.
 */
export async function resendMessage(
  db: Db,
  a: { messageId: string; accountId: string | null; force: boolean; actor: Actor },
): Promise<{ id: string; accountId: string; resendOf: string }> {
  return db.transaction(async (tx) => {
    const m = await lockMessageToResend(tx, a.messageId, a.accountId);
    if (!m) throw missing('message', a.accountId ? `no message ${a.messageId} in account ${a.accountId}` : `no message ${a.messageId}`);
    const refused = await refusal(tx, m, a.force);
    if (refused) throw refused;
    const id = await insertResend(tx, m.account_id, m.id, uuidv7());
    // Another re-send got in first (it committed while this one waited on the lock).
    if (!id) throw alreadyResent(await resentAs(tx, m.account_id, m.id));
    await recordAudit(tx, {
      accountId: m.account_id,
      actor: a.actor,
      action: 'message.resent',
      objectKind: 'message',
      objectId: m.id,
      detail: { resent_as: id, channel: m.channel, was: m.status },
    });
    return { id, accountId: m.account_id, resendOf: m.id };
  }, { replayable: true, name: 'resend message' });
}
