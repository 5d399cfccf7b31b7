// `switchboard contacts erase CONTACT_ID --account ACCOUNT_ID`: erasure at the person's request
// (docs/architecture.md §12.9), what the hub does when someone asks to be forgotten. Idempotent:
// erasing again is fine and says so. Like every operator command it runs in this process or, while
// `serve` holds the embedded store, inside the server through the admin socket, with the same
// answer.
import type { Db } from '../db/db.js';
import { OPERATOR } from '../services/audit/service.js';
import { eraseContact, STOPPED_BY_ERASURE } from '../services/contacts/erase.js';
import { isUuid } from '../lib/ids.js';
import { parseCommandArgs, show, uuidArg } from './args.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { CommandError, UsageError, done, type CommandContext, type CommandResult } from './result.js';

export const CONTACTS_USAGE = `Usage:
  switchboard contacts erase CONTACT_ID --account ACCOUNT_ID

  erase    forgets a person at their request, in one transaction: their address is kept only as an
           HMAC (the API then refuses it with contact_do_not_contact), every personal field of the
           contact is cleared (the API answers 404 for it from then on), their running and waiting
           automation runs stop (error "${STOPPED_BY_ERASURE}") and their messages are
           deleted. Erasing an erased contact again is fine and says so.`;

interface ContactsArgs {
  action: 'erase';
  contactId: string;
  accountId: string;
}

function parse(args: readonly string[]): ContactsArgs {
  const [action, ...rest] = args;
  if (action === undefined) throw new UsageError('contacts needs an action: erase');
  if (action !== 'erase') throw new UsageError(`unknown contacts action ${show(action)}`);
  const p = parseCommandArgs(rest, { strings: ['account'], positionals: { min: 0, max: 1 } });
  const id = p.positionals[0];
  if (id === undefined) throw new UsageError('the contact id is required');
  if (!isUuid(id)) throw new UsageError(`the contact id must be a UUID, got ${show(id)}`);
  return { action, contactId: id.toLowerCase(), accountId: uuidArg(p, 'account') };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

async function run(db: Db, a: ContactsArgs): Promise<CommandResult> {
  const out = await eraseContact(db, a.accountId, a.contactId, OPERATOR);
  if (out.status === 'not_found') throw new CommandError(`no contact ${a.contactId} in account ${a.accountId}`);
  const swept = `${plural(out.runsStopped, 'automation run', 'automation runs')} stopped, ${plural(out.messagesDeleted, 'message', 'messages')} deleted`;
  if (out.status === 'already_erased') {
    return done(`contact ${a.contactId} was already erased (at ${out.erasedAt!.toISOString()}); nothing left to erase (${swept})`);
  }
  return done(`contact ${a.contactId} erased: personal data cleared, address kept only as an HMAC; ${swept}`);
}

export const CONTACTS: OperatorCommand<ContactsArgs> = { usage: CONTACTS_USAGE, parse, run: (db, a) => run(db, a) };

/** `contacts …` with the arguments after "contacts". */
export function contactsCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(CONTACTS, db, args, ctx);
}
