// Outbox: SQL shared by the send steps (enqueue, in the step's transaction) and the sender.
import { queueReadiness, type Readiness } from '../db/queue-readiness.js';
import { accountMayWorkSql } from '../accounts/activity.js';
import type { Queryable } from '../db/db.js';
import { sqlList } from '../db/sql-list.js';
import { oneRow } from '../db/rows.js';
import { CONTACT_CHANNELS, IN_FLIGHT_OUTBOX_STATUSES, type OutboxStatus } from '../domain/message.js';
import { uuidv7 } from '../lib/ids.js';
import { redactAddresses } from './mask.js';
import type { OutboundMessage } from './types.js';

/** `'sending', 'unknown'` as SQL, built once: the fence of settle and requeue. */
const IN_FLIGHT = sqlList(IN_FLIGHT_OUTBOX_STATUSES);
/** `'email', 'sms'`: messages to a contact, whose suppression the claim reads. */
const TO_CONTACT = sqlList(CONTACT_CHANNELS);
import type { Queue } from '../queue/queue.js';
import type { SuppressionFacts } from './suppression.js';

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
  const [inserted] = rows;
  if (inserted) return { id: inserted.id, messageId: inserted.message_id, status: inserted.status, created: true };
  const existing = await tx.query<{ id: string; message_id: string; status: OutboxStatus }>(
    `select id, message_id, status from outbox where account_id = $1 and effect_key = $2`,
    [m.accountId, m.effectKey],
  );
  const row = oneRow(existing, 'the message already written under this effect key');
  return { id: row.id, messageId: row.message_id, status: row.status, created: false };
}

// ---- Sender side (docs/architecture.md §11): claim, settle, and call orphans unknown. ----

/** A row a sender has claimed (`sending`); `attempts` fences the outcome write to this claim. */
export interface ClaimedMessage {
  account_id: string;
  id: string;
  channel: OutboundMessage['channel'];
  to_address: string;
  subject: string | null;
  body: string;
  message_id: string;
  headers: Record<string, string>;
  /** This attempt's number (1 for the first). */
  attempts: number;
  /** When the first attempt was claimed (this one's time for a first attempt). */
  first_attempt_at: Date;
  /** The account was closed: the message is settled failed, unsent (accounts/activity.ts). */
  account_closed: boolean;
  /** The automation run and step that wrote it (null for messages outside a run). */
  automation_run_id: string | null;
  step_id: string | null;
  effect_key: string | null;
  /**
   * The contact of an email or text of a real (not test) automation run, as it is at the claim;
   * null for team notifications, test runs (sent to the person testing) and a contact gone.
   */
  recipient: Recipient | null;
}

/** What the send-time suppression check (suppression.ts) needs to know of a message's contact. */
export interface Recipient extends SuppressionFacts {
  /** The project's setting (default true: texts need the contact's consent). */
  sms_consent_required: boolean;
}

/** A row read with RECIPIENT_COLUMNS: the recipient's facts, each prefixed r_. */
export type RecipientColumns = { [K in keyof Recipient as `r_${K}`]: Recipient[K] | null } & { r_contact: boolean };
type ClaimedRow = Omit<ClaimedMessage, 'recipient'> & RecipientColumns;

/**
 * The contact a message to a contact goes to, as it is now (joined from the outbox row `o`):
 * that of the real (not test) automation run that wrote it, and its project's consent setting.
 * The claim reads it before every attempt, and a person's re-send before it queues one, so both
 * decide suppression on the same facts.
 */
export const RECIPIENT_JOINS = `
         left join automation_runs r
           on o.channel in (${TO_CONTACT}) and r.account_id = o.account_id and r.id = o.automation_run_id and not r.test
         left join contacts c on c.account_id = r.account_id and c.id = r.contact_id
         left join automations a on a.account_id = r.account_id and a.id = r.automation_id
         left join projects pr on pr.account_id = a.account_id and pr.id = a.project_id`;

/** The columns of RECIPIENT_JOINS that recipientOf reads. */
export const RECIPIENT_COLUMNS = `c.id is not null as r_contact, c.email as r_email, c.phone as r_phone,
              c.do_not_contact as r_do_not_contact, c.email_opt_out as r_email_opt_out, c.sms_stopped as r_sms_stopped,
              c.sms_consent as r_sms_consent,
              coalesce((pr.settings->>'sms_consent_required')::boolean, true) as r_sms_consent_required`;

/** The recipient a row of RECIPIENT_COLUMNS names, or null for a message to no contact. */
export function recipientOf(r: RecipientColumns): Recipient | null {
  return r.r_contact
    ? {
        email: r.r_email,
        phone: r.r_phone,
        do_not_contact: r.r_do_not_contact === true,
        email_opt_out: r.r_email_opt_out === true,
        sms_stopped: r.r_sms_stopped === true,
        sms_consent: r.r_sms_consent ?? 'none',
        sms_consent_required: r.r_sms_consent_required !== false,
      }
    : null;
}

/**
 * Claims up to `limit` due queued rows, earliest due first, in one statement. SKIP LOCKED lets
 * several senders claim side by side without ever taking the same row; the row is `sending`
 * before any transport sees it, so a sender that dies mid-send leaves evidence instead of a
 * re-sendable row. Every attempt is a claim, so what the claim re-reads is checked again before
 * every attempt: the account's state (accounts/activity.ts: a held account's rows are not
 * claimed, so they take no slot and wait where they stand; a closed account's are claimed to be
 * settled failed) and the contact's suppression.
 */
export async function claimQueued(db: Queryable, limit: number, owner: string | null = null): Promise<ClaimedMessage[]> {
  const rows = await db.query<ClaimedRow>(
    // The pick is a MATERIALIZED CTE: as an IN (subquery), the planner may run the LIMIT … SKIP
    // LOCKED subquery more than once (a nested loop), and each run locks other rows: a claim of 4
    // was seen taking 38. It also reads each message's contact as it is now (suppression is
    // decided again at the moment of sending, docs/architecture.md §11), in the same statement as
    // the claim.
    `with picked as materialized (
       select o.account_id, o.id, ac.state = 'closed' as account_closed,
              ${RECIPIENT_COLUMNS}
         from outbox o
         join accounts ac on ac.id = o.account_id${RECIPIENT_JOINS}
        where o.status = 'queued' and o.run_at <= now()
          and (${accountMayWorkSql('ac')} or ac.state = 'closed')
        order by o.run_at
        limit $1
        for no key update of o skip locked)
     update outbox o set status = 'sending', attempts = o.attempts + 1, claimed_at = now(), claimed_by = $2,
            first_attempt_at = coalesce(o.first_attempt_at, now())
       from picked p
      where o.account_id = p.account_id and o.id = p.id and o.status = 'queued'
      returning o.account_id, o.id, o.channel, o.to_address, o.subject, o.body, o.message_id, o.headers, o.attempts,
                o.first_attempt_at, p.account_closed, o.automation_run_id, o.step_id, o.effect_key,
                p.r_contact, p.r_email, p.r_phone, p.r_do_not_contact, p.r_email_opt_out, p.r_sms_stopped, p.r_sms_consent,
                p.r_sms_consent_required`,
    [limit, owner],
  );
  return rows.map(({ r_contact, r_email, r_phone, r_do_not_contact, r_email_opt_out, r_sms_stopped, r_sms_consent, r_sms_consent_required, ...m }) => ({
    ...m,
    account_closed: m.account_closed === true,
    recipient: recipientOf({ r_contact, r_email, r_phone, r_do_not_contact, r_email_opt_out, r_sms_stopped, r_sms_consent, r_sms_consent_required }),
  }));
}

/**
 * The outbox in the queue shape (src/queue/queue.ts) the engine's run queues share: one claim per
 * attempt, with no lease to renew (a claim is settled once, fenced on `attempts`).
 */
/** Messages due to be sent now, and the oldest one's wait (metrics). */
const outboxReadiness = (db: Queryable): Promise<Readiness> =>
  queueReadiness(db, 'outbox', `w.status = 'queued' and w.run_at <= now()`, accountMayWorkSql('ac'));

export const OUTBOX: Queue<ClaimedMessage> = Object.freeze({
  noun: 'message',
  table: 'outbox',
  readiness: outboxReadiness,
  claim: (db: Queryable, owner: string, _leaseMs: number, limit: number) => claimQueued(db, limit, owner),
});

/**
 * A final outcome. `error` is the operator's detail (outbox.error); `reason` is the address-free
 * text the attempt log and the run's step show.
 */
export type Outcome =
  | { status: 'sent'; transport: string }
  | { status: 'failed' | 'unknown'; transport: string; error: string; reason?: string; suppressed?: boolean };

/** One attempt, as the row's attempt_log keeps it. */
export interface AttemptEntry {
  at: string;
  outcome: 'sent' | 'retry' | 'failed' | 'unknown';
  reason: string | null;
  /** The transport that answered (smtp, http, outbox; none: held back before any transport). Absent in entries older than 0030's release. */
  transport?: string | null;
  /** The transport's own answer with addresses blanked (the hub's message page shows it); null for a delivery. */
  answer?: string | null;
}

// $5 is the transport; `answer` the slot of its answer, already blanked (redactAddresses): the log is shown in the hub.
const logEntry = (answer: string) =>
  `jsonb_build_array(jsonb_build_object('at', now(), 'outcome', $4::text, 'reason', $7::text, 'transport', $5::text, 'answer', ${answer}::text))`;

/**
 * Records what the transport said. Fenced on the claim (attempts); an `unknown` row is also
 * settled, because a late but definite answer (the sender was slow, not dead) is better than a
 * guess. Returns false when the row was not this claim's to settle. The attempt is logged; a late
 * answer replaces the log entry its unknown wrote.
 */
export async function settleMessage(
  db: Queryable,
  m: Pick<ClaimedMessage, 'account_id' | 'id' | 'attempts'>,
  outcome: Outcome,
): Promise<boolean> {
  const reason = outcome.status === 'sent' ? null : (outcome.reason ?? outcome.error);
  const rows = await db.query(
    `update outbox set status = $4::text, transport = $5,
            sent_at = case when $4::text = 'sent' then now() else null end, error = $6,
            attempt_log = case when status = 'unknown' and jsonb_array_length(attempt_log) > 0 then attempt_log - (-1) else attempt_log end
                          || ${logEntry('$8')}
      where account_id = $1 and id = $2 and attempts = $3 and status in (${IN_FLIGHT})
      returning id`,
    [
      m.account_id, m.id, m.attempts, outcome.status, outcome.transport, outcome.status === 'sent' ? null : outcome.error, reason,
      outcome.status === 'sent' ? null : redactAddresses(outcome.error),
    ],
  );
  return rows.length === 1;
}

/**
 * A refusal that may pass: the row goes back to `queued`, due in `delayMs`, with the attempt
 * logged. Fenced like settleMessage (a late answer after an unknown may also bring it back: the
 * message certainly did not leave).
 */
export async function requeueMessage(
  db: Queryable,
  m: Pick<ClaimedMessage, 'account_id' | 'id' | 'attempts'>,
  delayMs: number,
  transport: string,
  error: string,
  reason: string,
): Promise<boolean> {
  // Due on the database's clock, as the claim compares it.
  const rows = await db.query(
    `update outbox set status = 'queued', run_at = now() + $8::bigint * interval '1 millisecond', transport = $5, error = $6, claimed_at = null, claimed_by = null,
            attempt_log = case when status = 'unknown' and jsonb_array_length(attempt_log) > 0 then attempt_log - (-1) else attempt_log end
                          || ${logEntry('$9')}
      where account_id = $1 and id = $2 and attempts = $3 and status in (${IN_FLIGHT})
      returning id`,
    [m.account_id, m.id, m.attempts, 'retry', transport, error, reason, delayMs, redactAddresses(error)],
  );
  return rows.length === 1;
}

/** The attempts made so far for a message (tests, operators). */
export async function attemptLog(db: Queryable, accountId: string, id: string): Promise<AttemptEntry[]> {
  const rows = await db.query<{ attempt_log: AttemptEntry[] }>(`select attempt_log from outbox where account_id = $1 and id = $2`, [accountId, id]);
  return rows[0]?.attempt_log ?? [];
}

export const UNKNOWN_OUTCOME_ERROR = 'Delivery outcome unknown: the sender stopped mid-send; not resent';
export const UNKNOWN_OUTCOME_REASON = 'the sender stopped mid-send';

/** A row made unknown in bulk, with what the run's step needs. */
export interface OrphanRow {
  account_id: string;
  id: string;
  automation_run_id: string | null;
  step_id: string | null;
  effect_key: string | null;
}

/**
 * Rows left `sending` by a sender that stopped mid-send become `unknown`: the message may or may
 * not have left, and a duplicate is worse than a visible unknown, so nothing re-sends them.
 * `olderThanMs` null takes every `sending` row (a store only this process opens, at start).
 */
export async function markOrphansUnknown(db: Queryable, olderThanMs: number | null, exceptOwner: string | null = null): Promise<OrphanRow[]> {
  // A sender's own rows are never its orphans: it is still sending them (or settles them itself).
  return db.query<OrphanRow>(
    `update outbox set status = 'unknown', error = $1,
            attempt_log = attempt_log || jsonb_build_array(jsonb_build_object('at', now(), 'outcome', 'unknown', 'reason', $4::text))
      where status = 'sending' and ($2::bigint is null or claimed_at < now() - $2::bigint * interval '1 millisecond')
        and ($3::text is null or claimed_by is distinct from $3::text)
      returning account_id, id, automation_run_id, step_id, effect_key`,
    [UNKNOWN_OUTCOME_ERROR, olderThanMs, exceptOwner, UNKNOWN_OUTCOME_REASON],
  );
}

/** What a step's messages came to, for the engine and a run's detail. */
export interface StepMessageStatus {
  /** The status that matters most when a step sent several messages: unknown, failed, pending, sent. */
  status: OutboxStatus;
  /** The error of that message (failed, unknown), else null. */
  error: string | null;
  messages: number;
  sentAt: Date | null;
  /** Which transport settled it; `outbox` means stored in the outbox only (development). */
  transport: string | null;
}

// Worst first: what the step should show.
const SEVERITY: Record<OutboxStatus, number> = { unknown: 0, failed: 1, sending: 2, queued: 3, sent: 4 };

interface StepRow {
  step_id: string;
  status: OutboxStatus;
  error: string | null;
  sent_at: Date | null;
  transport: string | null;
}

function summarise(rows: StepRow[]): StepMessageStatus {
  const worst = rows.reduce((a, b) => (SEVERITY[b.status] < SEVERITY[a.status] ? b : a));
  const lastSent = rows.filter((r) => r.sent_at).map((r) => r.sent_at!.getTime());
  return {
    status: worst.status,
    error: worst.error,
    messages: rows.length,
    sentAt: worst.status === 'sent' && lastSent.length ? new Date(Math.max(...lastSent)) : null,
    transport: worst.transport,
  };
}

export async function messageStatusForStep(db: Queryable, accountId: string, runId: string, stepId: string): Promise<StepMessageStatus | null> {
  const rows = await db.query<StepRow>(
    `select step_id, status, error, sent_at, transport from outbox
      where account_id = $1 and automation_run_id = $2 and step_id = $3`,
    [accountId, runId, stepId],
  );
  return rows.length ? summarise(rows) : null;
}

/** The same for every step of a run in one query (a run's detail lists all its steps). */
export async function messageStatusesForRun(db: Queryable, accountId: string, runId: string): Promise<Map<string, StepMessageStatus>> {
  const rows = await db.query<StepRow>(
    `select step_id, status, error, sent_at, transport from outbox
      where account_id = $1 and automation_run_id = $2 and step_id is not null`,
    [accountId, runId],
  );
  const byStep = new Map<string, StepRow[]>();
  for (const r of rows) byStep.set(r.step_id, [...(byStep.get(r.step_id) ?? []), r]);
  return new Map([...byStep].map(([k, v]) => [k, summarise(v)]));
}

