// The queues the engine works, each a leased queue (src/queue) with the executor that works one
// claimed item. The engine's slot loop (engine.ts) knows nothing else about them: a new kind of
// run is one more entry here.
import type { Queryable } from '../db/db.js';
import type { Lease } from '../queue/lease.js';
import type { ClaimedItem, Fence, LeasedQueue } from '../queue/queue.js';
import { WORKFLOW_RUNS, type ClaimedRun } from '../queue/workflow-run-store.js';
import { AUTOMATION_RUNS, type ClaimedAutomationRun } from '../queue/automation-run-store.js';
import type { EngineResources } from './types.js';
import { executeRun } from './executor/executor.js';
import { executeAutomationRun } from './automations/executor.js';
import { giveUpRun } from './scheduler/store.js';
import { giveUpAutomationRun } from './automations/store.js';

/** How the executor left an item. */
export interface Worked {
  /** The lease was lost (taken over, cancelled, released): the engine did not finish it. */
  lost: boolean;
  /** The executor's outcome, for the log. */
  outcome: string;
  /** The item parked until then (an automation wait): the engine looks again then if it is sooner than a poll. */
  dueAt: Date | null;
}

export interface EngineQueue<Item extends ClaimedItem> {
  queue: LeasedQueue<Item>;
  /** Works one claimed item under its lease; throws on store errors (the engine releases it). */
  // (A method, so an EngineQueue of one item type is one of ClaimedItem: the engine passes each
  // queue only what that queue claimed.)
  work(res: EngineResources, item: Item, lease: Lease): Promise<Worked>;
  /**
   * Ends the item `failed` because its executions kept throwing, or threw an error that would fail
   * the same way again: `reason` (a sentence for a person) on the run and the step it was in.
   * Fenced; false when the fence no longer holds.
   */
  giveUp(tx: Queryable, f: Fence, reason: string): Promise<boolean>;
}

export const WORKFLOW_RUN_QUEUE: EngineQueue<ClaimedRun> = Object.freeze({
  queue: WORKFLOW_RUNS,
  async work(res: EngineResources, run: ClaimedRun, lease: Lease): Promise<Worked> {
    const outcome = await executeRun(res, run, lease);
    return { lost: outcome === 'lost', outcome, dueAt: null };
  },
  giveUp: (tx: Queryable, f: Fence, reason: string) => giveUpRun(tx, f, `Failed: ${reason}`, reason),
});

export const AUTOMATION_RUN_QUEUE: EngineQueue<ClaimedAutomationRun> = Object.freeze({
  queue: AUTOMATION_RUNS,
  async work(res: EngineResources, run: ClaimedAutomationRun, lease: Lease): Promise<Worked> {
    const o = await executeAutomationRun(res, run, lease);
    return { lost: o.status === 'lost', outcome: o.status, dueAt: o.status === 'waiting' ? o.due : null };
  },
  giveUp: (tx: Queryable, f: Fence, reason: string) => giveUpAutomationRun(tx, f, `Failed: ${reason}`, reason),
});

/** Every queue the engine works; first pick of the free slots rotates among them round by round. */
export const ENGINE_QUEUES: ReadonlyArray<EngineQueue<ClaimedItem>> = Object.freeze([WORKFLOW_RUN_QUEUE, AUTOMATION_RUN_QUEUE]);
