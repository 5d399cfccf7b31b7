// The page converter's Markdown: exactly marked's GFM output (checked against marked itself on
// random input), text runs found in linear time, and a table sized before it is built.
import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { pageMarkdown, PageTooLargeError } from '../../src/lib/page-markdown.js';
import { currentThreadId, procThreadCpuMs } from '../../src/lib/page-renderer.js';
import { MAX_PAGE_BYTES, PageRenderError, renderPage } from '../../src/lib/page.js';

const reference = new Marked({ gfm: true, breaks: false });
const ours = pageMarkdown(MAX_PAGE_BYTES);
const html = (m: Marked, s: string) => m.parse(s, { async: false });

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces that exercise every branch of the text rule: e-mail addresses and local-part characters,
// hard breaks, emphasis, code, links, autolinks, escapes, raw HTML and tables.
const PIECES = [
  'a', 'b', '*', '**', '_', '@', '.', '-', '+', ' ', '  \n', '\n', '\n\n', '`', '~', '~~', 'http', 'https://x.io',
  'www.', '<', '>', '\\', '[', '](', ')', '!', 'é', 'x@y.z', 'a.b@c.de', 'mailto:', '<b>', '|', '\n| - |\n', ':--',
  '#', '> ', '1. ', '- ',
];

describe('page Markdown', () => {
  it('converts exactly as marked does (5,000 random sources)', () => {
    const next = prng(20261126);
    const differ: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      let s = '';
      const n = 1 + Math.floor(next() * 40);
      for (let j = 0; j < n; j++) s += PIECES[Math.floor(next() * PIECES.length)];
      if (html(ours, s) !== html(reference, s)) differ.push(s);
    }
    expect(differ).toEqual([]);
  });

  it('converts e-mail autolinks, hard breaks and emphasis next to them as marked does', () => {
    for (const s of [
      'write to ann@example.com today',
      '*a*b@c.de*e*',
      'x.y+z@host.io and *u@v.w*',
      'line one  \nline two',
      'a*b*c@d.e\n\nnext **bold@x.y**',
      '*a'.repeat(2_000) + '@x.io',
    ]) {
      expect(html(ours, s)).toBe(html(reference, s));
    }
  });

  it('a long stretch of emphasis ("*a" × 200,000) is converted in full, well within the CPU budget', () => {
    // marked's own text rule scans to the end of the stretch for every one of its 100,000 text
    // runs (minutes of CPU); here it is one pass. The HTML is over the page limit.
    const tid = currentThreadId()!;
    const start = procThreadCpuMs(tid)!;
    const out = html(ours, '*a'.repeat(200_000));
    const cpuMs = procThreadCpuMs(tid)! - start;
    expect(out.length).toBe(1_100_008);
    expect(out.startsWith('<p><em>a</em>a<em>a</em>')).toBe(true);
    // This thread's CPU time (not wall time): the same on a busy machine. marked's rule needs ~100 s.
    expect(cpuMs).toBeLessThan(30_000);
  }, 120_000);

  it('a table whose cells would be over the page limit is refused before it is built', () => {
    // 1,000 columns × 100 body rows: 100,000 cells, at least 900 KB of HTML.
    const table = 'a|'.repeat(1_000) + '\n' + '-|'.repeat(1_000) + '\n' + 'b\n'.repeat(100);
    expect(() => html(ours, table)).toThrow(PageTooLargeError);
    let err: unknown;
    try {
      renderPage({ markdown: table });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PageRenderError);
    expect((err as PageRenderError).reason).toBe('too_large');
  });

  it('a large table within the limit still converts, as marked converts it', () => {
    // 50 columns × 1,000 rows: 50,000 cells, about 450 KB at the least.
    const table = '| h '.repeat(50) + '|\n' + '|:-:'.repeat(50) + '|\n' + '| c '.repeat(50).concat('|\n').repeat(1_000);
    expect(html(ours, table)).toBe(html(reference, table));
    // Many columns in the header but rows that do not follow is no table: as marked.
    const notTable = 'a|'.repeat(1_000) + '\nnot a delimiter row\n' + 'b\n'.repeat(100);
    expect(html(ours, notTable)).toBe(html(reference, notTable));
  });
});
