// `switchboard cursor-secret rotate`: adds a new list-cursor signing secret. The previous one stays
// valid, so cursors already handed out keep working.
import type { Db } from '../db/db.js';
import { rotateSecret } from '../secrets/store.js';
import { parseCommandArgs, show } from './args.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { UsageError, done, type CommandContext, type CommandResult } from './result.js';

// Same purpose name as server.ts's CURSOR_SECRET (a test holds them equal); not imported from there
// because server.ts pulls in the whole HTTP stack, which a CLI talking to the admin socket never needs.
export const CURSOR_SECRET = 'cursor';

export const CURSOR_SECRET_USAGE = `Usage:
  switchboard cursor-secret rotate

  Adds a new signing secret for list cursors; cursors signed with the previous one stay valid.
  A running server loads the secrets at start, so it signs with the new one after a restart.`;

export const CURSOR_SECRET_CMD: OperatorCommand<null> = {
  usage: CURSOR_SECRET_USAGE,
  parse(args) {
    const [action, ...rest] = args;
    if (action === undefined) throw new UsageError('cursor-secret needs an action: rotate');
    if (action !== 'rotate') throw new UsageError(`unknown cursor-secret action ${show(action)}`);
    parseCommandArgs(rest, {});
    return null;
  },
  async run(db, _args, ctx) {
    const version = await rotateSecret(db, CURSOR_SECRET);
    const restart =
      ctx.via === 'server'
        ? 'The running server keeps signing with the previous secret until it is restarted; restart it to use the new one.'
        : 'Running servers pick up the new secret when they restart; restart them to sign with it.';
    // Servers accept the two newest versions, so only the one before this stays valid.
    const previous = version > 1 ? `cursors signed with version ${version - 1} stay valid, older ones no longer do` : 'it is the first one';
    return done(`rotated the list-cursor secret: version ${version} is current; ${previous}.\n${restart}`);
  },
};

export function cursorSecretCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(CURSOR_SECRET_CMD, db, args, ctx);
}
