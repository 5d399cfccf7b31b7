// Keeps the event loop alive while a command runs, so awaiting work that holds no handle of its
// own never leaves the loop empty.
//
// Why: each time Node's event loop runs out of handles, Node blocks until every background task V8
// has queued is finished before it looks at the loop again (NodePlatform::DrainTasks, called from
// SpinEventLoop whenever uv_run returns). On the embedded store those tasks are V8's optimising
// compilation of PostgreSQL's WebAssembly, which goes on for a good while after PGlite has
// started, and PGlite's queries are WebAssembly calls and promises: no socket, no timer. So while
// `switchboard serve` started, before its listener existed, an await could find the loop empty
// and the process sat idle until that compilation was done (measured with `perf record -e
// sched:sched_switch`: the main thread in DrainTasks for 0.23 to 0.31 s on the first query after
// PGlite opened). With a handle held, the compilation goes on in the background, as it does once
// the server listens, and the main thread goes on with start-up.
//
// The handle is a timer that never fires. It is released when the command ends, so a command that
// is done lets the process exit as before.

/** Holds the event loop open until the returned function is called (idempotent). */
export function holdEventLoop(): () => void {
  // Any period does; this one (about 12 days) stays under Node's 2^31 - 1 ms limit on timers.
  const timer = setInterval(() => {}, 2 ** 30);
  return () => clearInterval(timer);
}
