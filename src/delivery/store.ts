// Outbox: SQL shared by the send steps (enqueue, in the step's transaction) and the sender.
import type { Queryable } from '../db/db.js';
import { uuidv7 } from '../lib/ids.js';
import type { OutboundMessage, OutboxStatus } from './types.js';

export interface EnqueuedMessage {
  id: string;
  messageId: string;
  status: OutboxStatus;
  /** false when the step had already written this message (a resumed step). */
  created: boolean;
}

/**
 * Writes the message to the outbox once per effect key. Call it inside the transaction that
 * records the step's state, so the message exists exactly when the step says it was sent.
 */
export async function enqueueMessage(tx: Queryable, m: OutboundMessage, messageDomain = 'switchboard.local'): Promise<EnqueuedMessage> {
  const id = uuidv7();
  const messageId = `<${id}@${messageDomain}>`;
  const rows = await tx.query<{ id: string; message_id: string; status: OutboxStatus }>(
    `insert into outbox (account_id, id, channel, status, to_address, subject, body, message_id, headers, automation_run_id, step_id, effect_key)
     values ($1, $2, $3, 'queued', $4, $5, $6, $7, $8, $9, $10, $11)
     on conflict (account_id, effect_key) where effect_key is not null do nothing
     returning id, message_id, status`,
    [m.accountId, id, m.channel, m.to, m.subject, m.body, messageId, JSON.stringify(m.headers), m.automationRunId, m.stepId, m.effectKey],
  );
  if (rows.length) return { id: rows[0].id, messageId: rows[0].message_id, status: rows[0].status, created: true };
  const existing = await tx.query<{ id: string; message_id: string; status: OutboxStatus }>(
    `select id, message_id, status from outbox where account_id = $1 and effect_key = $2`,
    [m.accountId, m.effectKey],
  );
  return { id: existing[0].id, messageId: existing[0].message_id, status: existing[0].status, created: false };
}

/** The wake-up channel for the sender: a commit with new outbox rows notifies it. */
export const OUTBOX_CHANNEL = 'switchboard_outbox';
