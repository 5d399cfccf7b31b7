// The email telling a workflow's approvers that a run waits for them (issue 25): one per approver
// per wait, queued in the outbox (channel `team`, like an invitation) inside the transaction that
// parks the run, so it exists exactly when the wait does; its effect key (run, block, person)
// makes a second write for the same wait a no-op. Who: the people the block names
// (config.notify) who are users of the account, else the account's owners and admins. The email
// holds the names, the block's message and a link to the run page, never the draft (it may hold
// anything) and no secret.
import type { Queryable } from '../../db/db.js';
import { enqueueMessage } from '../../delivery/store.js';
import { approvalNoticeFacts } from './store.js';

export interface ApprovalWait {
  accountId: string;
  runId: string;
  blockId: string;
  /** The approval block's message to the approver (may be empty). */
  message: string;
  /** The addresses the block names (config.notify, in lower case); empty: the owners and admins. */
  notify: readonly string[];
  /** Where the hub is (delivery's linkBase). */
  base: string;
}

/** Queues one email per person told (see above); returns how many were written. */
export async function queueApprovalNotices(tx: Queryable, w: ApprovalWait): Promise<number> {
  const facts = await approvalNoticeFacts(tx, w.accountId, w.runId, w.notify);
  const link = `${w.base}/runs/${w.runId}`;
  const subject = `Approval needed: a run of "${facts.workflow_name}"`;
  const lines = [
    `A run of the workflow "${facts.workflow_name}" in ${facts.account_name} on Switchboard is waiting for approval.`,
    ...(w.message.trim() ? ['', `Message: ${w.message.trim()}`] : []),
    '',
    `Read the draft, then approve (editing it if you like) or reject it here:`,
    link,
    '',
    facts.named ? 'You get this email because the approval step of this workflow names you.' : 'You get this email because you are an owner or an admin of the account.',
  ];
  let written = 0;
  for (const u of facts.approvers) {
    const m = await enqueueMessage(tx, {
      accountId: w.accountId,
      channel: 'team',
      to: u.email,
      subject,
      body: lines.join('\n') + '\n',
      headers: {},
      automationRunId: null,
      stepId: null,
      effectKey: `approval:${w.runId}:${w.blockId}:${u.id}`,
    });
    if (m.created) written++;
  }
  return written;
}
