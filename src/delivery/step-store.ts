// What a run's send step says once its messages are settled (issue 10: deliveries that tell the
// truth). A send step is `ok` when its message is queued; the sender settles the message later.
// When it ends not delivered, the step becomes `failed` ("Not delivered: …"); when its outcome is
// unknown, `unknown` ("Delivery unknown: …; not re-sent"); a message held back at the moment of
// sending (the contact opted out since) makes the step `skipped`, as the step's own check would
// have. A run that already ended `succeeded` becomes `failed` (failed_step_id: the step); a run
// still under way carries on, and the executor ends it `failed` instead of `succeeded`. The texts
// come from the attempt log's reasons, which never name an address, subject or body (spec rule 6).
import type { Queryable } from '../db/db.js';
import type { OutboxStatus } from '../domain/message.js';

export const NOT_DELIVERED = 'Not delivered: ';
export const DELIVERY_UNKNOWN = 'Delivery unknown: ';
/** The suppression check at the moment of sending says "Not sent: …" on the row (sender.ts). */
const SUPPRESSED = 'Not sent: ';

interface MessageRow {
  status: OutboxStatus;
  error: string | null;
  attempts: number;
  reason: string | null;
}

type StepVerdict = { status: 'ok'; error: null } | { status: 'failed' | 'unknown' | 'skipped'; error: string };

// Worst first: what the step should show.
const SEVERITY: Record<OutboxStatus, number> = { unknown: 0, failed: 1, sending: 2, queued: 3, sent: 4 };

function verdict(rows: MessageRow[]): StepVerdict {
  const delivered = rows.filter((r) => !(r.status === 'failed' && r.error?.startsWith(SUPPRESSED)));
  const first = rows[0];
  if (!delivered.length && first) return { status: 'skipped', error: first.error!.replace(/^Not sent: /, 'Skipped: ') };
  const worst = delivered.reduce((a, b) => (SEVERITY[b.status] < SEVERITY[a.status] ? b : a));
  const of = rows.length > 1 ? ` (${rows.filter((r) => r.status === worst.status).length} of ${rows.length} messages)` : '';
  if (worst.status === 'unknown') return { status: 'unknown', error: `${DELIVERY_UNKNOWN}${worst.reason ?? 'the outcome was not recorded'}; not re-sent${of}` };
  if (worst.status === 'failed') {
    const tries = worst.attempts > 1 ? `, after ${worst.attempts} attempts` : '';
    return { status: 'failed', error: `${NOT_DELIVERED}${worst.reason ?? 'refused'}${tries}${of}` };
  }
  return { status: 'ok', error: null };
}

/** A step status this module wrote (and so may rewrite when a late answer changes the outcome). */
const ours = (status: string, error: string | null) =>
  (status === 'failed' && !!error?.startsWith(NOT_DELIVERED)) || (status === 'unknown' && !!error?.startsWith(DELIVERY_UNKNOWN)) || (status === 'skipped' && !!error?.startsWith('Skipped: '));

/**
 * Brings the step that wrote a message (and its run) in line with its messages' outcomes. Call
 * it in the transaction that settled the message. It locks the run row first, as the executor's
 * every transaction does, so a run cannot end `succeeded` past a step this just marked.
 */
export async function reflectDelivery(tx: Queryable, accountId: string, runId: string, stepId: string, effectKey: string): Promise<void> {
  const run = await tx.query<{ status: string; failed_step_id: string | null; error: string | null }>(
    `select status, failed_step_id, error from automation_runs where account_id = $1 and id = $2 for no key update`,
    [accountId, runId],
  );
  const r = run[0];
  if (!r) return;
  // The ledger row of this visit of the step: a team notice's key is the step's key plus ':user'.
  const steps = await tx.query<{ seq: number; name: string; status: string; error: string | null; effect_key: string }>(
    `select seq, name, status, error, effect_key from automation_run_steps
      where account_id = $1 and run_id = $2 and step_id = $3 and effect_key is not null
        and ($4 = effect_key or starts_with($4, effect_key || ':'))
      order by seq desc limit 1`,
    [accountId, runId, stepId, effectKey],
  );
  const step = steps[0];
  if (!step || !(step.status === 'ok' || ours(step.status, step.error))) return;
  const messages = await tx.query<MessageRow>(
    `select status, error, attempts, attempt_log -> -1 ->> 'reason' as reason from outbox
      where account_id = $1 and automation_run_id = $2 and step_id = $3
        and (effect_key = $4 or starts_with(effect_key, $4 || ':'))`,
    [accountId, runId, stepId, step.effect_key],
  );
  if (!messages.length) return;
  const v = verdict(messages);
  if (v.status === step.status && v.error === step.error) return;
  await tx.query(`update automation_run_steps set status = $4, error = $5 where account_id = $1 and run_id = $2 and seq = $3`, [
    accountId,
    runId,
    step.seq,
    v.status,
    v.error,
  ]);
  const runError = (e: string) => `Failed: ${step.name}: ${e}`;
  if ((v.status === 'failed' || v.status === 'unknown') && (r.status === 'succeeded' || (r.status === 'failed' && r.failed_step_id === stepId))) {
    await tx.query(`update automation_runs set status = 'failed', failed_step_id = $3, error = $4 where account_id = $1 and id = $2`, [
      accountId,
      runId,
      stepId,
      runError(v.error),
    ]);
  } else if (r.status === 'failed' && r.failed_step_id === stepId && step.error && r.error === runError(step.error)) {
    // A late definite answer cleared what this step had said: the run is as it ended.
    await tx.query(`update automation_runs set status = 'succeeded', failed_step_id = null, error = null where account_id = $1 and id = $2`, [accountId, runId]);
  }
}

/**
 * For the executor, at the end of a run: the first send step whose message ended undelivered or
 * unknown, which makes the run `failed` instead of `succeeded`.
 */
export async function undeliveredStep(tx: Queryable, accountId: string, runId: string): Promise<{ step_id: string; name: string; error: string } | null> {
  const rows = await tx.query<{ step_id: string; name: string; error: string }>(
    `select step_id, name, error from automation_run_steps
      where account_id = $1 and run_id = $2
        and ((status = 'failed' and starts_with(error, $3)) or (status = 'unknown' and starts_with(error, $4)))
      order by seq limit 1`,
    [accountId, runId, NOT_DELIVERED, DELIVERY_UNKNOWN],
  );
  return rows[0] ?? null;
}
