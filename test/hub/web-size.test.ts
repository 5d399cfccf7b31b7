// The hub's initial JavaScript stays within the budget (250 KB gzipped): what index.html
// loads before a route's own chunk. web/dist is built by `npm ci` (prepare) and `npm run build`;
// without it this test fails rather than skips.
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script, no types
import { BUDGET_BYTES, initialJs } from '../../scripts/web-size.mjs';

describe('the hub bundle', () => {
  it('loads at most 250 KB of gzipped JavaScript before any screen, and no route chunk eagerly', () => {
    const { files, gzipped } = initialJs() as { files: { file: string }[]; gzipped: number };
    expect(files.length).toBeGreaterThan(0);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
    // The usage chart (uPlot) and every page load on their route.
    expect(files.map((f) => f.file).join(' ')).not.toMatch(/Page|uPlot|uplot/);
  });
});
