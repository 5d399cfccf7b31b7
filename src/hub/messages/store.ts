// Messages, read side: the account's outbox newest first, walking outbox_by_time (0022), each row
// with the automation and contact its run names. A list never selects the body, subject or
// headers (it shows what happened to a message, not what it said); one message's page reads its
// subject and body (getMessage: the route decides who sees them), and a run's page its subjects.
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';
import type { Channel, OutboxStatus } from '../../domain/message.js';
import { CONTACT_NAME_SQL } from '../../services/automation-runs/read-store.js';
import type { AttemptEntry } from '../../delivery/store.js';

export interface MessageRow {
  id: string;
  channel: Channel;
  status: OutboxStatus;
  to_address: string;
  automation_run_id: string | null;
  automation_id: string | null;
  automation_name: string | null;
  /** Sent by a test run (to the person testing, not the contact). */
  test: boolean;
  contact_id: string | null;
  contact_name: string | null;
  attempts: number;
  created_at: Date;
  sent_at: Date | null;
  error: string | null;
  /** Which transport settled it (`outbox`: the development one, nothing delivered). */
  transport: string | null;
}

export interface MessageFilters {
  status?: OutboxStatus;
  channel?: Channel;
  contactId?: string;
  automationId?: string;
}

const ORDER = new KeysetOrder('o.created_at', 'o.id', 'desc');

const SELECT = `
  select o.id, o.channel, o.status, o.to_address, o.automation_run_id, r.automation_id, a.name as automation_name,
         coalesce(r.test, false) as test, r.contact_id, ${CONTACT_NAME_SQL} as contact_name, o.attempts, o.created_at, o.sent_at, o.error, o.transport
    from outbox o
    left join automation_runs r on r.account_id = o.account_id and r.id = o.automation_run_id
    left join automations a on a.account_id = r.account_id and a.id = r.automation_id
    left join contacts c on c.account_id = r.account_id and c.id = r.contact_id`;

// A contact's or an automation's messages are those of its runs: the runs are found by their own
// indexes (automation_runs_by_contact, automation_runs_by_automation), the messages by outbox_by_step.
const OF_CONTACT = (slot: string) =>
  `o.automation_run_id in (select x.id from automation_runs x where x.account_id = $1 and x.contact_id = ${slot})`;
const OF_AUTOMATION = (slot: string) =>
  `o.automation_run_id in (select x.id from automation_runs x where x.account_id = $1 and x.automation_id = ${slot})`;

export async function listMessages(db: Queryable, accountId: string, f: MessageFilters, page: KeysetPage): Promise<MessageRow[]> {
  const w = new ListSql([accountId], ['o.account_id = $1'])
    .eq('o.status', f.status)
    .eq('o.channel', f.channel)
    .where(f.contactId, OF_CONTACT)
    .where(f.automationId, OF_AUTOMATION)
    .after(ORDER, page);
  return db.query<MessageRow>(`${SELECT} where ${w.sql} ${w.tail(ORDER, page)}`, w.params);
}

/** One message with what its page shows: the list's row plus subject, body, the step and the attempt log. */
export interface MessageDetailRow extends MessageRow {
  subject: string | null;
  body: string;
  step_id: string | null;
  step_name: string | null;
  transport: string | null;
  attempt_log: AttemptEntry[];
  /** The message this one re-sends, and the one that re-sent it (0034). */
  resend_of: string | null;
  resent_as: string | null;
}

export async function getMessage(db: Queryable, accountId: string, id: string): Promise<MessageDetailRow | null> {
  const rows = await db.query<MessageDetailRow>(
    `select x.*, o.subject, o.body, o.step_id, o.transport, o.attempt_log, o.resend_of,
            (select n.id from outbox n where n.account_id = o.account_id and n.resend_of = o.id) as resent_as,
            (select s.name from automation_run_steps s
              where s.account_id = o.account_id and s.run_id = o.automation_run_id and s.step_id = o.step_id
              order by s.seq limit 1) as step_name
       from (${SELECT} where o.account_id = $1 and o.id = $2) x
       join outbox o on o.account_id = $1 and o.id = x.id`,
    [accountId, id],
  );
  return rows[0] ?? null;
}

/** A message a run's step queued, as the run page links it. */
export interface RunMessageRow {
  id: string;
  step_id: string;
  channel: Channel;
  status: OutboxStatus;
  subject: string | null;
}

/** A run's messages, oldest first (outbox_by_step). */
export async function messagesOfRun(db: Queryable, accountId: string, runId: string): Promise<RunMessageRow[]> {
  return db.query<RunMessageRow>(
    `select id, step_id, channel, status, subject from outbox
      where account_id = $1 and automation_run_id = $2 and step_id is not null
      order by created_at, id`,
    [accountId, runId],
  );
}
