// Re-sending a message, the SQL (service.ts has the rules): the message locked with what the
// rules read (its status, its re-send if any, its contact as the claim reads it), and the insert
// of the re-send, at most one per message.
import type { Queryable } from '../../db/db.js';
import { RECIPIENT_COLUMNS, RECIPIENT_JOINS, recipientOf, type Recipient, type RecipientColumns } from '../../delivery/store.js';
import type { Channel, OutboxStatus } from '../../domain/message.js';

export interface MessageToResend {
  account_id: string;
  id: string;
  channel: Channel;
  status: OutboxStatus;
  /** The contact of a message to a contact (the claim's reading); null for a team notice or a test run's message. */
  recipient: Recipient | null;
  /** The contact was erased at their request, or archived, since the message was written. */
  contact_erased: boolean;
  contact_archived: boolean;
}

type Row = Omit<MessageToResend, 'recipient'> & RecipientColumns;

/**
 * The message (of this account, or of any when accountId is null: the operator's CLI), locked
 * until the transaction ends, so two re-sends of it take turns.
 */
export async function lockMessageToResend(tx: Queryable, id: string, accountId: string | null): Promise<MessageToResend | null> {
  const rows = await tx.query<Row>(
    `select o.account_id, o.id, o.channel, o.status,
            c.erased_at is not null as contact_erased, c.archived_at is not null as contact_archived,
            ${RECIPIENT_COLUMNS}
       from outbox o${RECIPIENT_JOINS}
      where o.id = $1 and ($2::uuid is null or o.account_id = $2::uuid)
      for no key update of o`,
    [id, accountId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    account_id: r.account_id,
    id: r.id,
    channel: r.channel,
    status: r.status,
    recipient: recipientOf(r),
    contact_erased: r.contact_erased === true,
    contact_archived: r.contact_archived === true,
  };
}

/** The message that re-sent this one, if any (outbox_resends: there is at most one). */
export async function resentAs(db: Queryable, accountId: string, id: string): Promise<string | null> {
  const rows = await db.query<{ id: string }>(`select id from outbox where account_id = $1 and resend_of = $2`, [accountId, id]);
  return rows[0]?.id ?? null;
}

/**
 * Queues the re-send: a new row with the message's channel, recipient, subject, body, headers,
 * run and step, and its Message-ID (the same message: a mail client or SMS provider that did get
 * the first may drop the second), queued now with no attempts. No effect key: it is no step's
 * effect, so the sender never rewrites the run's step from it. Null when the message was re-sent
 * already (the unique index outbox_resends; its insert wakes the senders, 0007's trigger).
 */
export async function insertResend(tx: Queryable, accountId: string, id: string, newId: string): Promise<string | null> {
  const rows = await tx.query<{ id: string }>(
    `insert into outbox (account_id, id, channel, status, to_address, subject, body, message_id, headers, automation_run_id, step_id, resend_of)
     select account_id, $3, channel, 'queued', to_address, subject, body, message_id, headers, automation_run_id, step_id, id
       from outbox where account_id = $1 and id = $2
     on conflict (account_id, resend_of) where resend_of is not null do nothing
     returning id`,
    [accountId, id, newId],
  );
  return rows[0]?.id ?? null;
}
