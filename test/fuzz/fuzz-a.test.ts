// Fuzz, part A: requests generated from the OpenAPI document (test/fuzz/runner.ts). Replay a
// failure with the FUZZ_SEED and FUZZ_REQUESTS its message prints; FUZZ_SEED=random explores.
import { fuzzFile } from './suite.js';

fuzzFile('test/fuzz/fuzz-a.test.ts', 0x5eed_a001);
