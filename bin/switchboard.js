#!/usr/bin/env -S node --v8-pool-size=2
// The `switchboard` executable: runs the compiled, bundled CLI (built by `npm ci` through the
// `prepare` script: tsc, then scripts/bundle.mjs). `npm start` runs this file, so its first line
// is the one place the process's node flags are set (the bench reads them from here too).
//
// --v8-pool-size=2: V8's helper threads (parallel GC, background compilation) default to 4 in
// Node whatever the machine. On the embedded store they compile PostgreSQL's WebAssembly while
// starting, and each thread's malloc arena keeps what it used: idle RSS came out at ~218 or
// ~265 MiB from one start to the next (mean 252, 6 starts), against 189-207 (mean 199) with two
// threads, with the same requests per second. A process that must run as `node <file>` should
// pass the same flag.
import { main } from '../dist/switchboard.js';

main(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.message : String(err)); process.exitCode = 1; },
);
