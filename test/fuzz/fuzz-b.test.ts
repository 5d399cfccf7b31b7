// Fuzz, part B: the same generator with another seed, so vitest's two workers share the work.
import { fuzzFile } from './suite.js';

fuzzFile('test/fuzz/fuzz-b.test.ts', 0x5eed_b002);
