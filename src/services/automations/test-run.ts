// A builder's test run (docs/architecture.md §12.6), as the hub and `switchboard automations test`
// start one: it runs the draft as saved now, a given version, or the published version, for one
// contact; sends only to the person testing (their address is fixed on the run now), changes no
// records, and moves no counter (not last_run_at, not the enrollments; the one-active-run index
// leaves test runs out). Audited as automation.test_started in the same transaction.
//
// A test of the draft snapshots the draft's trigger and steps on the run (automation_runs.definition),
// so the executor runs exactly what was saved when the test started, and its `version` is 0: it
// runs no published version (0 is the spec's number for "the draft", as published_version is 0
// for a draft never published). A never-published automation can be tested this way; that is
// the point of testing before publishing.
//
// A test never applies the Run-only-if filter (it runs for the contact chosen), but it says
// whether the contact matches the filter of what it runs, so the person testing learns that a
// run started by the trigger would skip them (issue 25, item 10).
import type { Db, Queryable } from '../../db/db.js';
import type { Json } from '../../lib/json-fields.js';
import { uuidv7 } from '../../lib/ids.js';
import { evaluateCondition } from '../../engine/automations/conditions.js';
import { readContact } from '../../engine/automations/store.js';
import { publishedFilter } from '../../engine/automations/trigger-store.js';
import { missing, Refusal } from '../refusal.js';
import { enqueueAutomationRun } from '../../queue/enqueue.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { stepProblems } from './publish-rules.js';
import { contactStateForTest, findAutomationDraft, testerOf, versionExists } from './store.js';

/** Which definition a test runs: the draft as saved now, a version, or the published version. */
export type TestTarget = 'draft' | 'published' | { version: number };

export interface TestRunRequest {
  automationId: string;
  /** Narrows the automation to one account (the hub); null for the operator. */
  accountId?: string | null;
  contactId: string;
  userId: string;
  target?: TestTarget;
}

export interface StartedTestRun {
  id: string;
  account_id: string;
  automation_id: string;
  contact_id: string;
  /** The version it runs; 0 for a test of the draft. */
  version: number;
  draft: boolean;
  tester_email: string;
  /** The filter of what it runs and whether the contact matches it; null when it has none. */
  filter: TestFilter | null;
}

export interface TestFilter {
  condition: Record<string, unknown>;
  /** A run started by the trigger would run (true) or be skipped (false); the test ran either way. */
  matches: boolean;
  /** The filter could not be applied to this contact (a real run would skip them with this error). */
  error: string | null;
}

/**
 * The first step whose config fails its step schema, as `{path, message}` with the path inside a
 * definition (`steps[1].config.subject`); null when every step's config is complete.
 */
export function firstStepConfigProblem(steps: readonly Json[]): { path: string; message: string } | null {
  // The publish rule itself (one declaration): a test of the draft runs its steps, not its trigger or filter.
  return stepProblems(steps)[0] ?? null;
}

async function whatToRun(
  tx: Queryable,
  auto: { id: string; account_id: string; published_version: number; trigger: unknown; steps: Json[] },
  target: TestTarget,
): Promise<{ version: number; definition?: { trigger: unknown; steps: unknown } }> {
  if (target === 'draft') {
    if (!auto.steps.length) throw new Refusal(`automation ${auto.id} has no steps: add steps before testing the draft`, 'automation_not_publishable');
    const problem = firstStepConfigProblem(auto.steps);
    if (problem) throw new Refusal(`automation ${auto.id} cannot be tested: ${problem.path}: ${problem.message}`, 'automation_not_publishable', { param: problem.path });
    return { version: 0, definition: { trigger: auto.trigger, steps: auto.steps } };
  }
  if (target === 'published') {
    if (auto.published_version < 1) {
      throw new Refusal(`automation ${auto.id} has never been published: test its draft (--draft), or publish it first`, 'automation_status_conflict');
    }
    return { version: auto.published_version };
  }
  if (!(await versionExists(tx, auto.account_id, auto.id, target.version))) {
    throw missing('automation version', `automation ${auto.id} has no version ${target.version}`);
  }
  return { version: target.version };
}

/** Whether the contact matches the Run-only-if filter of the definition the test runs. */
async function filterVerdict(
  tx: Queryable,
  auto: { id: string; account_id: string; run_only_if: Record<string, unknown> | null },
  version: number,
  contactId: string,
): Promise<TestFilter | null> {
  const condition = version === 0 ? auto.run_only_if : await publishedFilter(tx, auto.account_id, auto.id, version);
  if (!condition) return null;
  const verdict = evaluateCondition(condition, await readContact(tx, auto.account_id, contactId, false));
  return 'error' in verdict ? { condition, matches: false, error: verdict.error } : { condition, matches: verdict.result, error: null };
}

export async function startTestRun(db: Db, a: TestRunRequest, actor: Actor): Promise<StartedTestRun> {
  return db.transaction(async (tx) => {
    const auto = await findAutomationDraft(tx, a.automationId, a.accountId ?? null);
    if (!auto || auto.deleted) throw missing('automation', `no automation ${a.automationId}`);
    const user = await testerOf(tx, auto.account_id, a.userId);
    if (!user) throw missing('user', `no user ${a.userId} in the automation's account`);
    const contact = await contactStateForTest(tx, auto.account_id, a.contactId);
    if (!contact || contact.archived) throw missing('contact', `no contact ${a.contactId} in the automation's account`);
    if (contact.erased) throw missing('contact', `contact ${a.contactId} was erased at their request`);
    const target = a.target ?? 'published';
    const { version, definition } = await whatToRun(tx, auto, target);
    const id = uuidv7();
    const who = user.name.trim() || user.email;
    await enqueueAutomationRun(tx, {
      accountId: auto.account_id,
      automationId: auto.id,
      version,
      startedBy: `Test by ${who}`,
      runs: [{ id, contactId: a.contactId }],
      testerEmail: user.email,
      definition,
    });
    const draft = target === 'draft';
    const filter = await filterVerdict(tx, auto, version, a.contactId);
    await recordAudit(tx, {
      accountId: auto.account_id,
      actor,
      action: 'automation.test_started',
      objectKind: 'automation',
      objectId: auto.id,
      detail: { run_id: id, contact_id: a.contactId, version, draft },
    });
    return { id, account_id: auto.account_id, automation_id: auto.id, contact_id: a.contactId, version, draft, tester_email: user.email, filter };
  });
}
