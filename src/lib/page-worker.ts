// The page-conversion worker (see page-renderer.ts): converts one source at a time with the same
// renderPage the rest of the code uses, and answers with the page or the reason it failed. It
// tells its thread id first, so that the pool can hold it to a CPU-time budget.
import { parentPort } from 'node:worker_threads';
import { htmlLibraries, PageRenderError, renderPage, type PageSource } from './page.js';
import { currentThreadId } from './page-renderer.js';

const port = parentPort;
if (!port) throw new Error('page-worker.ts runs as a worker thread');

port.on('message', (m: { id: number; source: PageSource; timeoutMs: number }) => {
  try {
    port.postMessage({ id: m.id, page: renderPage(m.source, { timeoutMs: m.timeoutMs }) });
  } catch (err) {
    const e = err instanceof PageRenderError ? err : new PageRenderError('failed', 'conversion failed');
    port.postMessage({ id: m.id, error: { reason: e.reason, message: e.message } });
  }
});
// sanitize-html and its parser load when first used (page.ts); a worker exists to convert, so it
// loads them now, before it says it is ready, and no conversion's CPU budget pays for them.
htmlLibraries();
port.postMessage({ ready: true, tid: currentThreadId() });
