// Releases the garbage of start-up once the server is up.
//
// Starting allocates far more than a running server keeps: migrations read and compared, route
// schemas compiled, the embedded store's first catalog reads. V8 grows its young generation and
// keeps the pages it used, and gives them back only when its memory reducer decides the process
// is idle, seconds later or (measured on `switchboard serve`, embedded store) not at all in the
// first 12 s: idle RSS then sat anywhere between 230 and 280 MiB from one start to the next. One
// full, memory-reducing collection right after start settles it at the low end every time.
//
// Node exposes no such call without --expose-gc on the command line, which `npm start` does not
// pass (and an operator's process manager should not have to). The flag is set for the moment it
// takes to fetch the function from a fresh context, then cleared, so nothing else sees a `gc`.
import v8 from 'node:v8';
import vm from 'node:vm';

/** Called without options: a forced, precise full collection (the options form is not one in Node 20's V8). */
type GcFunction = () => void;

function fetchGc(): GcFunction | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('typeof gc === "function" ? gc : null');
    return typeof gc === 'function' ? (gc as GcFunction) : null;
  } catch {
    return null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/** One synchronous full collection (tens of milliseconds); a no-op where unavailable. */
export function releaseStartupGarbage(): void {
  fetchGc()?.();
}
