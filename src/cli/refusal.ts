// The one translation of a refusal into the CLI's answer, for every operator command: bad
// arguments exit 2 with the usage; a refusal the operator can act on (a rule of a service, an
// unknown record, a definition at fault, an API error a shared service threw) exits 1 with its
// message. Commands throw; execute() (command.ts) translates here, so none translates by hand.
import { ApiError, type ErrorCode } from '../domain/errors.js';
import { DefinitionError } from '../lib/json-fields.js';
import { KeyRuleError } from '../services/keys/service.js';
import { Refusal } from '../services/refusal.js';
import { CommandError, UsageError, failed, usageFailed, type CommandResult } from './result.js';

export interface RefusalContext {
  usage: string;
  /**
   * The command's flags are named as the service's fields (`projects create --name`): a field the
   * service refuses (invalid_field) is a bad argument, answered as `--name: …` with the usage.
   */
  fieldsAreFlags?: boolean;
}

/** Codes whose resource_id names another record the operator will want: what it is. */
const RESOURCE_NOUN: Partial<Record<ErrorCode, string>> = { user_exists: 'user' };

/** An ApiError in the CLI's words: its message, with the record it names when it names one. */
function apiErrorWords(err: ApiError): string {
  const noun = RESOURCE_NOUN[err.code];
  return noun && err.resourceId ? `${err.message.replace(/\.$/, '')} (${noun} ${err.resourceId})` : err.message;
}

/** The CLI's answer to `err`, or null when it is not a refusal (a store failure, a bug: the caller reports it). */
export function refusalResult(err: unknown, cmd: RefusalContext): CommandResult | null {
  if (err instanceof UsageError) return usageFailed(err.message, cmd.usage);
  if (err instanceof ApiError) {
    if (cmd.fieldsAreFlags && err.code === 'invalid_field') return usageFailed(`--${err.param ?? 'name'}: ${err.message}`, cmd.usage);
    return failed(apiErrorWords(err));
  }
  if (err instanceof CommandError || err instanceof KeyRuleError || err instanceof DefinitionError || err instanceof Refusal) return failed(err.message);
  return null;
}
