// Page conversion in worker threads: the same pages as renderPage, conversions in parallel, the
// event loop free while a slow source converts, the deadline enforced in the worker (which stays
// usable), and close() refusing further work.
import { afterAll, describe, expect, it } from 'vitest';
import { PageRenderError, renderPage } from '../../src/lib/page.js';
import { MAX_WAITING_PER_OWNER, WorkerPageRenderer } from '../../src/lib/page-renderer.js';

const renderers: WorkerPageRenderer[] = [];
const make = (size?: number, timeoutMs?: number) => {
  const r = new WorkerPageRenderer(size, timeoutMs);
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
  }, 20_000);
});
