// Outbound messages (the outbox, docs/architecture.md §11): a send step writes its row in the same
// transaction as the step's state; a sender delivers rows queued → sending → sent | failed. A row
// found `sending` after a crash becomes `unknown` and is never re-sent.

/** email and sms go to the contact, team to people in the account. */
export const MESSAGE_CHANNELS = ['email', 'sms', 'team'] as const;
export type Channel = (typeof MESSAGE_CHANNELS)[number];

/** The channels addressed to the contact (its suppression applies); `team` goes to the account's people. */
export const CONTACT_CHANNELS = ['email', 'sms'] as const satisfies readonly Channel[];

export const OUTBOX_STATUSES = ['queued', 'sending', 'sent', 'failed', 'unknown'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * A claimed message whose answer may still come (`unknown`: the sender lost track of it). Settling
 * or re-queueing a message is fenced on these, so a late answer never overwrites a final one.
 */
export const IN_FLIGHT_OUTBOX_STATUSES = ['sending', 'unknown'] as const satisfies readonly OutboxStatus[];

/**
 * Whether a person may re-send a message in this status (the hub's Re-send, `messages retry`):
 * `ok` for a failed one (it certainly did not arrive); `needs_force` for an unknown one (it may
 * have arrived: only a person who accepts that it may arrive twice re-sends it); `refused` for
 * one sent, or still queued or being sent (the sender has it).
 */
export type ResendRule = 'ok' | 'needs_force' | 'refused';

export function resendRule(s: OutboxStatus): ResendRule {
  switch (s) {
    case 'failed':
      return 'ok';
    case 'unknown':
      return 'needs_force';
    case 'queued':
    case 'sending':
    case 'sent':
      return 'refused';
    default: {
      const never: never = s;
      throw new Error(`unknown message status ${String(never)}`);
    }
  }
}
