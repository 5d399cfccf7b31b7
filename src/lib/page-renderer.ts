// Page conversion off the event loop. Markdown and HTML conversion is synchronous library code
// that takes up to a second or more on a large page (and a crafted source is cut off only by the
// render deadline), so the API and the engine convert in worker threads: a page being converted
// never holds up other requests. Workers start on first use, are unref'd (they never keep a
// process alive), and one that overruns the deadline is terminated and replaced.
import { Worker } from 'node:worker_threads';
import { PAGE_RENDER_TIMEOUT_MS, PageRenderError, renderPage, type PageSource, type RenderedPage } from './page.js';

export interface PageRenderer {
  /** Markdown or HTML → `{text, html}`; rejects with PageRenderError when it cannot be converted. */
  render(source: PageSource): Promise<RenderedPage>;
  close(): Promise<void>;
}

/** Converts in the calling thread (operator tools and tests of the conversion itself). */
export const inlinePageRenderer: PageRenderer = {
  render: async (source) => renderPage(source),
  close: async () => {},
};

type Reply = { ready: true } | { id: number; page: RenderedPage } | { id: number; error: { reason: 'timeout' | 'failed'; message: string } };

interface Job {
  id: number;
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
  if (!here.endsWith('.ts')) return new Worker(new URL('./page-worker.js', here));
  // The ESM entry of tsx's API (import.meta.resolve applies the "import" condition; require.resolve
  // would give the CommonJS one).
  const tsx = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
  const entry = new URL('./page-worker.ts', here).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true });
}

export class WorkerPageRenderer implements PageRenderer {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size = 2,
    /** The render deadline inside the worker; the worker is killed if it has not answered 2 s later. */
    private readonly timeoutMs = PAGE_RENDER_TIMEOUT_MS,
  ) {}

  render(source: PageSource): Promise<RenderedPage> {
    if (this.closed) return Promise.reject(new Error('the page renderer is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, source, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the page renderer is closed'));
    await Promise.all(this.slots.splice(0).map((s) => this.retire(s, new Error('the page renderer is closed'))));
  }

  private pump(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => s.ready && !s.job);
      if (!slot) {
        if (this.slots.length >= this.size) return; // a busy or starting worker takes it next
        this.start();
        return;
      }
      this.run(slot, this.queue.shift()!);
    }
  }

  private start(): void {
    const slot: Slot = { worker: spawnWorker(), ready: false, job: null, timer: null };
    slot.worker.unref();
    slot.worker.on('message', (m: Reply) => this.onReply(slot, m));
    slot.worker.on('error', (err) => void this.retire(slot, new PageRenderError('failed', `conversion failed: ${err.message}`)));
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
      for (const job of this.queue.splice(0)) job.reject(err);
      return;
    }
    if (!this.closed) this.pump();
  }
}
