// Page conversion off the event loop. Markdown and HTML conversion is synchronous library code
// that takes up to a second or more on a large page (and a crafted source is cut off only by the
// render deadline), so the API and the engine convert in worker threads: a page being converted
// never holds up other requests. Workers start on first use, are unref'd (they never keep a
// process alive), and one that overruns the deadline is terminated and replaced.
//
// The workers are shared, so they are shared fairly: jobs wait in one queue per owner (an
// account) and free workers take them from the owners in turn, so one account's slow sources
// delay that account, not the others; an owner may have only so many waiting. A worker's heap is
// bounded: a small source whose HTML would be enormous (a Markdown table of 100,000 columns) runs
// out of it and is refused as too large, instead of growing the process by gigabytes.
import { Worker } from 'node:worker_threads';
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

/** Jobs one owner may have waiting (not yet on a worker) when bounded. */
export const MAX_WAITING_PER_OWNER = 4;
/** A conversion worker's heap: ample for any page within the limits, far below the machine's memory. */
export const WORKER_HEAP_MB = 256;

/** Converts in the calling thread (operator tools and tests of the conversion itself). */
export const inlinePageRenderer: PageRenderer = {
  render: async (source) => renderPage(source),
  close: async () => {},
};

type Reply = { ready: true } | { id: number; page: RenderedPage } | { id: number; error: { reason: 'timeout' | 'failed'; message: string } };

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
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/** Started from TypeScript sources (tests, tsx), the worker registers tsx before loading its module. */
function spawnWorker(): Worker {
  const here = import.meta.url;
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 };
  if (!here.endsWith('.ts')) return new Worker(new URL('./page-worker.js', here), { resourceLimits });
  // The ESM entry of tsx's API (import.meta.resolve applies the "import" condition; require.resolve
  // would give the CommonJS one).
  const tsx = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
  const entry = new URL('./page-worker.ts', here).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, resourceLimits });
}

export class WorkerPageRenderer implements PageRenderer {
  private readonly slots: Slot[] = [];
  /** Waiting jobs per owner; owners are served in the map's order, an owner served goes last. */
  private readonly queues = new Map<string, Job[]>();
  private lastOwner: string | null = null;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size = 2,
    /** The render deadline inside the worker; the worker is killed if it has not answered 2 s later. */
    private readonly timeoutMs = PAGE_RENDER_TIMEOUT_MS,
  ) {}

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

  /**
   * The next job, from the owner whose turn it is: the longest-waiting owner other than the one
   * served last (even if that one's queue had emptied and filled again meanwhile); the owner
   * served goes to the back of the line.
   */
  private nextJob(): Job | null {
    let owner: string | undefined;
    for (const o of this.queues.keys()) {
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
        if (this.slots.length >= this.size) return; // a busy or starting worker takes it next
        this.start();
        return;
      }
      this.run(slot, this.nextJob()!);
    }
  }

  private start(): void {
    const slot: Slot = { worker: spawnWorker(), ready: false, job: null, timer: null };
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
    slot.timer = setTimeout(() => {
      void this.retire(slot, new PageRenderError('timeout', `conversion took longer than ${this.timeoutMs} ms`));
    }, this.timeoutMs + 2_000);
    slot.timer.unref();
    slot.worker.postMessage({ id: job.id, source: job.source, timeoutMs: this.timeoutMs });
  }

  private onReply(slot: Slot, m: Reply): void {
    if ('ready' in m) {
      slot.ready = true;
      this.pump();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    if ('page' in m) job.resolve(m.page);
    else job.reject(new PageRenderError(m.error.reason, m.error.message));
    this.pump();
  }

  /** Takes a worker out (dead, stuck or closing); its job, if any, fails with `err`. */
  private async retire(slot: Slot, err: Error): Promise<void> {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    if (slot.timer) clearTimeout(slot.timer);
    slot.job?.reject(err);
    slot.job = null;
    await slot.worker.terminate().catch(() => 0);
    if (!slot.ready) {
      // It died before it could take any work (it cannot load): respawning would only loop.
      for (const q of this.queues.values()) for (const job of q) job.reject(err);
      this.queues.clear();
      return;
    }
    if (!this.closed) this.pump();
  }
}
