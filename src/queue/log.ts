// The logging the workers (the engine, the sender) need: the subset of pino's API they call, so
// `serve` passes its pino logger and tests pass nothing (silent) or a recorder; and the rule for an
// error that repeats in a loop: logged once, then counted.
export interface EngineLog {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const noop = (): void => {};
export const silentLog: EngineLog = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });

interface Repeats {
  /** Occurrences since the last line written for this kind. */
  count: number;
  msg: string;
  /** The latest occurrence's fields, without its error object (the first line had the stack). */
  last: Record<string, unknown>;
  timer: NodeJS.Timeout;
}

/**
 * Errors that repeat (a store that is down, every run meeting the same bug) logged once with a
 * count, not once per occurrence: the first of a kind is written at once, whole (with its stack);
 * the same kind again within `windowMs` is only counted, and one line per window says how many
 * more there were. A window with none ends the kind; the next occurrence is written whole again.
 * At most `maxKinds` kinds are tracked at once; past that an error is written as it comes, so
 * nothing is lost when many different errors happen together.
 */
export class RepeatedErrorLog {
  private readonly kinds = new Map<string, Repeats>();

  constructor(
    private readonly log: EngineLog,
    private readonly windowMs = 60_000,
    private readonly maxKinds = 1_000,
  ) {}

  /** `kind` says which occurrences are "the same error" (say, the queue and the error's message). */
  error(kind: string, obj: Record<string, unknown>, msg: string): void {
    const seen = this.kinds.get(kind);
    if (seen) {
      seen.count++;
      seen.last = withoutErr(obj);
      return;
    }
    this.log.error(obj, msg);
    if (this.kinds.size >= this.maxKinds) return;
    const entry: Repeats = { count: 0, msg, last: withoutErr(obj), timer: setTimeout(() => this.endWindow(kind), this.windowMs) };
    entry.timer.unref();
    this.kinds.set(kind, entry);
  }

  /** Writes the counts not yet written (at shutdown) and forgets every kind. */
  flush(): void {
    for (const [kind, e] of this.kinds) {
      clearTimeout(e.timer);
      this.writeCount(e);
      this.kinds.delete(kind);
    }
  }

  private endWindow(kind: string): void {
    const e = this.kinds.get(kind);
    if (!e) return;
    if (e.count === 0) {
      this.kinds.delete(kind);
      return;
    }
    this.writeCount(e);
    e.count = 0;
    e.timer = setTimeout(() => this.endWindow(kind), this.windowMs);
    e.timer.unref();
  }

  private writeCount(e: Repeats): void {
    if (e.count === 0) return;
    const s = Math.round(this.windowMs / 1000);
    this.log.error({ ...e.last, repeated: e.count }, `${e.msg} (the same error ${e.count} more time${e.count === 1 ? '' : 's'} within ${s} s)`);
  }
}

function withoutErr(obj: Record<string, unknown>): Record<string, unknown> {
  const { err, ...rest } = obj;
  return err === undefined ? rest : { ...rest, error: err instanceof Error ? err.message : String(err) };
}
