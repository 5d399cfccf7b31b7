// The contact flags that inbound delivery events set: the email opt-out (unsubscribe link) and
// the SMS stop (STOP / START by text). Each changes the contact (updated_at) only when the flag
// actually changes, so repeating an unsubscribe or a STOP is a no-op.
import type { Queryable } from '../db/db.js';
import { oneRow } from '../db/rows.js';
import { accountMayWorkSql } from '../accounts/activity.js';

/** Sets email_opt_out; false when the contact does not exist in that account. */
export async function setEmailOptOut(db: Queryable, accountId: string, contactId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `with c as (select account_id, id, email_opt_out from contacts where account_id = $1 and id = $2),
          u as (update contacts t set email_opt_out = true, updated_at = clock_timestamp()
                  from c where t.account_id = c.account_id and t.id = c.id and not c.email_opt_out returning t.id)
     select id from c`,
    [accountId, contactId],
  );
  return rows.length === 1;
}

/** Digits and a leading + only: the number as it is shown (masked) in logs. */
export function normalisePhone(raw: string): string {
  const t = raw.trim();
  return (t.startsWith('+') ? '+' : '') + t.replace(/[^0-9]/g, '');
}

/** The digits alone: the form numbers are matched in (the index in 0016), "+" or not. */
export const phoneDigits = (raw: string): string => raw.replace(/[^0-9]/g, '');

/**
 * Sets or clears sms_stopped on every contact with this number, in every account: accounts own
 * no sending numbers yet, so the receiving number cannot say whose contact texted. A STOP is
 * honoured wherever the number appears (over-suppressing is the safe side), whatever the
 * account's state: an opt-out is the person's legal right and recording it sends nothing. A START
 * lifts the stop only in accounts that may work: a suspended, lapsed or closed account's contacts
 * are not changed on its behalf (the API refuses it writes too).
 */
export async function setSmsStopped(db: Queryable, phone: string, stopped: boolean): Promise<{ matched: number; changed: number }> {
  const rows = await db.query<{ matched: number; changed: number }>(
    `with m as (select account_id, id, sms_stopped from contacts
                 where phone is not null and regexp_replace(phone, '[^0-9]', '', 'g') = $1 and erased_at is null
                   and ($2::boolean or exists (select 1 from accounts a where a.id = contacts.account_id and ${accountMayWorkSql('a')}))),
          u as (update contacts t set sms_stopped = $2, updated_at = clock_timestamp()
                  from m where t.account_id = m.account_id and t.id = m.id and m.sms_stopped <> $2 returning t.id)
     select (select count(*) from m)::int as matched, (select count(*) from u)::int as changed`,
    [phoneDigits(phone), stopped],
  );
  return oneRow(rows, 'SMS stop counts');
}
