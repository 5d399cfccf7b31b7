// The shape shared by operator commands: parse (pure, so the CLI can refuse bad arguments before
// it opens the store or contacts a server) and run (against an open store). `execute` turns the
// errors an operator can act on into results (one translation, refusal.ts), identically wherever
// the command runs.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/db.js';
import { refusalResult, type RefusalContext } from './refusal.js';
import { CommandError, type CommandContext, type CommandResult } from './result.js';

export interface OperatorCommand<P> extends RefusalContext {
  /** Validates the arguments (those after the command name); throws UsageError. */
  parse(args: readonly string[]): P;
  /** The answer when the arguments need no store (`seed --schema`): the CLI gives it without opening one. */
  offline?(parsed: P): CommandResult | null;
  run(db: Db, parsed: P, ctx: CommandContext): Promise<CommandResult>;
}

/** Reads input files from disk relative to `cwd`; the message names the file when it cannot be read. */
export function diskContext(cwd: string = process.cwd()): CommandContext {
  return {
    via: 'local',
    readFile: async (name) => {
      try {
        return await fs.readFile(path.resolve(cwd, name), 'utf8');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String((err as Error).message);
        throw new CommandError(`cannot read ${name}: ${why}`);
      }
    },
  };
}

/** `err` as the command's answer (refusal.ts), or thrown on when it is no refusal. */
function answer(err: unknown, cmd: RefusalContext): CommandResult {
  const result = refusalResult(err, cmd);
  if (result === null) throw err;
  return result;
}

export function parseOnly<P>(cmd: OperatorCommand<P>, args: readonly string[]): CommandResult | null {
  try {
    cmd.parse(args);
    return null;
  } catch (err) {
    return answer(err, cmd);
  }
}

/** The command's answer without a store, or null when it needs one (or its arguments are at fault: parseOnly says so). */
export function answerOffline<P>(cmd: OperatorCommand<P>, args: readonly string[]): CommandResult | null {
  if (!cmd.offline) return null;
  try {
    return cmd.offline(cmd.parse(args));
  } catch {
    return null;
  }
}

export async function execute<P>(cmd: OperatorCommand<P>, db: Db, args: readonly string[], ctx: CommandContext): Promise<CommandResult> {
  let parsed: P;
  try {
    parsed = cmd.parse(args);
  } catch (err) {
    return answer(err, cmd);
  }
  try {
    return await cmd.run(db, parsed, ctx);
  } catch (err) {
    return answer(err, cmd);
  }
}
