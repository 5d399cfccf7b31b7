// The CLI's one translation of refusals (src/cli/refusal.ts): every operator command answers a
// refusal through it, so the words and exit codes below are what an operator sees everywhere.
import { describe, expect, it } from 'vitest';
import { refusalResult } from '../../src/cli/refusal.js';
import { CommandError, UsageError } from '../../src/cli/result.js';
import { ApiError } from '../../src/domain/errors.js';
import { DefinitionError } from '../../src/lib/json-fields.js';
import { KeyRuleError } from '../../src/services/keys/service.js';
import { missing, Refusal } from '../../src/services/refusal.js';

const USAGE = 'Usage:\n  switchboard things create --account ID --name NAME';
const cmd = { usage: USAGE };
const exit1 = (message: string) => ({ code: 1, stdout: '', stderr: `error: ${message}\n` });
const exit2 = (message: string) => ({ code: 2, stdout: '', stderr: `error: ${message}\n\n${USAGE}\n` });

describe('refusalResult', () => {
  it('bad arguments exit 2 with the usage', () => {
    expect(refusalResult(new UsageError('--name is required'), cmd)).toEqual(exit2('--name is required'));
  });

  it('a refusal the operator can act on exits 1 with its message, whatever threw it', () => {
    for (const err of [
      new CommandError('no account 0190'),
      new KeyRuleError('only an owner or admin of the account creates keys'),
      missing('automation', 'no automation 0190 in account 0191'),
      new Refusal('automation 0190 is paused: resume it first', 'automation_status_conflict'),
      new ApiError('last_owner', "ada@example.com is the account's last owner and cannot be removed.", { resourceId: '0190' }),
    ]) {
      expect(refusalResult(err, cmd)).toEqual(exit1(err.message));
    }
    // A definition error's message is its path and detail.
    expect(refusalResult(new DefinitionError('steps[1].type', 'unknown step type'), cmd)).toEqual(exit1('steps[1].type: unknown step type'));
  });

  it('an API error naming another record says which (user_exists: the user it collides with)', () => {
    const err = new ApiError('user_exists', 'The account already has a user with the email ada@example.com.', { resourceId: '0190' });
    expect(refusalResult(err, cmd)).toEqual(exit1('The account already has a user with the email ada@example.com (user 0190)'));
  });

  it('a refused field is a bad flag only for a command whose flags are the fields', () => {
    const err = new ApiError('invalid_field', 'The project name must be 1 to 200 characters on one line.', { param: 'name' });
    expect(refusalResult(err, { usage: USAGE, fieldsAreFlags: true })).toEqual(exit2(`--name: ${err.message}`));
    expect(refusalResult(err, cmd)).toEqual(exit1(err.message));
  });

  it('anything else is not a refusal: null, for the caller to report as a failure', () => {
    expect(refusalResult(new Error('store unreachable'), cmd)).toBeNull();
    expect(refusalResult('a string', cmd)).toBeNull();
  });
});
