#!/usr/bin/env node
// The `switchboard` executable: runs the compiled, bundled CLI (built by `npm ci` through the
// `prepare` script: tsc, then scripts/bundle.mjs).
import { main } from '../dist/switchboard.js';

main(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.message : String(err)); process.exitCode = 1; },
);
