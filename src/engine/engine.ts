// The engine (DESIGN 8): claims ready workflow runs from the runs table and executes them, up to
// config.engine.concurrency at once. It is a small loop over three parts that share one resources
// object: the Waker (when to look for work), the scheduler (claim, lease, heartbeat) and the
// executor (one run's blocks and steps). Automation runs (src/engine/automations) share the same
// loop, slots, waker and lease life cycle, with their own claim, lease and executor over
// automation_runs. Any number of engines may share a PostgreSQL database;
// SKIP LOCKED claims and fenced writes keep each run with exactly one of them at a time.
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import type { Billing, Block, Providers } from './types.js';
import { executeRun, type RunOutcome } from './executor/executor.js';
import { Lease } from './scheduler/lease.js';
import { silentLog, type EngineLog } from './scheduler/log.js';
import { claimRuns, releaseLease, type ClaimedRun } from './scheduler/store.js';
import { ScheduleTicker } from './schedules/ticker.js';
import { Waker } from './waker.js';
import { createBlockRegistry } from './blocks/index.js';
import { createProviders } from './providers/index.js';
import { createBilling } from './billing/index.js';
import { claimAutomationRuns, releaseAutomationLease, type ClaimedAutomationRun } from './automations/store.js';
import { AutomationLease } from './automations/lease.js';
import { executeAutomationRun } from './automations/executor.js';
import { closedAccountsWithWork, endClosedAccountWork } from '../accounts/store.js';

export type { EngineLog } from './scheduler/log.js';

export interface EngineResources {
  db: Db;
  config: Config;
  blocks: ReadonlyMap<string, Block>;
  providers: Providers;
  billing: Billing;
  log: EngineLog;
  /** Written into lease_owner: which process holds a run (`host:pid:random`). */
  owner: string;
}

export interface EngineOptions extends Omit<EngineResources, 'log' | 'owner'> {
  log?: EngineLog;
  owner?: string;
  /** How long stop() lets in-flight blocks finish before it releases their runs (default 5 s). */
  stopGraceMs?: number;
}

export interface EngineStats {
  claimed: number;
  /** Runs this engine took to an end, to awaiting approval, or (automation runs) to a wait or a hold. */
  settled: number;
  /** Runs this engine stopped working on because the lease was lost or the run cancelled. */
  lost: number;
  /** Runs that threw (store errors): their lease was released for a retry. */
  errored: number;
}

export function engineOwner(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

interface InFlight {
  /** Stops all work on the run (workflow or automation run alike). */
  lose(reason: string): void;
  /** Ends the lease now, so another worker may take the run over at once. */
  release(): Promise<unknown>;
  done: Promise<void>;
}

/** Cron schedules fire on minute boundaries; a one-second tick starts them within a second. */
const SCHEDULE_TICK_MS = 1_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export class Engine {
  readonly resources: EngineResources;
  readonly stats: EngineStats = { claimed: 0, settled: 0, lost: 0, errored: 0 };
  private readonly waker: Waker;
  /** Starts the runs of workflows whose cron schedule is due (trigger `schedule`). */
  private readonly schedules: ScheduleTicker;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly stopGraceMs: number;
  private loop: Promise<void> | null = null;
  private stopping = false;
  /** Alternates which queue (workflow or automation runs) gets first pick of free slots. */
  private automationsFirst = false;
  /** When this engine last looked for closed accounts' work (performance.now()). */
  private lastClosedSweep = -Infinity;

  constructor(opts: EngineOptions) {
    const { log, owner, stopGraceMs, ...rest } = opts;
    this.resources = Object.freeze({ ...rest, log: log ?? silentLog, owner: owner ?? engineOwner() });
    this.stopGraceMs = stopGraceMs ?? 5_000;
    this.waker = new Waker(this.resources.db, this.resources.config.engine.pollMs, this.resources.log);
    this.schedules = new ScheduleTicker(this.resources.db, this.resources.config.engine.startDelayMs, SCHEDULE_TICK_MS, (err) =>
      this.resources.log.error({ err }, 'starting scheduled runs failed'),
    );
  }

  get owner(): string {
    return this.resources.owner;
  }

  /** Runs executing now. */
  get busy(): number {
    return this.inFlight.size;
  }

  /** Resolves once the engine listens for new runs; the first claim is already under way. */
  async start(): Promise<void> {
    if (this.loop) throw new Error('the engine is already started');
    await this.waker.start();
    this.schedules.start();
    this.loop = this.claimLoop();
    this.resources.log.info({ owner: this.owner, concurrency: this.resources.config.engine.concurrency }, 'engine started');
  }

  /**
   * No new claims; in-flight runs get stopGraceMs to finish their blocks; runs still going then
   * are released (lease expired now, so another worker takes them over at once, resuming at the
   * step they were in) and this engine writes nothing more to them.
   */
  async stop(): Promise<void> {
    if (!this.loop || this.stopping) return;
    this.stopping = true;
    await this.schedules.stop();
    await this.waker.stop();
    await this.loop;
    const settled = Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
    await Promise.race([settled, sleep(this.stopGraceMs)]);
    const left = [...this.inFlight.values()];
    for (const f of left) f.lose('the engine is stopping');
    await Promise.allSettled(left.map((f) => f.release()));
    // The executors saw the lease lost and write nothing more; give them a moment to unwind.
    await Promise.race([Promise.allSettled(left.map((f) => f.done)), sleep(1_000)]);
    await this.resources.providers.pages.close();
    this.resources.log.info({ owner: this.owner, released: left.length }, 'engine stopped');
  }

  private async claimLoop(): Promise<void> {
    const { db, config, owner, log } = this.resources;
    while (!this.stopping) {
      await this.sweepClosedAccounts();
      let claimed = 0;
      // Workflow runs and automation runs share the slots; taking turns at first pick keeps a
      // full queue of one kind from starving the other.
      this.automationsFirst = !this.automationsFirst;
      for (const kind of this.automationsFirst ? (['automation', 'workflow'] as const) : (['workflow', 'automation'] as const)) {
        const free = config.engine.concurrency - this.inFlight.size;
        if (free <= 0) break;
        try {
          if (kind === 'workflow') {
            const runs = await claimRuns(db, owner, config.engine.leaseMs, free);
            for (const run of runs) this.launch(run);
            claimed += runs.length;
          } else {
            const runs = await claimAutomationRuns(db, owner, config.engine.leaseMs, free);
            for (const run of runs) this.launchAutomation(run);
            claimed += runs.length;
          }
        } catch (err) {
          // The store is down or busy: the next poll tries again.
          log.error({ err, kind }, 'claiming runs failed');
        }
      }
      // Found work and still has room: there may be more (a claim can come up short when another
      // worker locked some candidates first), so look again at once; the queue is drained only
      // when a claim finds nothing.
      if (claimed > 0 && this.inFlight.size < config.engine.concurrency) continue;
      await this.waker.wait();
    }
  }

  /**
   * At most once a poll interval: ends the work of accounts found closed (the closing sweep of
   * src/accounts/store.ts), for a state changed directly in the database or by another process,
   * or work started as the account closed. Held accounts need nothing here: the claim skips them.
   */
  private async sweepClosedAccounts(): Promise<void> {
    const { db, config, log } = this.resources;
    if (performance.now() - this.lastClosedSweep < config.engine.pollMs) return;
    this.lastClosedSweep = performance.now();
    try {
      for (const accountId of await closedAccountsWithWork(db)) {
        const ended = await endClosedAccountWork(db, accountId);
        if (ended) log.info({ accountId, ...ended }, 'ended the work of a closed account');
      }
    } catch (err) {
      log.error({ err }, 'ending closed accounts\' work failed');
    }
  }

  private launch(run: ClaimedRun): void {
    const { db, config, log, owner } = this.resources;
    this.stats.claimed++;
    const fence = { accountId: run.account_id, runId: run.id, attempt: run.attempt, owner };
    const lease = new Lease(fence, db, config.engine.leaseMs, log);
    lease.start();
    const key = `${run.account_id}/${run.id}`;
    log.debug({ runId: run.id, attempt: run.attempt, resumed: run.previous_status === 'running' }, 'run claimed');
    const done = executeRun(this.resources, run, lease)
      .then(
        (outcome: RunOutcome) => {
          if (outcome === 'lost') {
            this.stats.lost++;
            log.info({ runId: run.id, attempt: run.attempt, reason: lease.reason }, 'stopped working on a run');
          } else {
            this.stats.settled++;
            log.debug({ runId: run.id, outcome }, 'run settled');
          }
        },
        async (err: unknown) => {
          // A store error mid-run: let another attempt (perhaps ours) resume it from its steps now
          // rather than after the lease runs out.
          this.stats.errored++;
          log.error({ err, runId: run.id, attempt: run.attempt }, 'run execution failed; releasing it for a retry');
          lease.lose('execution failed');
          await releaseLease(db, fence).catch(() => {});
        },
      )
      .finally(() => {
        lease.stop();
        this.inFlight.delete(key);
        this.waker.wake(); // a slot came free
      });
    this.inFlight.set(key, { lose: (r) => lease.lose(r), release: () => releaseLease(db, fence), done });
  }

  /** The same life cycle for an automation run (src/engine/automations). */
  private launchAutomation(run: ClaimedAutomationRun): void {
    const { db, config, log, owner } = this.resources;
    this.stats.claimed++;
    const fence = { accountId: run.account_id, runId: run.id, attempt: run.attempt, owner };
    const lease = new AutomationLease(fence, db, config.engine.leaseMs, log);
    lease.start();
    const key = `${run.account_id}/${run.id}`;
    const done = executeAutomationRun(this.resources, run, lease)
      .then(
        (outcome) => {
          if (outcome.status === 'lost') {
            this.stats.lost++;
            log.info({ runId: run.id, attempt: run.attempt, reason: lease.reason }, 'stopped working on an automation run');
            return;
          }
          this.stats.settled++;
          // A wait shorter than the poll interval: look again when it ends rather than at the next poll.
          if (outcome.status === 'waiting') {
            const ms = outcome.due.getTime() - Date.now();
            if (ms < config.engine.pollMs) setTimeout(() => this.waker.wake(), Math.max(0, ms) + 5).unref();
          }
        },
        async (err: unknown) => {
          this.stats.errored++;
          log.error({ err, runId: run.id, attempt: run.attempt }, 'automation run execution failed; releasing it for a retry');
          lease.lose('execution failed');
          await releaseAutomationLease(db, fence).catch(() => {});
        },
      )
      .finally(() => {
        lease.stop();
        this.inFlight.delete(key);
        this.waker.wake();
      });
    this.inFlight.set(key, { lose: (r) => lease.lose(r), release: () => releaseAutomationLease(db, fence), done });
  }
}

/** The engine a server or worker process runs: the real blocks, providers and billing. */
export function createEngine(db: Db, config: Config, log?: EngineLog): Engine {
  return new Engine({
    db,
    config,
    blocks: createBlockRegistry(config),
    providers: createProviders(config),
    billing: createBilling(db),
    log,
  });
}
