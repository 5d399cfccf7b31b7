// One of several processes racing for the same data-dir lock (test/db/data-dir-lock.test.ts).
// Usage: lock-contender.ts DATA_DIR SIGNAL_DIR ROUNDS
// Prints `ready`, then for each round waits for SIGNAL_DIR/go-<round>, tries the lock once and
// prints `<round> won` or `<round> refused`. It never releases what it won and stays alive until
// SIGNAL_DIR/end exists, so the round's winner is a live owner while the others look.
import fs from 'node:fs';
import path from 'node:path';
import { DataDirLockedError, takeDataDirLock } from '../../src/db/data-dir-lock.js';

const [dataDir, signalDir, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg);
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function awaitFile(name: string): void {
  const deadline = Date.now() + 180_000;
  while (!fs.existsSync(path.join(signalDir, name))) {
    if (Date.now() > deadline) process.exit(3); // the test went away: never linger
    pause(1);
  }
}

process.stdout.write('ready\n');
for (let round = 0; round < rounds; round++) {
  awaitFile(`go-${round}`);
  let outcome: string;
  try {
    takeDataDirLock(dataDir);
    outcome = 'won';
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    outcome = 'refused';
  }
  process.stdout.write(`${round} ${outcome}\n`);
}
awaitFile('end');
