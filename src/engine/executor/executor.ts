// Executes one claimed run: its blocks in plan order, each recorded as a step before and after
// it runs, until the run ends (succeeded, failed, partial), parks at an approval, or the lease is
// lost. Resumable: a block whose step already succeeded is not run again (its stored output feeds
// its successors); a step found `running` (the previous worker died in it) runs again with the
// same effectKey, so blocks and billing that record that key do their side effect once.
import { performance } from 'node:perf_hooks';
import type { Queryable } from '../../db/db.js';
import type { BlockContext, BlockDef, BlockOutput, BlockResult, EngineResources, RunRef } from '../types.js';
import { Lease, LeaseLost } from '../../queue/lease.js';
import type { ClaimedRun } from '../../queue/workflow-run-store.js';
import { fencedTouch, finishRun, holdRun, parkForApproval, runTiming, type FinalStatus } from '../scheduler/store.js';
import { AccountNotActive, HELD_SUMMARY, assertAccountActive, interruption } from '../account-hold.js';
import type { Fence } from '../../queue/queue.js';
import { linkBase } from '../../delivery/unsubscribe.js';
import { queueApprovalNotices } from './approval-notice.js';
import { emailList } from '../../domain/config-schema.js';
import { planWorkflow, type Plan } from './plan.js';
import { endStep, insertRunningStep, insertSkippedStep, loadRunDefinition, loadSteps, type StepRow } from './store.js';

/** `held`: the account is not active, the run waits for it; `cancelled`: the account was closed. */
export type RunOutcome = FinalStatus | 'awaiting_approval' | 'held' | 'cancelled' | 'lost';

export const TIME_LIMIT = 'Stopped: time limit reached';
export const STEP_LIMIT = 'Stopped: step limit reached';
export const SPEND_LIMIT = 'Stopped: spend limit reached';
/**
 * A run claimed this many times without ending is ended `failed`: something (a block that kills
 * its process, a bug) stops every worker that tries it, and retrying forever would hide that.
 * Generous, since approvals and clean shutdowns also count as claims.
 */
export const MAX_ATTEMPTS = 25;

/** One line for a summary: whitespace collapsed, cut short. */
function oneLine(s: string, max = 300): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Resolves when the signal aborts (never rejects), and cleans up its listener when asked. */
function whenAborted(signal: AbortSignal): { promise: Promise<{ status: 'aborted' }>; dispose(): void } {
  let onAbort: () => void = () => {};
  const promise = new Promise<{ status: 'aborted' }>((resolve) => {
    onAbort = () => resolve({ status: 'aborted' });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * Works the run until it ends, parks or is lost. A run whose account stopped being active is
 * `cancelled` ("Cancelled: account closed") when the account is closed, else held where it stood
 * (status `running`, no lease, its open step kept) and resumed at that step once it is active.
 */
export async function executeRun(res: EngineResources, claimed: ClaimedRun, lease: Lease): Promise<RunOutcome> {
  try {
    return await new RunExecution(res, claimed, lease).run();
  } catch (err) {
    const why = await interruption(err, res.db, lease, holdWorkflowRun);
    return why === 'closed' ? 'cancelled' : why;
  }
}

const holdWorkflowRun = (db: Queryable, f: Fence): Promise<boolean> => holdRun(db, f, HELD_SUMMARY);

class RunExecution {
  private readonly accountId: string;
  private readonly runId: string;

  constructor(
    private readonly res: EngineResources,
    private readonly claimed: ClaimedRun,
    private readonly lease: Lease,
  ) {
    this.accountId = claimed.account_id;
    this.runId = claimed.id;
  }

  async run(): Promise<RunOutcome> {
    const { db, config } = this.res;
    if (this.claimed.attempt > MAX_ATTEMPTS) {
      return this.finish('failed', `Failed: the run was started ${MAX_ATTEMPTS} times without finishing (its workers kept stopping)`);
    }
    const def = await loadRunDefinition(db, this.accountId, this.runId);
    if (!def) throw new LeaseLost('the run no longer exists');
    if (!def.workflow_found) return this.finish('failed', 'Failed: the workflow no longer exists');
    const planned = planWorkflow(def.blocks, def.edges);
    if (!planned.ok) return this.finish('failed', oneLine(`Failed: ${planned.error}`));
    const plan = planned.plan;

    const steps = new Map<string, StepRow>((await loadSteps(db, this.accountId, this.runId)).map((s) => [s.node_id, s]));
    const timing = await runTiming(db, this.accountId, this.runId);
    // The deadline on this process's monotonic clock, from the database's view of elapsed time
    // (no dependence on this machine's wall clock agreeing with the database's).
    const deadline = performance.now() + config.engine.runTimeLimitMs - (timing?.elapsed_ms ?? 0);
    const ref: RunRef = {
      accountId: this.accountId,
      runId: this.runId,
      workflowId: def.workflow_id,
      projectId: def.project_id,
      keyId: def.key_id,
      attempt: this.claimed.attempt,
    };
    return this.runBlocks(plan, steps, ref, deadline);
  }

  private async runBlocks(plan: Plan, steps: Map<string, StepRow>, ref: RunRef, deadline: number): Promise<RunOutcome> {
    const { config } = this.res;
    const total = plan.order.length;
    const outputs = new Map<string, BlockOutput>();
    let done = 0;
    // Every step row is one block execution started; seq numbers them in start order.
    let executions = steps.size;
    let nextSeq = Math.max(0, ...[...steps.values()].map((s) => s.seq)) + 1;
    const running = (n: number) => `Running: ${n} of ${total} blocks`;

    for (const block of plan.order) {
      const prior = steps.get(block.id);
      if (prior?.status === 'succeeded') {
        outputs.set(block.id, prior.output ?? { text: '' });
        done++;
        continue;
      }
      if (prior && (prior.status === 'failed' || prior.status === 'skipped')) {
        // The step's end and the run's end are written together, so this means the run row was
        // changed by hand; end it as the step did.
        return this.finish('failed', oneLine(`Failed: ${block.id}: ${prior.error ?? 'the step failed'}`));
      }
      if (!prior && performance.now() >= deadline) return this.stopBefore(block, nextSeq, TIME_LIMIT);
      if (!prior && executions >= config.engine.stepLimit) return this.stopBefore(block, nextSeq, STEP_LIMIT);

      let seq: number;
      if (prior) {
        // Resuming: a step left `running` by a dead worker, or `awaiting` after an approval. It keeps
        // its row and effectKey; an awaiting step stays `awaiting` until the block answers, so a
        // crash here still resumes it as approved.
        seq = prior.seq;
        if (performance.now() >= deadline) {
          return this.finishWithStep(seq, 'partial', TIME_LIMIT, { status: 'failed', ms: prior.ms, error: TIME_LIMIT });
        }
        await this.fenced(running(done), async () => {});
      } else {
        seq = nextSeq++;
        executions++;
        await this.fenced(running(done), (tx) =>
          insertRunningStep(tx, {
            accountId: this.accountId,
            runId: this.runId,
            seq,
            nodeId: block.id,
            nodeKind: block.kind,
            effectKey: `${this.runId}:${block.id}`,
          }),
        );
      }

      const inputs: Record<string, BlockOutput> = {};
      for (const p of plan.preds.get(block.id) ?? []) inputs[p] = outputs.get(p)!;
      const started = performance.now();
      const approval = prior?.status === 'awaiting' ? { approvedText: prior.approved_text } : null;
      const { result, timedOut } = await this.execute(block, ref, inputs, approval, deadline);
      const ms = Math.max(0, Math.round(performance.now() - started)) + (prior?.ms ?? 0);
      if (this.lease.lost) return 'lost';

      if (timedOut) return this.finishWithStep(seq, 'partial', TIME_LIMIT, { status: 'failed', ms, error: TIME_LIMIT });
      switch (result.status) {
        case 'succeeded': {
          outputs.set(block.id, result.output);
          done++;
          await this.fenced(done === total ? null : running(done), (tx) =>
            endStep(tx, this.accountId, this.runId, seq, { status: 'succeeded', ms, output: result.output }),
          );
          break;
        }
        case 'awaiting':
          return this.park(block, seq, ms);
        case 'limit':
          return this.finishWithStep(seq, 'partial', SPEND_LIMIT, { status: 'failed', ms, error: result.error });
        case 'held':
          // Its charge was refused because the account is not active: the step stays `running`
          // and the block runs again (same effect key) when the run resumes.
          throw new AccountNotActive('held');
        case 'failed':
          return this.finishWithStep(seq, 'failed', oneLine(`Failed: ${block.id}: ${result.error}`), { status: 'failed', ms, error: result.error });
      }
    }
    return this.finish('succeeded', null);
  }

  /**
   * Runs one block under the run's time limit and the lease: the block's signal aborts at
   * whichever comes first, and the executor stops waiting for it then even if the block ignores
   * its signal (its late answer is dropped).
   */
  private async execute(
    block: BlockDef,
    run: RunRef,
    inputs: Record<string, BlockOutput>,
    approval: { approvedText: string | null } | null,
    deadline: number,
  ): Promise<{ result: BlockResult; timedOut: boolean }> {
    const impl = this.res.blocks.get(block.kind);
    if (!impl) return { result: { status: 'failed', error: `unknown block kind ${JSON.stringify(block.kind)}` }, timedOut: false };
    const invalid = impl.validate(block.config);
    if (invalid !== null) return { result: { status: 'failed', error: `invalid config: ${invalid}` }, timedOut: false };

    const timeLimit = new AbortController();
    const timer = setTimeout(() => timeLimit.abort(new Error(TIME_LIMIT)), Math.max(0, deadline - performance.now()));
    const signal = AbortSignal.any([timeLimit.signal, this.lease.signal]);
    const stop = whenAborted(signal);
    const ctx: BlockContext = {
      run,
      block,
      inputs,
      db: this.res.db,
      providers: this.res.providers,
      billing: this.res.billing,
      effectKey: `${this.runId}:${block.id}`,
      signal,
      approved: approval !== null,
      approvedText: approval?.approvedText ?? null,
    };
    try {
      const answer = await Promise.race([
        Promise.resolve()
          .then(() => impl.execute(ctx))
          .catch((err: unknown): BlockResult => ({ status: 'failed', error: message(err) || 'the block threw an error' })),
        stop.promise,
      ]);
      const timedOut = timeLimit.signal.aborted;
      if (answer.status === 'aborted') return { result: { status: 'failed', error: TIME_LIMIT }, timedOut };
      return { result: answer, timedOut: timedOut && answer.status !== 'succeeded' };
    } finally {
      clearTimeout(timer);
      stop.dispose();
    }
  }

  /**
   * One fenced transaction: renews the lease and sets the summary (null keeps it) while locking
   * the run row, re-checks the account's state (AccountNotActive rolls back), then runs `fn`. A lost fence throws LeaseLost, which rolls `fn` back too.
   */
  private async fenced(summary: string | null, fn: (tx: Queryable) => Promise<void>): Promise<void> {
    if (this.lease.lost) throw new LeaseLost(this.lease.reason ?? 'lease lost');
    await this.res.db.transaction(async (tx) => {
      if (!(await fencedTouch(tx, this.lease.fence, this.res.config.engine.leaseMs, summary))) {
        throw new LeaseLost('the lease was lost (taken over by another worker, or the run was cancelled)');
      }
      // Before every block: an account suspended, lapsed or closed since the claim stops here.
      await assertAccountActive(tx, this.accountId);
      await fn(tx);
    });
  }

  private async finish(status: FinalStatus, summary: string | null, step?: (tx: Queryable) => Promise<void>): Promise<RunOutcome> {
    if (this.lease.lost) return 'lost';
    await this.res.db.transaction(async (tx) => {
      // The run's end first: it is the fence, and it locks the run row for the step write.
      if (!(await finishRun(tx, this.lease.fence, status, summary))) throw new LeaseLost('the lease was lost before the run could end');
      if (step) await step(tx);
    });
    return status;
  }

  private finishWithStep(seq: number, status: FinalStatus, summary: string, end: Parameters<typeof endStep>[4]): Promise<RunOutcome> {
    return this.finish(status, summary, (tx) => endStep(tx, this.accountId, this.runId, seq, end));
  }

  /** A limit reached before `block` could start: the run ends `partial`, the block shows why. */
  private stopBefore(block: BlockDef, seq: number, reason: string): Promise<RunOutcome> {
    return this.finish('partial', reason, (tx) =>
      insertSkippedStep(tx, { accountId: this.accountId, runId: this.runId, seq, nodeId: block.id, nodeKind: block.kind }, reason),
    );
  }

  private async park(block: BlockDef, seq: number, ms: number): Promise<RunOutcome> {
    if (this.lease.lost) return 'lost';
    const base = await linkBase(this.res.db, this.res.config);
    const message = typeof block.config.message === 'string' ? block.config.message : '';
    const notify = typeof block.config.notify === 'string' ? emailList(block.config.notify) : [];
    await this.res.db.transaction(async (tx) => {
      if (!(await parkForApproval(tx, this.lease.fence, oneLine(`Awaiting approval: ${block.id}`)))) {
        throw new LeaseLost('the lease was lost before the run could wait for approval');
      }
      await endStep(tx, this.accountId, this.runId, seq, { status: 'awaiting', ms });
      // The approvers are told in the same transaction: one email per person per wait.
      await queueApprovalNotices(tx, { accountId: this.accountId, runId: this.runId, blockId: block.id, message, notify, base });
    });
    // The run no longer has a worker: the heartbeat must not try to renew a lease it gave up.
    this.lease.stop();
    return 'awaiting_approval';
  }
}
