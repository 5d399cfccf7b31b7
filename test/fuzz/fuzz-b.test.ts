// Fuzz, part B: requests generated from the OpenAPI document against a fresh app and the demo
// account (see test/fuzz/runner.ts). Two files with different seeds share the suite's two
// workers. Replay a failure with the FUZZ_SEED and FUZZ_REQUESTS its message prints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { INBOUND_SECRET } from './off-document.js';
import { fuzzCount, fuzzSeed } from './prng.js';
import { failureReport, fixedButPending, runFuzz, summary } from './runner.js';

const FILE = 'test/fuzz/fuzz-b.test.ts';
const SEED = fuzzSeed(0x5eed_b002);
const COUNT = fuzzCount(1500);

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ delivery: { ...loadConfig({}).delivery, inboundSmsSecret: INBOUND_SECRET } });
});
afterAll(() => t?.close());

describe(`fuzz B (seed ${SEED}, ${COUNT} requests)`, () => {
  it('answers every generated request by the rules: no 5xx, documented statuses, catalogue codes, valid bodies, headers', async () => {
    const report = await runFuzz(t.app, t.db, { seed: SEED, count: COUNT });
    console.log(summary(report, FILE));
    expect(report.found.length, failureReport(report, FILE, COUNT)).toBe(0);
    expect(fixedButPending(report), 'these PENDING_FIXES are fixed now: remove them from test/fuzz/pending.ts').toEqual([]);
  }, 300_000);
});
