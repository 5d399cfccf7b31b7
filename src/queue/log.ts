// The logging the workers (the engine, the sender) need: the subset of pino's API they call, so
// `serve` passes its pino logger and tests pass nothing (silent) or a recorder.
export interface EngineLog {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const noop = (): void => {};
export const silentLog: EngineLog = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });
