// Page conversion in worker threads: the same pages as renderPage, conversions in parallel, the
// event loop free while a slow source converts, the deadline enforced in the worker (which stays
// usable), and close() refusing further work.
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_BYTES, pageBytes, PageRenderError, renderPage, type RenderedPage } from '../../src/lib/page.js';
import {
  currentThreadId,
  MAX_WAITING_PER_OWNER,
  procThreadCpuMs,
  WorkerPageRenderer,
  type WorkerPageRendererOptions,
} from '../../src/lib/page-renderer.js';

const renderers: WorkerPageRenderer[] = [];
const make = (size?: number, timeoutMs?: number, options?: WorkerPageRendererOptions) => {
  const r = new WorkerPageRenderer(size, timeoutMs, options);
  renderers.push(r);
  return r;
};
afterAll(async () => {
  await Promise.all(renderers.map((r) => r.close()));
});

// Markdown that the converter handles very slowly (quadratic link parsing): far past any deadline.
const SLOW = '[a]('.repeat(16_000);

describe('WorkerPageRenderer', () => {
  it('converts Markdown and HTML exactly as renderPage does, sanitised', async () => {
    const r = make();
    const md = { markdown: '# Hi\n\nSome **bold** <script>alert(1)</script> [x](javascript:alert(1))' };
    const html = { html: '<p onclick="x()">Hello <b>there</b></p><iframe src="https://e.x"></iframe>' };
    expect(await r.render(md)).toEqual(renderPage(md));
    expect(await r.render(html)).toEqual(renderPage(html));
    expect((await r.render(md)).html).not.toMatch(/script|javascript|onclick/i);
  });

  it('runs many conversions at once on its workers, each answer going to its own caller', async () => {
    const r = make(2);
    const pages = await Promise.all(Array.from({ length: 9 }, (_, i) => r.render({ markdown: `# Page ${i}` })));
    expect(pages.map((p) => p.html)).toEqual(Array.from({ length: 9 }, (_, i) => `<h1>Page ${i}</h1>\n`));
  });

  it('keeps the event loop free while a slow source converts, stops it at the deadline, and carries on', async () => {
    const r = make(1, 400);
    await r.render({ markdown: 'warm up' }); // the worker is started and loaded
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    const err = await r.render({ markdown: SLOW }).catch((e: unknown) => e);
    clearInterval(timer);
    expect(err).toBeInstanceOf(PageRenderError);
    expect((err as PageRenderError).reason).toBe('timeout');
    // In this thread the conversion would have blocked every timer for its whole length.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor((Date.now() - started) / 10 / 4));
    expect(ticks).toBeGreaterThan(5);
    expect((await r.render({ markdown: 'after *that*' })).html).toBe('<p>after <em>that</em></p>\n');
  });

  it('after close() it converts nothing more', async () => {
    const r = make(1);
    expect((await r.render({ markdown: 'x' })).text).toBe('x');
    await r.close();
    await expect(r.render({ markdown: 'y' })).rejects.toThrow(/closed/);
  });

  it('lets owners take turns: one owner\'s queue of slow sources does not delay another\'s page', async () => {
    const r = make(1, 300);
    await r.render({ markdown: 'warm up' });
    const order: string[] = [];
    const slow = Array.from({ length: 3 }, (_, i) =>
      r.render({ markdown: SLOW }, { owner: 'a' }).then(
        () => order.push(`a${i}`),
        () => order.push(`a${i}`),
      ),
    );
    const quick = r.render({ markdown: '# B' }, { owner: 'b' }).then((p) => {
      order.push('b');
      return p;
    });
    expect((await quick).html).toBe('<h1>B</h1>\n');
    await Promise.all(slow);
    // b waited for the one slow job already on the worker, not for a's whole queue.
    expect(order).toEqual(['a0', 'b', 'a1', 'a2']);
  });

  it('refuses a bounded owner past its share of waiting jobs (busy), and no other owner', async () => {
    const r = make(1, 300);
    await r.render({ markdown: 'warm up' });
    const running = r.render({ markdown: SLOW }, { owner: 'a', bounded: true }).catch(() => null);
    const waiting = Array.from({ length: MAX_WAITING_PER_OWNER }, () => r.render({ markdown: SLOW }, { owner: 'a', bounded: true }).catch(() => null));
    await expect(r.render({ markdown: 'one more' }, { owner: 'a', bounded: true })).rejects.toMatchObject({ reason: 'busy' });
    expect((await r.render({ markdown: 'other' }, { owner: 'b', bounded: true })).html).toBe('<p>other</p>\n');
    await Promise.all([running, ...waiting]);
    expect(r.waiting).toBe(0);
  }, 180_000);
});

// A source whose HTML is 1.1 MB, which marked's own text rule took minutes of CPU to find.
const CRAFTED = { markdown: '*a'.repeat(200_000) };
const settled = (p: Promise<unknown>) => p.then((v) => ({ ok: v }), (e: unknown) => ({ err: e }));
/** What the API answers for a conversion: a page within the limit, too large (413), or the failure's reason (422). */
const answer = (p: Promise<RenderedPage>) =>
  p.then(
    (page) => (pageBytes(page) > MAX_PAGE_BYTES ? 'too_large' : 'page'),
    (e: PageRenderError) => e.reason,
  );

describe('WorkerPageRenderer: the same answer on any day', () => {
  it('refuses the crafted source as too large, on idle workers and while others keep every core busy', async () => {
    const r = make(3);
    expect(await answer(r.render(CRAFTED, { owner: 'a' }))).toBe('too_large');
    // Two other owners' slow sources run to the budget on two workers (on this 2-core machine,
    // both cores), while the crafted source converts on the third: wall time stretches, CPU does not.
    const hogs = [r.render({ markdown: SLOW }, { owner: 'x' }), r.render({ markdown: SLOW }, { owner: 'y' })].map(settled);
    expect(await answer(r.render(CRAFTED, { owner: 'a' }))).toBe('too_large');
    expect(await Promise.all(hogs)).toMatchObject([{ err: { reason: 'timeout' } }, { err: { reason: 'timeout' } }]);
  }, 180_000);

  it('holds a conversion to its CPU time, not the wall clock', async () => {
    // A fake clock: the worker "uses no CPU" until told otherwise, as a worker starved of a core.
    let cpu = 0;
    const r = make(1, 300, { cpuClock: () => cpu });
    await r.render({ markdown: 'warm up' });
    const slow = settled(r.render({ markdown: SLOW }));
    let done = false;
    void slow.then(() => (done = true));
    await new Promise((res) => setTimeout(res, 1_000)); // three times the budget in wall time
    expect(done).toBe(false);
    cpu = 301; // the budget is spent
    expect(await slow).toMatchObject({ err: { reason: 'timeout' } });
    expect((await r.render({ markdown: 'after *that*' })).html).toBe('<p>after <em>that</em></p>\n');
  }, 180_000);

  it("reads a thread's own CPU time", () => {
    const tid = currentThreadId();
    expect(tid).toBeGreaterThan(0);
    const before = procThreadCpuMs(tid!)!;
    const until = Date.now() + 200;
    let x = 0;
    while (Date.now() < until) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    expect(procThreadCpuMs(tid!)!).toBeGreaterThan(before);
  });
});

describe('WorkerPageRenderer: one owner cannot hold every worker', () => {
  it('gives another owner the worker one owner may not take, while the first saturates its share', async () => {
    const r = make(2, 1_000);
    // Both workers started and loaded.
    await Promise.all([r.render({ markdown: 'one' }), r.render({ markdown: 'two' })]);
    expect(r.maxBusyPerOwner).toBe(1);
    const order: string[] = [];
    const slow = Array.from({ length: 3 }, (_, i) => settled(r.render({ markdown: SLOW }, { owner: 'a' })).then(() => order.push(`a${i}`)));
    // a holds one worker and has the rest waiting, although the other worker is free.
    expect(r.busy('a')).toBe(1);
    expect(r.waiting).toBe(2);
    const quick = await r.render({ markdown: '# B' }, { owner: 'b' });
    order.push('b');
    expect(quick.html).toBe('<h1>B</h1>\n');
    expect(r.busy('a')).toBe(1); // a's first is still converting
    await Promise.all(slow);
    expect(order).toEqual(['b', 'a0', 'a1', 'a2']);
  }, 300_000); // a hang's deadline: slow conversions on a loaded machine, not a speed

  it('lets a lone owner use every worker when the pool has only one', async () => {
    const r = make(1, 2_000);
    expect(r.maxBusyPerOwner).toBe(1);
    const pages = await Promise.all([r.render({ markdown: 'x' }, { owner: 'a' }), r.render({ markdown: 'y' }, { owner: 'a' })]);
    expect(pages.map((p) => p.text)).toEqual(['x', 'y']);
  });
});
