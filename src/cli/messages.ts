// `switchboard messages retry MESSAGE_ID [--account ID] [--force]`: what the hub's Re-send does to a
// message that was not delivered, through the same messages service (audited as the operator's).
// A failed message is re-sent; an unknown one (the sender lost track of it mid-send: it may have
// arrived) only with --force, accepting that it may arrive twice; a sent, queued or sending one,
// one re-sent already and one whose contact may not be contacted now are refused with exit code 1
// and say why. The re-send is a new message naming the old one (src/services/messages/service.ts
// says why not the old row again); the sender delivers it like any other.
import type { Db } from '../db/db.js';
import { OPERATOR } from '../services/audit/service.js';
import { resendMessage } from '../services/messages/service.js';
import { idArg, parseCommandArgs, show, uuidArg } from './args.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { UsageError, done, type CommandContext, type CommandResult } from './result.js';

export const MESSAGES_USAGE = `Usage:
  switchboard messages retry MESSAGE_ID [--account ID] [--force]

  retry    re-sends a message that was not delivered: a new message with the same recipient,
           content and Message-ID, naming the old one, queued for the sender. Only a failed
           message, each once; the contact's opt-outs (unsubscribed, do-not-contact, STOP, no
           consent, erased, archived) are checked again and refuse it.
  --force    also re-send a message whose delivery is unknown: it may have arrived already, and
             may then arrive twice
  --account  narrows the lookup to one account (ids are unique anyway)`;

interface MessagesArgs {
  action: 'retry';
  messageId: string;
  accountId: string | null;
  force: boolean;
}

function parse(args: readonly string[]): MessagesArgs {
  const [action, ...rest] = args;
  if (action === undefined) throw new UsageError('messages needs an action: retry');
  if (action !== 'retry') throw new UsageError(`unknown messages action ${show(action)}`);
  const p = parseCommandArgs(rest, { strings: ['account'], flags: ['force'], positionals: { min: 0, max: 1 } });
  return { action, messageId: idArg(p, 'message'), accountId: p.strings.has('account') ? uuidArg(p, 'account') : null, force: p.flags.has('force') };
}

async function run(db: Db, a: MessagesArgs): Promise<CommandResult> {
  // A refusal (unknown message, a status or contact that forbids it) is printed by execute().
  const r = await resendMessage(db, { messageId: a.messageId, accountId: a.accountId, force: a.force, actor: OPERATOR });
  return done(`message ${r.resendOf} re-sent as message ${r.id} (account ${r.accountId}); queued for the sender`);
}

export const MESSAGES: OperatorCommand<MessagesArgs> = { usage: MESSAGES_USAGE, parse, run: (db, a) => run(db, a) };

/** `messages …` with the arguments after "messages". */
export function messagesCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(MESSAGES, db, args, ctx);
}
