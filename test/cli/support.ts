// Shared set-up for the CLI tests: an account with one user of each role, written with plain SQL so
// these tests do not depend on the fixture loader.
import type { Db } from '../../src/db/db.js';
import { uuidv7 } from '../../src/lib/ids.js';
import type { CommandContext, CommandResult } from '../../src/cli/result.js';

export interface TestAccount {
  id: string;
  owner: string;
  admin: string;
  member: string;
}

export async function makeAccount(db: Db, tier = 'team'): Promise<TestAccount> {
  const a: TestAccount = { id: uuidv7(), owner: uuidv7(), admin: uuidv7(), member: uuidv7() };
  await db.transaction(async (tx) => {
    await tx.query(`insert into accounts (id, name, tier) values ($1, 'Test account', $2)`, [a.id, tier]);
    for (const role of ['owner', 'admin', 'member'] as const) {
      await tx.query(`insert into users (account_id, id, email, role) values ($1, $2, $3, $4)`, [a.id, a[role], `${role}@test.example`, role]);
    }
  });
  return a;
}

/** A context that serves files from memory, as the admin socket does. */
export function memoryContext(files: Record<string, string>, via: CommandContext['via'] = 'local'): CommandContext {
  return {
    via,
    readFile: async (name) => {
      if (!(name in files)) throw new Error(`test: ${name} not provided`);
      return files[name];
    },
  };
}

/** The one key value (svc_live_…) printed in a result, if any. */
export function keyValueIn(r: CommandResult): string | null {
  return /svc_live_[0-9A-Za-z]{38}/.exec(r.stdout)?.[0] ?? null;
}

export const UNKNOWN = '0190a8a0-0000-7000-8000-000000000000';
