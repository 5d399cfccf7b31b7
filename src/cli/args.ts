// Argument parsing and validation for the operator commands. Every problem becomes a UsageError
// with a message naming the option and the value at fault (exit code 2), before any SQL runs.
import { parseArgs } from 'node:util';
import { isUuid } from '../lib/ids.js';
import { SCOPES, isScope, type Scope } from '../lib/scopes.js';
import { UsageError } from './result.js';

export interface ArgSpec {
  /** Options that take a value (`--account ID`). */
  strings?: readonly string[];
  /** Options without a value (`--json`). */
  flags?: readonly string[];
  /** How many positional arguments the command takes. */
  positionals?: { min: number; max: number };
}

export interface ParsedArgs {
  strings: ReadonlyMap<string, string>;
  flags: ReadonlySet<string>;
  positionals: readonly string[];
}

/** Quotes a value for a message, cut short so a pasted blob cannot flood the terminal. */
export function show(value: string): string {
  return JSON.stringify(value.length > 80 ? value.slice(0, 77) + '...' : value);
}

export function parseCommandArgs(args: readonly string[], spec: ArgSpec): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const name of spec.strings ?? []) options[name] = { type: 'string' };
  for (const name of spec.flags ?? []) options[name] = { type: 'boolean' };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const name = /'([^']+)'/.exec(e.message)?.[1] ?? '';
      throw new UsageError(`unknown option ${name}`);
    }
    const opt = /'(--?[^' ]+)/.exec(e.message)?.[1] ?? 'an option';
    // `--cap -3`: Node cannot tell a negative value from a forgotten one.
    if (/ambiguous/.test(e.message)) throw new UsageError(`${opt} was given a value starting with "-"; write ${opt}=VALUE if that is meant`);
    if (/argument missing/.test(e.message)) throw new UsageError(`${opt} needs a value`);
    throw new UsageError(e.message.split('\n')[0]);
  }
  const strings = new Map<string, string>();
  const flags = new Set<string>();
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string') strings.set(name, value);
    else if (value === true) flags.add(name);
  }
  const { min, max } = spec.positionals ?? { min: 0, max: 0 };
  const pos = parsed.positionals;
  const extra = pos[max];
  if (extra !== undefined) throw new UsageError(`unexpected argument ${show(extra)}`);
  if (pos.length < min) throw new UsageError(`missing argument (expected ${min})`);
  return { strings, flags, positionals: pos };
}

export function required(p: ParsedArgs, name: string): string {
  const v = p.strings.get(name);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}

export function uuidArg(p: ParsedArgs, name: string): string {
  const v = required(p, name);
  if (!isUuid(v)) throw new UsageError(`--${name} must be a UUID, got ${show(v)}`);
  return v.toLowerCase();
}

export function nameArg(p: ParsedArgs, name: string, maxLen = 200): string {
  const v = required(p, name).trim();
  if (!v) throw new UsageError(`--${name} must not be blank`);
  if (v.length > maxLen) throw new UsageError(`--${name} must be at most ${maxLen} characters`);
  if (/[\u0000-\u001f\u007f]/.test(v)) throw new UsageError(`--${name} must not contain control characters`);
  return v;
}

/** Comma-separated scopes from the spec's closed set; duplicates are dropped; "" means none. */
export function scopesArg(raw: string): Scope[] {
  const parts = raw.split(',').map((s) => s.trim());
  if (parts.length === 1 && parts[0] === '') return [];
  const out: Scope[] = [];
  for (const s of parts) {
    if (!isScope(s)) {
      throw new UsageError(`--scopes: ${s === '' ? 'empty scope (stray comma?)' : `unknown scope ${show(s)}`}; scopes are ${SCOPES.join(', ')}`);
    }
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

/** A whole number from min to max, written in plain digits (no signs, exponents or decimals). */
export function intArg(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number, got ${show(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${name} must be from ${min} to ${max}, got ${raw}`);
  return n;
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * An ISO 8601 date (midnight UTC) or date-time with `Z` or an offset: a time without a zone would
 * depend on the machine's clock settings, so it is refused. Impossible dates (Feb 30) are refused.
 */
export function isoDateArg(name: string, raw: string): Date {
  const m = ISO_RE.exec(raw);
  const bad = () => new UsageError(`--${name} must be an ISO 8601 date or date-time with a zone (e.g. 2027-01-31 or 2027-01-31T12:00:00Z), got ${show(raw)}`);
  if (!m) throw bad();
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) throw bad();
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) throw bad();
  const t = new Date(raw);
  if (Number.isNaN(t.getTime())) throw bad();
  return t;
}

export function boolArg(name: string, raw: string): boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new UsageError(`--${name} must be true or false, got ${show(raw)}`);
}

export function choiceArg<T extends string>(name: string, raw: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got ${show(raw)}`);
}

/** The one positional argument, a record's id (`runs show RUN_ID`): a UUID, lower-cased. */
export function idArg(p: ParsedArgs, noun: string): string {
  const id = p.positionals[0];
  if (id === undefined) throw new UsageError(`the ${noun} id is required`);
  if (!isUuid(id)) throw new UsageError(`the ${noun} id must be a UUID, got ${show(id)}`);
  return id.toLowerCase();
}
