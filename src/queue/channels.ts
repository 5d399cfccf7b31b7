// The LISTEN/NOTIFY channels the workers wake on (both stores deliver a NOTIFY on commit).
// Declared once: enqueue.ts and the stores that make work ready again notify on them, the Wakers
// listen on them.

/** A workflow or automation run was queued, resumed, approved or released: the engine looks. */
export const RUNS_CHANNEL = 'switchboard_runs';

/** A commit wrote new outbox rows (or made held ones sendable again): the sender looks. */
export const OUTBOX_CHANNEL = 'switchboard_outbox';
