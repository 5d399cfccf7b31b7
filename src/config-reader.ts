// Reads settings out of an environment map and collects every mistake, so a start with several bad
// variables reports them all at once (an operator fixes them in one go, not one restart each).
// Only config.ts uses it; it never reads process.env itself.
import net from 'node:net';

export class ConfigError extends Error {
  /** Each problem found, one sentence naming its variable. */
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.length === 1 ? list[0] : `${list.length} configuration problems:\n- ${list.join('\n- ')}`);
    this.problems = list;
  }
}

export type Env = Record<string, string | undefined>;

export class EnvReader {
  readonly problems: string[] = [];
  constructor(readonly env: Env) {}

  /** The trimmed value, or null when unset or blank. */
  str(name: string): string | null {
    return this.env[name]?.trim() || null;
  }

  /** Records a problem; the caller goes on with a fallback so later variables are checked too. */
  fail(message: string): void {
    this.problems.push(message);
  }

  /** Runs a check that throws ConfigError; a throw is recorded and the fallback returned. */
  guard<T>(fallback: T, read: () => T): T {
    try {
      return read();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      this.problems.push(...err.problems);
      return fallback;
    }
  }

  bool(name: string, dflt: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return dflt;
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    this.fail(`${name} must be true or false, got ${JSON.stringify(raw)}`);
    return dflt;
  }

  int(name: string, dflt: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return dflt;
    if (!/^\d+$/.test(raw.trim())) {
      this.fail(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
      return dflt;
    }
    const n = Number(raw.trim());
    if (n < min || n > max) {
      this.fail(`${name} must be between ${min} and ${max}, got ${n}`);
      return dflt;
    }
    return n;
  }

  /** One of a closed set of words (after trimming; blank is the default). */
  choice<T extends string>(name: string, dflt: T, allowed: readonly T[], describe = allowed.join(' or ')): T {
    const v = (this.env[name] ?? dflt).trim() || dflt;
    if ((allowed as readonly string[]).includes(v)) return v as T;
    this.fail(`${name} must be ${describe}, got ${JSON.stringify(v)}`);
    return dflt;
  }

  /** A URL with one of the schemes; the value is never echoed (it may hold a password). */
  url(name: string, schemes: readonly string[]): string | null {
    const v = this.str(name);
    if (!v) return null;
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      this.fail(`${name} is not a URL`);
      return null;
    }
    if (!schemes.includes(u.protocol.slice(0, -1))) {
      this.fail(`${name} must start with ${schemes.map((s) => s + '://').join(' or ')}`);
      return null;
    }
    return v;
  }

  /** Throws every problem found, or does nothing. */
  finish(): void {
    if (this.problems.length) throw new ConfigError(this.problems);
  }
}

/** An IPv4 or IPv6 address, optionally with a prefix length its family allows. */
export function isAddressOrRange(entry: string): boolean {
  const [, address = '', prefix] = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(entry) ?? [];
  const family = net.isIP(address);
  if (family === 0) return false;
  return prefix === undefined || Number(prefix) <= (family === 4 ? 32 : 128);
}
