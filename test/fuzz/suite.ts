// One fuzz test file: a fresh app (inbound SMS switched on, so that route is reached too), the
// runner with the file's seed and count, the summary printed, and the assertions. The fuzz files
// differ only in their default seed, so vitest's two workers share the work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { INBOUND_SECRET } from './off-document.js';
import { fuzzCount, fuzzSeed } from './prng.js';
import { failureReport, fixedButPending, runFuzz, summary } from './runner.js';

/** Requests per file by default: two files give ~2,000 per store (measured, both files at once on 2 cores: 13-23 s a file at a load average of ~15, 40-55 s at ~23). */
export const DEFAULT_REQUESTS = 1000;

export function fuzzFile(file: string, defaultSeed: number): void {
  const seed = fuzzSeed(defaultSeed);
  const count = fuzzCount(DEFAULT_REQUESTS);
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ delivery: { ...loadConfig({}).delivery, inboundSmsSecret: INBOUND_SECRET } });
  });
  afterAll(() => t?.close());

  describe(`fuzz (seed ${seed}, ${count} requests)`, () => {
    it('answers every generated request by the rules: no 5xx, documented statuses, catalogue codes, valid bodies, headers', async () => {
      const report = await runFuzz(t.app, t.db, { seed, count });
      console.log(summary(report, file));
      expect(report.found.length, failureReport(report, file, count)).toBe(0);
      expect(fixedButPending(report), 'these PENDING_FIXES are fixed now: remove them from test/fuzz/pending.ts').toEqual([]);
    }, 600_000);
  });
}
