// What the workers decide when something fails: whether it would fail the same way again (then it
// ends the work with a reason, never retried), and how long to wait before trying again
// otherwise. Declared once for the engine's runs, the sender's messages and the LLM client.

/**
 * An error that would fail the same way on every attempt (a template that does not parse, a
 * config the engine cannot act on): the work it stops ends `failed` with this message, which is
 * written for a person, at once and without a retry.
 */
export class PermanentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentFailure';
  }
}

export const isPermanentFailure = (err: unknown): err is PermanentFailure => err instanceof PermanentFailure;

/**
 * The wait before attempt `attempt + 1` after `attempt` failures (1 = the first retry):
 * exponential from baseMs, capped at maxMs, with "equal jitter" (half fixed, half random), so
 * workers that failed together do not all come back together.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** The message of anything thrown, on one line and cut short (for a summary or a run's error). */
export function errorLine(err: unknown, max = 300): string {
  const raw = err instanceof Error ? err.message || err.name : String(err);
  const t = raw.replace(/\s+/g, ' ').trim() || 'an unknown error';
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}
