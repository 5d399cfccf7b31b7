// Erasure at the person's request (docs/architecture.md §12.9), in one transaction: keep only an
// HMAC of the normalised address (so it is refused later), clear the contact's personal fields (the
// row stays: runs name it), stop their running and waiting automation runs, delete their messages.
import type { Db } from '../../db/db.js';
import { firstOf } from '../../lib/first.js';
import { ERASURE_SECRET, erasedEmailHmac } from '../../secrets/one-way.js';
import { loadSecrets } from '../../secrets/store.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { stopAutomationRun } from '../automation-runs/store.js';
import {
  activeRunIds,
  clearContact,
  deleteMessages,
  deleteStoredAnswers,
  lockForErasure,
  recordErasedAddress,
} from './store.js';

/** The error a run stopped by an erasure carries. */
export const STOPPED_BY_ERASURE = 'Contact erased at their request';

export type ErasureOutcome =
  | { status: 'not_found' }
  | { status: 'erased' | 'already_erased'; erasedAt: Date | null; runsStopped: number; messagesDeleted: number };

/** Erases the contact; with an actor, the audit log records it (counts only) in the same transaction. */
export async function eraseContact(db: Db, accountId: string, contactId: string, actor?: Actor): Promise<ErasureOutcome> {
  // Read (and created on first use) outside the transaction; the newest version keys new HMACs.
  const secret = firstOf(await loadSecrets(db, ERASURE_SECRET), 'the erasure secret');
  return db.transaction(async (tx) => {
    const c = await lockForErasure(tx, accountId, contactId);
    if (!c) return { status: 'not_found' } as const;
    if (c.email_normalized) await recordErasedAddress(tx, accountId, erasedEmailHmac(secret.secret, c.email_normalized));
    // Erasing again still sweeps what may have appeared since (it finds nothing in the usual case).
    let runsStopped = 0;
    for (const runId of await activeRunIds(tx, accountId, c.id)) {
      if (await stopAutomationRun(tx, accountId, runId, STOPPED_BY_ERASURE)) runsStopped++;
    }
    const messagesDeleted = await deleteMessages(tx, accountId, c);
    await deleteStoredAnswers(tx, accountId, c.id);
    if (c.erased_at) return { status: 'already_erased', erasedAt: c.erased_at, runsStopped, messagesDeleted } as const;
    await clearContact(tx, accountId, c.id);
    if (actor) {
      const detail = { runs_stopped: runsStopped, messages_deleted: messagesDeleted };
      await recordAudit(tx, { accountId, actor, action: 'contact.erased', objectKind: 'contact', objectId: c.id, detail });
    }
    return { status: 'erased', erasedAt: null, runsStopped, messagesDeleted } as const;
  });
}
