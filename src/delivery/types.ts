// Contracts for outbound messages (docs/architecture.md §11, transactional outbox): a send step
// writes its outbox row in the same transaction as the step's state; a sender delivers rows queued
// → sending → sent | failed. A row found `sending` after a crash becomes `unknown` and is never
// re-sent.
import type { Channel } from '../domain/message.js';

export interface OutboundMessage {
  accountId: string;
  channel: Channel;
  to: string;
  subject: string | null;
  body: string;
  /** Extra headers (List-Unsubscribe for marketing email). */
  headers: Record<string, string>;
  automationRunId: string | null;
  stepId: string | null;
  /**
   * Unique per (run, step): the step records it before acting, so a resumed step finds the row it
   * already wrote instead of writing a second one.
   */
  effectKey: string;
}

/** Where outbox rows go once delivered: SMTP for email, an HTTP webhook for SMS, or nowhere (outbox only, development). */
export interface Transport {
  readonly name: string;
  /** true when this is a development transport (messages stay in the outbox; named in the banner). */
  readonly development: boolean;
  send(msg: { to: string; subject: string | null; body: string; headers: Record<string, string>; messageId: string }): Promise<void>;
  /** Releases connections (SMTP pool) when the sender stops. */
  close?(): Promise<void> | void;
}
