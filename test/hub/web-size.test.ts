// The hub's initial JavaScript stays within the budget (250 KB gzipped): what index.html
// loads before a route's own chunk. web/dist is built by `npm ci` (prepare) and `npm run build`;
// without it this test fails rather than skips.
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script, no types
import { BUDGET_BYTES, initialJs, initialText, routeJs } from '../../scripts/web-size.mjs';

describe('the hub bundle', () => {
  it('loads at most 250 KB of gzipped JavaScript before any screen, and no route chunk eagerly', () => {
    const { files, gzipped } = initialJs() as { files: { file: string }[]; gzipped: number };
    expect(files.length).toBeGreaterThan(0);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
    // The usage chart (uPlot) and every page load on their route. (PageHeader is the shared heading
    // component, which the shell's own states use, not a page.)
    expect(files.map((f) => f.file).join(' ')).not.toMatch(/Page(?!Header)|uPlot|uplot|Builder/);
  });

  it('sends that JavaScript brotli-compressed, smaller than gzipped: each initial file has its .br copy', () => {
    const { files, gzipped, brotli } = initialJs() as { files: { file: string; bytes: number; brotli: number }[]; gzipped: number; brotli: number };
    // A file without a .br copy counts at its full size, so a build that skipped them fails here
    // (files under 1 KB get none: web/vite.config.ts PRECOMPRESS_MIN_BYTES).
    for (const f of files) if (f.bytes >= 1024) expect(f.brotli, f.file).toBeLessThan(f.bytes);
    expect(brotli).toBeLessThanOrEqual(gzipped);
  });

  it('loads @xyflow/react with the workflow builder\'s route only', () => {
    // The library's class names are in its code: none in the initial JS, all in the builder's.
    expect(initialText()).not.toMatch(/react-flow__/);
    const builder = routeJs('WorkflowBuilder') as { files: { file: string; text: string }[]; gzipped: number };
    expect(builder.files.some((f) => f.text.includes('react-flow__'))).toBe(true);
    expect(builder.gzipped).toBeGreaterThan(0);
    expect(builder.gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it("loads the automation builder with its route only, without the graph library", () => {
    // Its own words ("Send test for") are in its chunk, not in the initial JS.
    expect(initialText()).not.toMatch(/Send test for/);
    const builder = routeJs('AutomationBuilder') as { files: { file: string; text: string }[]; gzipped: number };
    expect(builder.files.some((f) => f.text.includes('Send test for'))).toBe(true);
    expect(builder.files.some((f) => f.text.includes('react-flow__'))).toBe(false);
    expect(builder.gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
