// Executes one claimed automation run: the trigger step `t` first, then the steps of the version
// the run is pinned to, in array order unless a step names `next` or is a branch. The step ledger
// (automation_run_steps) says where a run is, so any worker can resume it: after its last `ok` or
// `skipped` step, at a `waiting` wait that came due, or at a step left `running` by a worker that
// died (run again under the same effect key: its effect commits with its `ok`, so it happens once).
// Every transaction starts with the run's fence; a worker that lost the run writes nothing.
import type { Queryable } from '../../db/db.js';
import { notifyOutbox } from '../../queue/enqueue-store.js';
import { undeliveredStep } from '../../delivery/step-store.js';
import type { EngineResources } from '../types.js';
import type { Outputs } from './conditions.js';
import { Lease, LeaseLost } from '../../queue/lease.js';
import type { ClaimedAutomationRun } from '../../queue/automation-run-store.js';
import { AccountNotActive, assertAccountActive, interruption } from '../account-hold.js';
import { STEP_KINDS, type AutomationStep, type RunInfo, type StepOutcome } from './steps.js';
import {
  endStep,
  endWaiting,
  finishAutomationRun,
  holdAutomationRun,
  holdWaiting,
  insertStep,
  loadAutomationRun,
  loadLedger,
  parkWaiting,
  readContact,
  touchRun,
  type AutomationFinal,
} from './store.js';
import type { StepContactRow } from '../../domain/contact.js';
import { SENDING_STEPS } from '../../domain/automation.js';
import { isPermanentFailure } from '../../lib/retry.js';

export type AutomationOutcome =
  | { status: AutomationFinal | 'held' | 'lost' }
  /** Parked at a wait until `due` (the engine may set a timer when that is sooner than its poll). */
  | { status: 'waiting'; due: Date };

/** A run taken over this many times from workers that died is failed rather than retried forever. */
export const MAX_RECLAIMS = 25;
/** Step executions per run: `next` may point back, and a loop must not run forever. */
export const MAX_STEPS = 500;
/** A due waiting run of a paused automation is looked at again after this long (releaseHeldRuns: at once). */
export const HOLD_MS = 60_000;
export const TRIGGER_STEP_ID = 't';
/** Steps whose message the sender may later mark `failed`, `unknown` or `skipped` (delivery/step-store.ts). */
const SEND_STEPS: ReadonlySet<string> = new Set(SENDING_STEPS.map(([type]) => type));

const STOPPED = Symbol('stopped');
type Guarded = StepContactRow | null | typeof STOPPED;

function parseSteps(raw: unknown): AutomationStep[] | string {
  if (!Array.isArray(raw)) return 'the version has no step list';
  const out: AutomationStep[] = [];
  // Each element is parsed JSON (unknown), not `any`: only what is checked here is trusted.
  for (const [i, el] of (raw as unknown[]).entries()) {
    const s = el && typeof el === 'object' ? (el as Record<string, unknown>) : null;
    if (!s || typeof s.id !== 'string' || typeof s.type !== 'string') return `step ${i} has no id or type`;
    const config = s.config && typeof s.config === 'object' && !Array.isArray(s.config) ? (s.config as Record<string, unknown>) : {};
    // next and branches are taken as stored; a step that follows a bad one fails where it is read.
    const { next, branches } = s as Pick<AutomationStep, 'next' | 'branches'>;
    out.push({ id: s.id, name: typeof s.name === 'string' ? s.name : s.id, type: s.type, config, next, branches });
  }
  return out;
}

/**
 * Works the run until it ends, waits, is held or is lost. A run whose account stopped being
 * active is `stopped` ("Account closed") when the account is closed, else held: it keeps its step
 * and status, loses its lease, and the claim skips it until the account is active again.
 */
export async function executeAutomationRun(res: EngineResources, claimed: ClaimedAutomationRun, lease: Lease): Promise<AutomationOutcome> {
  try {
    return await new AutomationExecution(res, claimed, lease).run();
  } catch (err) {
    const why = await interruption(err, res.db, lease, holdAutomationRun);
    return { status: why === 'closed' ? 'stopped' : why };
  }
}

class AutomationExecution {
  private steps: AutomationStep[] = [];
  private info!: RunInfo;
  private readonly outputs: Outputs = {};
  /** Visits so far per step id, and the visit number of each ledger seq (see effectKey). */
  private readonly visitCounts = new Map<string, number>();
  private readonly visitOfSeq = new Map<number, number>();

  constructor(
    private readonly res: EngineResources,
    private readonly claimed: ClaimedAutomationRun,
    private readonly lease: Lease,
  ) {}

  async run(): Promise<AutomationOutcome> {
    const { db } = this.res;
    const { account_id: accountId, id: runId } = this.claimed;
    const def = await loadAutomationRun(db, accountId, runId);
    // Stopped or ended from outside since the claim: nothing to do.
    if (!def) throw new LeaseLost('the run is no longer active');
    if (this.claimed.reclaims > MAX_RECLAIMS) {
      return this.finish('failed', `Failed: the run was taken over ${MAX_RECLAIMS} times without finishing (its workers kept stopping)`);
    }
    if (def.automation_deleted) return this.finish('stopped', 'Stopped: the automation was deleted');
    if (def.trigger === null) return this.finish('failed', `Failed: version ${def.version} of the automation does not exist`);
    const parsed = parseSteps(def.steps);
    if (typeof parsed === 'string') return this.finish('failed', `Failed: ${parsed}`);
    this.steps = parsed;
    this.info = {
      accountId,
      runId,
      automationId: def.automation_id,
      projectId: def.project_id,
      keyId: def.key_id,
      contactId: def.contact_id,
      test: def.test,
      testerEmail: def.tester_email,
      // The project asks for SMS consent unless its settings say otherwise (docs/architecture.md
      // §12.3).
      smsConsentRequired: def.project_settings?.sms_consent_required !== false,
    };

    const ledger = await loadLedger(db, accountId, runId);
    for (const r of ledger) if (r.status === 'ok' && r.output) this.outputs[r.step_id] = r.output;
    for (const r of ledger) this.countVisit(r.step_id, r.seq);
    let last = ledger.at(-1);
    let seq = last ? last.seq + 1 : 1;
    if (!last) {
      const started = await this.fenced(TRIGGER_STEP_ID, async (tx) => {
        if ((await this.guard(tx, null)) === STOPPED) return false;
        const label = def.trigger?.label || 'Trigger';
        await insertStep(tx, { accountId, runId, seq, stepId: TRIGGER_STEP_ID, name: label, type: 'trigger', status: 'ok', effectKey: null });
        return true;
      });
      if (!started) return { status: 'stopped' };
      last = { seq, step_id: TRIGGER_STEP_ID, type: 'trigger', status: 'ok', output: null };
      ledger.push(last);
      seq++;
    }

    let current: AutomationStep | null | undefined;
    let resumeSeq: number | null = null;
    if (last.status === 'waiting') {
      // Pausing holds waiting runs (docs/architecture.md §12.5); a run already past its waits
      // carries on.
      if (def.automation_status === 'paused') return this.hold();
      const moved = await this.fenced(last.step_id, async (tx) => {
        if ((await this.guard(tx, last.seq)) === STOPPED) return 'stopped' as const;
        if (!(await endWaiting(tx, this.lease.fence))) {
          await parkWaiting(tx, this.lease.fence, def.next_at!);
          return 'early' as const;
        }
        await endStep(tx, accountId, runId, last.seq, 'ok', null);
        return 'on' as const;
      });
      if (moved === 'stopped') return { status: 'stopped' };
      if (moved === 'early') return { status: 'waiting', due: def.next_at! };
      current = this.successor(last.step_id, undefined);
    } else if (last.status === 'running') {
      current = this.byId(last.step_id);
      resumeSeq = last.seq;
    } else if (last.status === 'failed' && !SEND_STEPS.has(last.type)) {
      // The step's failure and the run's are written together: only a hand-made change gets here.
      // (A send step's `failed` may also be its message's verdict, written by the sender after the
      // step's `ok` committed: that run carries on, and ends failed at that step.)
      return this.finish('failed', `Failed: step ${last.step_id} failed`, last.step_id);
    } else {
      current = this.successor(last.step_id, typeof last.output?.branch === 'string' ? last.output.branch : undefined);
    }
    if (current === undefined) return this.finish('failed', `Failed: step ${last.step_id} is not in version ${def.version}`);

    for (let executions = ledger.length; current; executions++) {
      if (executions >= MAX_STEPS) return this.finish('failed', `Failed: more than ${MAX_STEPS} steps (does a "next" loop back?)`, current.id);
      const s = resumeSeq ?? seq++;
      if (resumeSeq === null) {
        this.countVisit(current.id, s);
        const step = current;
        const ok = await this.fenced(step.id, async (tx) => {
          if ((await this.guard(tx, null)) === STOPPED) return false;
          await insertStep(tx, { accountId, runId, seq: s, stepId: step.id, name: step.name, type: step.type, status: 'running', effectKey: this.effectKey(step, s) });
          return true;
        });
        if (!ok) return { status: 'stopped' };
      }
      resumeSeq = null;
      const r = await this.execute(current, s);
      if ('status' in r) return r;
      const next: AutomationStep | null | undefined = this.successor(current.id, r.branch);
      if (next === undefined) return this.finish('failed', `Failed: step ${current.id} leads to a step that does not exist`, current.id);
      current = next;
    }
    return this.finish('succeeded', null);
  }

  /** Which visit of its step the ledger row `seq` is (1 for the first); a loop visits a step again. */
  private countVisit(stepId: string, seq: number): void {
    const n = (this.visitCounts.get(stepId) ?? 0) + 1;
    this.visitCounts.set(stepId, n);
    this.visitOfSeq.set(seq, n);
  }

  /**
   * The key a step's effects (message, charge) are made once under: stable across a resume of the
   * same visit (so a crash never sends twice), distinct for a later visit through a loop (which
   * sends again, as the run says). The first visit keeps the plain `run:step` form.
   */
  private effectKey(step: AutomationStep, seq: number): string {
    const visit = this.visitOfSeq.get(seq) ?? 1;
    return visit <= 1 ? `${this.info.runId}:${step.id}` : `${this.info.runId}:${step.id}#${visit}`;
  }

  private byId(id: string): AutomationStep | undefined {
    return this.steps.find((s) => s.id === id);
  }

  /** The step after `id`: its branch's target, its `next`, else the next in array order; null = the end. */
  private successor(id: string, branch: string | undefined): AutomationStep | null | undefined {
    if (id === TRIGGER_STEP_ID) return this.steps[0] ?? null;
    const i = this.steps.findIndex((s) => s.id === id);
    const step = this.steps[i];
    if (!step) return undefined;
    const target = branch !== undefined && step.branches?.[branch] ? step.branches[branch] : step.next;
    if (typeof target === 'string') return this.byId(target);
    return this.steps[i + 1] ?? null;
  }

  /**
   * The contact, read (and locked) in this transaction. Erased or archived: the run stops here, in
   * the same transaction, and the step that was open shows why.
   */
  private async guard(tx: Queryable, openSeq: number | null): Promise<Guarded> {
    if (this.info.contactId === null) return null;
    const c = await readContact(tx, this.info.accountId, this.info.contactId, true);
    const why = !c || c.erased_at ? 'Stopped: contact was erased' : c.archived_at ? 'Stopped: contact was archived' : null;
    if (!why) return c;
    if (!(await finishAutomationRun(tx, this.lease.fence, 'stopped', why, null))) throw new LeaseLost('the lease was lost');
    if (openSeq !== null) await endStep(tx, this.info.accountId, this.info.runId, openSeq, 'skipped', why);
    return STOPPED;
  }

  /**
   * One step. A PermanentFailure it throws (a template that cannot be read, in a version
   * published before templates were checked, or written into the store by hand) would happen on
   * every attempt: the step's transaction rolled back, and the step and the run end `failed` in a
   * new one, with the failure's words. Anything else thrown is the engine's to retry.
   */
  private async execute(step: AutomationStep, seq: number): Promise<AutomationOutcome | { branch?: string }> {
    try {
      return await this.executeStep(step, seq);
    } catch (err) {
      if (!isPermanentFailure(err) || this.lease.lost) throw err;
      return this.fenced(step.id, (tx) => this.endFailed(tx, step, seq, err.message));
    }
  }

  /** The step ends `failed` with `error`, and the run with it (at this step), in the caller's fenced transaction. */
  private async endFailed(tx: Queryable, step: AutomationStep, seq: number, error: string): Promise<{ status: 'failed' }> {
    await endStep(tx, this.info.accountId, this.info.runId, seq, 'failed', error);
    const why = error.startsWith('Stopped:') ? error : `Failed: ${step.name}: ${error}`;
    if (!(await finishAutomationRun(tx, this.lease.fence, 'failed', why, step.id))) throw new LeaseLost('the lease was lost');
    return { status: 'failed' };
  }

  /** Prepares outside a transaction, then applies and records the result in one. */
  private async executeStep(step: AutomationStep, seq: number): Promise<AutomationOutcome | { branch?: string }> {
    const { accountId, runId } = this.info;
    const kind = STEP_KINDS.get(step.type);
    let prepared: unknown;
    if (kind?.prepare) {
      const snapshot = this.info.contactId ? await readContact(this.res.db, accountId, this.info.contactId, false) : null;
      prepared = await kind.prepare({ ...this.context(step, seq), contact: snapshot });
      if (this.lease.lost) return { status: 'lost' };
    }
    return this.fenced(step.id, async (tx) => {
      const contact = await this.guard(tx, seq);
      if (contact === STOPPED) return { status: 'stopped' as const };
      const outcome: StepOutcome = kind
        ? await kind.apply(tx, { ...this.context(step, seq), contact }, prepared)
        : { kind: 'failed', error: `unknown step type ${JSON.stringify(step.type)}` };
      switch (outcome.kind) {
        case 'ok':
          await endStep(tx, accountId, runId, seq, 'ok', null, outcome.output ?? null);
          if (outcome.output) this.outputs[step.id] = outcome.output;
          // Delivered on commit: the sender wakes for the row this transaction wrote.
          if (outcome.outbox) await notifyOutbox(tx);
          return { branch: outcome.branch };
        case 'skipped':
          await endStep(tx, accountId, runId, seq, 'skipped', outcome.error);
          return {};
        case 'failed':
          return this.endFailed(tx, step, seq, outcome.error);
        case 'wait':
          await endStep(tx, accountId, runId, seq, 'waiting', null);
          if (!(await parkWaiting(tx, this.lease.fence, outcome.due))) throw new LeaseLost('the lease was lost');
          return { status: 'waiting' as const, due: outcome.due };
        case 'end': {
          await endStep(tx, accountId, runId, seq, 'ok', null);
          const [final, error, failedStep] = await this.succeededUnlessUndelivered(tx);
          if (!(await finishAutomationRun(tx, this.lease.fence, final, error, failedStep))) throw new LeaseLost('the lease was lost');
          return { status: final };
        }
        case 'held':
          // Rolls the step's transaction back: nothing of it (message, charge, result) is kept.
          throw new AccountNotActive('held');
      }
    });
  }

  private context(step: AutomationStep, seq: number) {
    return {
      run: this.info,
      step,
      seq,
      effectKey: this.effectKey(step, seq),
      outputs: this.outputs,
      billing: this.res.billing,
      providers: this.res.providers,
      config: this.res.config,
      signal: this.lease.signal,
      db: this.res.db,
    };
  }

  /**
   * One fenced transaction: renews the lease (locking the run row) and re-checks the account's
   * state before `fn`; a lost fence or an account that is no longer active rolls back.
   */
  private async fenced<T>(currentStep: string | null, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.lease.lost) throw new LeaseLost(this.lease.reason ?? 'lease lost');
    return this.res.db.transaction(async (tx) => {
      if (!(await touchRun(tx, this.lease.fence, this.res.config.engine.leaseMs, currentStep))) {
        throw new LeaseLost('the lease was lost (taken over by another worker, or the run was stopped)');
      }
      await assertAccountActive(tx, this.lease.fence.accountId);
      return fn(tx);
    });
  }

  private async finish(status: AutomationFinal, error: string | null, failedStepId: string | null = null): Promise<AutomationOutcome> {
    return this.fenced(null, async (tx) => {
      const [final, why, failedStep] = status === 'succeeded' ? await this.succeededUnlessUndelivered(tx) : [status, error, failedStepId];
      if (!(await finishAutomationRun(tx, this.lease.fence, final, why, failedStep))) throw new LeaseLost('the lease was lost');
      return { status: final };
    });
  }

  /**
   * A run whose message ended undelivered (or unknown) before the run's end did not succeed: it
   * ends `failed` at that step (delivery/step-store.ts marks the step, and a run that ends first).
   * Read after the fence has locked the run row, which the sender locks too before marking a step.
   */
  private async succeededUnlessUndelivered(tx: Queryable): Promise<[AutomationFinal, string | null, string | null]> {
    const u = await undeliveredStep(tx, this.claimed.account_id, this.claimed.id);
    return u ? ['failed', `Failed: ${u.name}: ${u.error}`, u.step_id] : ['succeeded', null, null];
  }

  private async hold(): Promise<AutomationOutcome> {
    await this.fenced(null, async (tx) => {
      if (!(await holdWaiting(tx, this.lease.fence, HOLD_MS))) throw new LeaseLost('the lease was lost');
    });
    return { status: 'held' };
  }
}
