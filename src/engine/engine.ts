// The engine (docs/architecture.md §10.1): one slot loop over any number of leased queues
// (queues.ts: workflow runs and automation runs), up to config.engine.concurrency items at once
// across them. Its parts share one resources object: the Waker (when to look for work), the queues
// (claim, lease, heartbeat, release: src/queue) and each queue's executor (one run's blocks or
// steps). Any number of engines may share a PostgreSQL database; SKIP LOCKED claims and fenced
// writes keep each run with exactly one of them at a time.
import type { Metrics } from '../lib/metrics.js';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import type { EngineResources } from './types.js';
import { Lease } from '../queue/lease.js';
import { RepeatedErrorLog, silentLog, type EngineLog } from '../queue/log.js';
import { fenceOf, type ClaimedItem, type Fence } from '../queue/queue.js';
import { backoffMs, errorLine, isPermanentFailure } from '../lib/retry.js';
import { RUNS_CHANNEL } from '../queue/channels.js';
import { Waker } from '../queue/waker.js';
import { ENGINE_QUEUES, type EngineQueue } from './queues.js';
import { ScheduleTicker } from './schedules/ticker.js';
import { createBlockRegistry } from './blocks/index.js';
import { createProviders } from './providers/index.js';
import { createBilling } from './billing/index.js';
import { closedAccountsWithWork, endClosedAccountWork } from '../accounts/store.js';

export type { EngineLog } from '../queue/log.js';
export type { EngineResources } from './types.js';

export interface EngineOptions extends Omit<EngineResources, 'log' | 'owner'> {
  log?: EngineLog;
  owner?: string;
  /** How long stop() lets in-flight blocks finish before it releases their runs (default 5 s). */
  stopGraceMs?: number;
  /** The queues to work (default ENGINE_QUEUES: workflow runs and automation runs). */
  queues?: ReadonlyArray<EngineQueue<ClaimedItem>>;
}

export interface EngineStats {
  claimed: number;
  /** Runs this engine took to an end, to awaiting approval, or (automation runs) to a wait or a hold. */
  settled: number;
  /** Runs this engine stopped working on because the lease was lost or the run cancelled. */
  lost: number;
  /** Executions that threw (store errors, bugs): retried after a backoff, or given up on. */
  errored: number;
  /** Runs ended `failed` because their executions kept throwing or threw a permanent failure. */
  gaveUp: number;
}

export function engineOwner(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

interface InFlight {
  /** `account/id` of the run (of whichever queue). */
  run: string;
  /** The claim's attempt: this engine may hold a newer attempt of the same run beside it (launch). */
  attempt: number;
  /** Stops all work on the run (of whichever queue). */
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
  readonly stats: EngineStats = { claimed: 0, settled: 0, lost: 0, errored: 0, gaveUp: 0 };
  private readonly waker: Waker;
  /** Starts the runs of workflows whose cron schedule is due (trigger `schedule`). */
  private readonly schedules: ScheduleTicker;
  /**
   * The claims being worked, by `account/id#attempt`: keyed by the attempt too, since this engine
   * can claim a run again while its older attempt is still unwinding (launch), and each entry must
   * leave the map only when its own attempt ends.
   */
  private readonly inFlight = new Map<string, InFlight>();
  private readonly stopGraceMs: number;
  private loop: Promise<void> | null = null;
  private stopping = false;
  /** The queues this engine works (queues.ts), sharing its slots. */
  private readonly queues: ReadonlyArray<EngineQueue<ClaimedItem>>;
  /** Which queue gets first pick of free slots; it rotates every round. */
  private firstPick = 0;
  /** When this engine last looked for closed accounts' work (performance.now()). */
  private lastClosedSweep = -Infinity;
  /** Errors that repeat (every run meeting one bug, a store that is down): logged once, then counted. */
  private readonly errors: RepeatedErrorLog;

  constructor(opts: EngineOptions) {
    const { log, owner, stopGraceMs, queues, ...rest } = opts;
    this.resources = Object.freeze({ ...rest, log: log ?? silentLog, owner: owner ?? engineOwner() });
    this.queues = queues ?? ENGINE_QUEUES;
    this.stopGraceMs = stopGraceMs ?? 5_000;
    this.errors = new RepeatedErrorLog(this.resources.log);
    this.waker = new Waker(this.resources.db, this.resources.config.engine.pollMs, this.resources.log, RUNS_CHANNEL);
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
    this.errors.flush();
    this.resources.log.info({ owner: this.owner, released: left.length }, 'engine stopped');
  }

  private async claimLoop(): Promise<void> {
    const { db, config, owner } = this.resources;
    while (!this.stopping) {
      await this.sweepClosedAccounts();
      let claimed = 0;
      // The queues share the slots; taking turns at first pick keeps a full queue of one kind
      // from starving another.
      this.firstPick = (this.firstPick + 1) % this.queues.length;
      const turn = [...this.queues.slice(this.firstPick), ...this.queues.slice(0, this.firstPick)];
      for (const q of turn) {
        const free = config.engine.concurrency - this.inFlight.size;
        if (free <= 0) break;
        try {
          const items = await q.queue.claim(db, owner, config.engine.leaseMs, free);
          for (const item of items) this.launch(q, item);
          claimed += items.length;
        } catch (err) {
          // The store is down or busy: the next poll tries again.
          this.errors.error(`claim:${q.queue.noun}:${errorLine(err)}`, { err, kind: q.queue.noun }, 'claiming runs failed');
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
      this.errors.error(`sweep:${errorLine(err)}`, { err }, 'ending closed accounts\' work failed');
    }
  }

  /** One claimed item's life cycle: lease and heartbeat, execution, release on error, slot freed. */
  private launch(q: EngineQueue<ClaimedItem>, item: ClaimedItem): void {
    const { db, config, log, owner } = this.resources;
    const { noun, renew, release } = q.queue;
    this.stats.claimed++;
    this.resources.metrics?.runStarted(q.queue.table, (Date.now() - new Date(item.ready_at).getTime()) / 1000);
    const fence = fenceOf(item, owner);
    const lease = new Lease(fence, renew, db, config.engine.leaseMs, log);
    lease.start();
    const run = `${item.account_id}/${item.id}`;
    const key = `${run}#${item.attempt}`;
    log.debug({ kind: noun, runId: item.id, attempt: item.attempt }, 'run claimed');
    // This engine took back a run whose lease lapsed under it (its event loop or its store
    // stalled for longer than the lease): the claim moved the fence past the older attempt, which
    // could write nothing more anyway; stop it now rather than at its next write.
    for (const f of this.inFlight.values()) {
      if (f.run === run && f.attempt < item.attempt) f.lose('taken over by a newer attempt of the run');
    }
    const done = q
      .work(this.resources, item, lease)
      .then(
        (worked) => {
          this.resources.metrics?.runWorked(q.queue.table, worked.lost ? 'lost' : worked.outcome);
          if (worked.lost) {
            this.stats.lost++;
            log.info({ kind: noun, runId: item.id, attempt: item.attempt, reason: lease.reason }, 'stopped working on a run');
            return;
          }
          this.stats.settled++;
          log.debug({ kind: noun, runId: item.id, outcome: worked.outcome }, 'run settled');
          // A wait shorter than the poll interval: look again when it ends rather than at the next poll.
          if (worked.dueAt) {
            const ms = worked.dueAt.getTime() - Date.now();
            if (ms < config.engine.pollMs) setTimeout(() => this.waker.wake(), Math.max(0, ms) + 5).unref();
          }
        },
        async (err: unknown) => {
          this.stats.errored++;
          this.resources.metrics?.runWorked(q.queue.table, 'errored');
          lease.lose('execution failed');
          await this.afterError(q, item, fence, err);
        },
      )
      .finally(() => {
        lease.stop();
        this.inFlight.delete(key);
        this.waker.wake(); // a slot came free
      });
    this.inFlight.set(key, { run, attempt: item.attempt, lose: (r) => lease.lose(r), release: () => release(db, fence), done });
  }

  /**
   * An execution threw. A PermanentFailure (it would fail the same way again) ends the run
   * `failed` with its message at once; anything else is tried again after an exponential backoff
   * with jitter, until the run has failed config.engine.runMaxAttempts times since it last parked,
   * when it ends `failed` ("gave up after N attempts"). The same error over many runs or attempts
   * is logged once, then counted. If even this write fails (the store is down), the lease runs out
   * and another claim takes the run up: the next failure it meets is counted then.
   */
  private async afterError(q: EngineQueue<ClaimedItem>, item: ClaimedItem, fence: Fence, err: unknown): Promise<void> {
    const { db, config } = this.resources;
    const { noun } = q.queue;
    const failures = item.failures + 1;
    const permanent = isPermanentFailure(err);
    const line = errorLine(err);
    const at = { err, kind: noun, runId: item.id, attempt: item.attempt, failures };
    try {
      if (permanent || failures >= config.engine.runMaxAttempts) {
        const reason = permanent ? line : `gave up after ${failures} attempt${failures === 1 ? '' : 's'}: ${INTERNAL_ERROR}`;
        this.errors.error(`${noun}:gave-up:${line}`, at, permanent ? 'run failed with an error that would happen again: ended failed' : 'run kept failing: gave up, ended failed');
        if (await db.transaction((tx) => q.giveUp(tx, fence, reason), { replayable: true, name: 'give up run' })) this.stats.gaveUp++;
        return;
      }
      const delay = backoffMs(failures, config.engine.runRetryBaseMs, RUN_RETRY_MAX_DELAY_MS);
      this.errors.error(`${noun}:${line}`, { ...at, retryInMs: delay }, 'run execution failed; retrying after a backoff');
      if ((await q.queue.retryLater(db, fence, delay)) && delay < config.engine.pollMs) {
        setTimeout(() => this.waker.wake(), delay + 5).unref();
      }
    } catch (writeErr) {
      this.errors.error(`${noun}:after-error:${errorLine(writeErr)}`, { err: writeErr, kind: noun, runId: item.id }, 'recording a run\'s failure failed; its lease will run out');
    }
  }
}

/** The longest wait before a run that threw is tried again. */
export const RUN_RETRY_MAX_DELAY_MS = 300_000;

/** What a run that gave up says when its error was not written for people (a store error, a bug). */
const INTERNAL_ERROR = "the server met an error it could not get past (the operator's log has it)";

/** The engine a server or worker process runs: the real blocks, providers and billing. */
export function createEngine(db: Db, config: Config, log?: EngineLog, metrics?: Metrics): Engine {
  return new Engine({
    db,
    config,
    blocks: createBlockRegistry(config),
    providers: createProviders(config),
    billing: createBilling(db),
    log,
    metrics,
  });
}
