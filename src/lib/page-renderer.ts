// Page conversion off the event loop. Markdown and HTML conversion is synchronous library code
// that takes up to a second or more on a large page, so the API and the engine convert in worker
// threads: a page being converted never holds up other requests. Workers start on first use, are
// unref'd (they never keep a process alive), and one that overruns its budget is terminated and
// replaced.
//
// The budget is the converting thread's own CPU time (read from /proc on Linux), not wall time:
// on a busy machine a conversion gets less of a core but the same CPU time, so a source gets the
// same answer on an idle and on a loaded server. So a long conversion can also run at a lower
// priority than the event loop and other pages' short conversions without changing any answer. A wall-clock backstop
// (20 times the budget) still stops a worker whose CPU time cannot be followed; where thread CPU
// time cannot be read at all, the budget is wall time, as before.
//
// The workers are shared, so they are shared fairly: jobs wait in one queue per owner (an
// account), free workers take them from the owners in turn, and one owner holds at most all but
// one of the workers, so another account's page always finds a worker free or about to be; an
// owner may have only so many waiting. A worker's heap is bounded: a source whose HTML would be
// enormous and which the converter's own checks miss runs out of it and is refused as too large,
// instead of growing the process by gigabytes.
import { readFileSync, readlinkSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FROM_SOURCE, moduleFile } from '../code-location.js';
import { PAGE_RENDER_TIMEOUT_MS, PageRenderError, renderPage, type PageSource, type RenderedPage } from './page.js';

export interface RenderOptions {
  /** Whose conversion this is (an account id): owners take turns at the workers. */
  owner?: string;
  /** Refuse (PageRenderError 'busy') rather than queue past the owner's share of waiting jobs. */
  bounded?: boolean;
}

export interface PageRenderer {
  /** Markdown or HTML → `{text, html}`; rejects with PageRenderError when it cannot be converted. */
  render(source: PageSource, options?: RenderOptions): Promise<RenderedPage>;
  close(): Promise<void>;
}

/**
 * Workers in a pool: one per core (2 to 4), plus one, so that a lone account converts on as many
 * workers as there are cores and another account still finds one free (3 on a 2-core machine).
 */
export const DEFAULT_WORKERS = Math.min(Math.max(2, availableParallelism()), 4) + 1;
/** Jobs one owner may have waiting (not yet on a worker) when bounded. */
export const MAX_WAITING_PER_OWNER = 4;
/** A conversion worker's heap: ample for any page within the limits, far below the machine's memory. */
export const WORKER_HEAP_MB = 256;
/**
 * A conversion is stopped after this many times its CPU budget in wall time, whatever its CPU time
 * (a worker whose CPU time stopped being readable); far past the HTTP request deadline.
 */
export const WALL_BACKSTOP_FACTOR = 20;
/**
 * A conversion that has used this much CPU time is a long one: its thread drops to WORKER_NICE
 * (Linux priorities are per thread), below the event loop and the short conversions of other
 * pages, and is replaced by a fresh worker when it is done (a thread may not raise its priority
 * again). Its answer does not change: its budget is CPU time, not wall time.
 */
export const LONG_CONVERSION_MS = 50;
export const WORKER_NICE = 10;
/** How often a running conversion's CPU time is read. */
const CPU_POLL_MS = 50;

/** CPU time (ms) a thread of this process has used, or null if it cannot be read. */
export type ThreadCpuClock = (tid: number) => number | null;

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** Linux: utime + stime of /proc/self/task/<tid>/stat (fields 14 and 15, after the command name). */
export const procThreadCpuMs: ThreadCpuClock = (tid) => {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
};

/** The calling thread's id (what /proc/self/task lists), or null off Linux. */
export function currentThreadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Converts in the calling thread (operator tools and tests of the conversion itself). */
export const inlinePageRenderer: PageRenderer = {
  render: async (source) => renderPage(source),
  close: async () => {},
};

type Reply =
  | { ready: true; tid: number | null }
  | { id: number; page: RenderedPage }
  | { id: number; error: { reason: 'timeout' | 'failed' | 'too_large'; message: string } };

interface Job {
  id: number;
  owner: string;
  source: PageSource;
  resolve(page: RenderedPage): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** The worker thread's id, when its CPU time can be read: then the budget is CPU time. */
  tid: number | null;
  job: Job | null;
  /** The thread's CPU time when the job started. */
  cpuAtStart: number;
  /** Its priority was lowered for a long conversion: it is replaced once that is done. */
  lowered: boolean;
  timer: NodeJS.Timeout | null;
  poll: NodeJS.Timeout | null;
}

/** Started from TypeScript sources (tests, tsx), the worker registers tsx before loading its module. */
function spawnWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 };
  const file = moduleFile('lib/page-worker');
  if (!FROM_SOURCE) return new Worker(file, { resourceLimits });
  // The ESM entry of tsx's API (import.meta.resolve applies the "import" condition; require.resolve
  // would give the CommonJS one).
  const tsx = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
  const entry = pathToFileURL(file).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, resourceLimits });
}

export interface WorkerPageRendererOptions {
  /** Reads a worker thread's CPU time; null disables CPU budgets (wall time is used instead). */
  cpuClock?: ThreadCpuClock | null;
}

export class WorkerPageRenderer implements PageRenderer {
  private readonly slots: Slot[] = [];
  /** Waiting jobs per owner; owners are served in the map's order, an owner served goes last. */
  private readonly queues = new Map<string, Job[]>();
  private lastOwner: string | null = null;
  private nextId = 1;
  private closed = false;
  private readonly cpuClock: ThreadCpuClock | null;

  constructor(
    private readonly size = DEFAULT_WORKERS,
    /** The conversion budget: the worker's CPU time (or wall time where that cannot be read). */
    private readonly timeoutMs = PAGE_RENDER_TIMEOUT_MS,
    options: WorkerPageRendererOptions = {},
  ) {
    this.cpuClock = options.cpuClock === undefined ? procThreadCpuMs : options.cpuClock;
  }

  /** Workers one owner may hold at once: all but one, so that another owner always finds one. */
  get maxBusyPerOwner(): number {
    return Math.max(1, this.size - 1);
  }

  render(source: PageSource, options: RenderOptions = {}): Promise<RenderedPage> {
    if (this.closed) return Promise.reject(new Error('the page renderer is closed'));
    const owner = options.owner ?? '';
    const waiting = this.queues.get(owner) ?? [];
    if (options.bounded && waiting.length >= MAX_WAITING_PER_OWNER) {
      return Promise.reject(new PageRenderError('busy', `${MAX_WAITING_PER_OWNER} conversions are already waiting`));
    }
    return new Promise((resolve, reject) => {
      waiting.push({ id: this.nextId++, owner, source, resolve, reject });
      if (!this.queues.has(owner)) this.queues.set(owner, waiting);
      this.pump();
    });
  }

  /** Jobs waiting for a worker, all owners. */
  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  /** Workers converting for `owner` now. */
  busy(owner: string): number {
    return this.slots.filter((s) => s.job?.owner === owner).length;
  }

  /**
   * The next job, from the owner whose turn it is: the longest-waiting owner other than the one
   * served last (even if that one's queue had emptied and filled again meanwhile), skipping owners
   * that already hold their share of workers; the owner served goes to the back of the line.
   */
  private nextJob(): Job | null {
    let owner: string | undefined;
    for (const o of this.queues.keys()) {
      if (this.busy(o) >= this.maxBusyPerOwner) continue;
      if (owner === undefined) owner = o;
      if (o !== this.lastOwner) {
        owner = o;
        break;
      }
    }
    if (owner === undefined) return null;
    const q = this.queues.get(owner)!;
    const job = q.shift()!;
    this.queues.delete(owner);
    if (q.length) this.queues.set(owner, q);
    this.lastOwner = owner;
    return job;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queues.values()) for (const job of q) job.reject(new Error('the page renderer is closed'));
    this.queues.clear();
    await Promise.all(this.slots.splice(0).map((s) => this.retire(s, new Error('the page renderer is closed'))));
  }

  private pump(): void {
    while (this.queues.size) {
      const slot = this.slots.find((s) => s.ready && !s.job);
      if (!slot) {
        // The whole pool starts at once: a worker takes seconds to load on a busy machine, and an
        // owner held to its share needs the spare one ready when its page comes.
        while (this.slots.length < this.size) this.start();
        return; // a busy or starting worker takes it next
      }
      const job = this.nextJob();
      if (!job) return; // every waiting owner holds its share: the free worker stays for others
      this.run(slot, job);
    }
  }

  private start(): void {
    const slot: Slot = { worker: spawnWorker(), ready: false, tid: null, job: null, cpuAtStart: 0, lowered: false, timer: null, poll: null };
    slot.worker.unref();
    slot.worker.on('message', (m: Reply) => this.onReply(slot, m));
    slot.worker.on('error', (err: NodeJS.ErrnoException) => {
      const tooLarge = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      void this.retire(
        slot,
        tooLarge
          ? new PageRenderError('too_large', `the conversion outgrew ${WORKER_HEAP_MB} MB: the page would be far too large`)
          : new PageRenderError('failed', `conversion failed: ${err.message}`),
      );
    });
    slot.worker.on('exit', () => void this.retire(slot, new PageRenderError('failed', 'conversion failed: the worker stopped')));
    this.slots.push(slot);
  }

  private run(slot: Slot, job: Job): void {
    slot.job = job;
    const overBudget = () => new PageRenderError('timeout', `conversion took longer than ${this.timeoutMs} ms`);
    const cpu = slot.tid !== null && this.cpuClock ? this.cpuClock(slot.tid) : null;
    // With CPU time to go by, the wall clock is only a backstop for a starved worker.
    const wallMs = cpu === null ? this.timeoutMs : this.timeoutMs * WALL_BACKSTOP_FACTOR;
    if (cpu !== null) {
      slot.cpuAtStart = cpu;
      slot.poll = setInterval(() => {
        const now = this.cpuClock!(slot.tid!);
        if (now === null) return;
        if (now - slot.cpuAtStart > this.timeoutMs) void this.retire(slot, overBudget());
        else if (now - slot.cpuAtStart > LONG_CONVERSION_MS && !slot.lowered) this.lower(slot);
      }, CPU_POLL_MS);
      slot.poll.unref();
    }
    slot.timer = setTimeout(() => void this.retire(slot, overBudget()), wallMs + 2_000);
    slot.timer.unref();
    slot.worker.postMessage({ id: job.id, source: job.source, timeoutMs: wallMs });
  }

  private lower(slot: Slot): void {
    slot.lowered = true;
    try {
      setPriority(slot.tid!, WORKER_NICE);
    } catch {
      // not allowed here: it keeps the process's priority
    }
  }

  private stopClocks(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.poll) clearInterval(slot.poll);
    slot.timer = null;
    slot.poll = null;
  }

  private onReply(slot: Slot, m: Reply): void {
    if ('ready' in m) {
      slot.ready = true;
      slot.tid = m.tid;
      this.pump();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    this.stopClocks(slot);
    slot.job = null;
    if ('page' in m) job.resolve(m.page);
    else job.reject(new PageRenderError(m.error.reason, m.error.message));
    if (slot.lowered) void this.retire(slot, new Error('unused')); // a fresh worker at full priority replaces it
    else this.pump();
  }

  /** Takes a worker out (dead, stuck or closing); its job, if any, fails with `err`. */
  private async retire(slot: Slot, err: Error): Promise<void> {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    this.stopClocks(slot);
    slot.job?.reject(err);
    slot.job = null;
    await slot.worker.terminate().catch(() => 0);
    if (!slot.ready) {
      // It died before it could take any work (it cannot load): respawning would only loop.
      for (const q of this.queues.values()) for (const job of q) job.reject(err);
      this.queues.clear();
      return;
    }
    if (this.closed) return;
    this.start(); // its replacement loads now, not when the next page comes
    this.pump();
  }
}
