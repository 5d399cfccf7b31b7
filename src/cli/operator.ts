// The operator commands by name, and the one entry point both the CLI and the admin socket use to
// run them: same function, same store semantics, same output.
import type { InputFiles } from '../admin/protocol.js';
import type { Db } from '../db/db.js';
import { ACCOUNT } from './account.js';
import { withCreateList } from './account-create.js';
import { BACKUP } from './backup.js';
import { answerOffline, diskContext, execute, parseOnly, type OperatorCommand } from './command.js';
import { CURSOR_SECRET_CMD } from './cursor-secret.js';
import { KEYS } from './keys.js';
import { MIGRATE } from './migrate.js';
import { CommandError, failed, type CommandContext, type CommandResult } from './result.js';
import { SEED, seedInputFile } from './seed.js';
import { RUNS } from './runs.js';
import { withTestAction } from './automations-test.js';
import { withWebhookAction } from './automations-webhook.js';
import { AUTOMATIONS, automationsInputFile } from './automations.js';
import { AUTOMATION_RUNS } from './automation-runs.js';
import { CONTACTS } from './contacts.js';
import { MESSAGES } from './messages.js';
import { PROJECTS } from './projects.js';
import { USERS } from './users.js';
import { WORKFLOWS, workflowsInputFile } from './workflows.js';

type AnyCommand = OperatorCommand<unknown>;

const COMMAND_TABLE = {
  keys: KEYS,
  account: withCreateList(ACCOUNT),
  seed: SEED,
  'cursor-secret': CURSOR_SECRET_CMD,
  migrate: MIGRATE,
  runs: RUNS,
  automations: withWebhookAction(withTestAction(AUTOMATIONS)),
  'automation-runs': AUTOMATION_RUNS,
  contacts: CONTACTS,
  messages: MESSAGES,
  projects: PROJECTS,
  users: USERS,
  workflows: WORKFLOWS,
  // The store's half of `switchboard backup`; main.ts runs the CLI's half (backup.ts).
  backup: BACKUP,
} satisfies Record<string, AnyCommand>;

/** An operator command's name: tables keyed by it are total. */
export type OperatorCommandName = keyof typeof COMMAND_TABLE;

const COMMANDS: Readonly<Record<OperatorCommandName, AnyCommand>> = Object.freeze(COMMAND_TABLE);

export const OPERATOR_COMMAND_NAMES: readonly OperatorCommandName[] = Object.freeze(Object.keys(COMMANDS) as OperatorCommandName[]);

export function isOperatorCommand(name: string | undefined): name is OperatorCommandName {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}

// Own properties only: a name like "__proto__" or "toString" must not find Object.prototype's.
const lookup = (name: string | undefined) => (isOperatorCommand(name) ? COMMANDS[name] : undefined);

/** A command's usage text (its forms, options and what they do): what `help COMMAND` prints, and the top-level help is made from. */
export function operatorUsage(name: OperatorCommandName): string {
  return COMMANDS[name].usage;
}

/** Argument errors only (no store needed): a result to print, or null when the arguments are fine. */
export function checkOperatorArgs(argv: readonly string[]): CommandResult | null {
  const cmd = lookup(argv[0]);
  return cmd ? parseOnly(cmd, argv.slice(1)) : failed(`unknown command ${argv[0]}`);
}

/** The answer to `argv` when it needs no store (`seed --schema`), else null. Call it once checkOperatorArgs passed. */
export function answerWithoutStore(argv: readonly string[]): CommandResult | null {
  const cmd = lookup(argv[0]);
  return cmd ? answerOffline(cmd, argv.slice(1)) : null;
}

/** Runs `argv` (command name first) against the store. Every commit happens before it resolves. */
export async function runOperatorCommand(db: Db, argv: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  const cmd = lookup(argv[0]);
  if (!cmd) return { code: 2, stdout: '', stderr: `error: ${JSON.stringify(argv[0] ?? '')} is not an operator command\n` };
  try {
    return await execute(cmd, db, argv.slice(1), ctx);
  } catch (err) {
    // Not a refusal the command foresaw (a store failure, a bug): report it the same way in both paths.
    return failed(`${argv[0]} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** An input file as read by the CLI: its text, or why it could not be read. */
export type { InputFiles };

/** The commands that read a FILE, and which file, by command name. */
const INPUT_FILE: Readonly<Partial<Record<OperatorCommandName, (args: readonly string[]) => string | null>>> = {
  seed: seedInputFile,
  automations: automationsInputFile,
  workflows: workflowsInputFile,
};

/** Reads the files a command names (seed's FILE, automations edit's FILE, workflows create|edit's FILE) on the CLI's side, relative to its cwd. */
export async function readInputFiles(argv: readonly string[], cwd: string): Promise<InputFiles> {
  const files: InputFiles = {};
  const [command, ...args] = argv;
  const name = (isOperatorCommand(command) ? INPUT_FILE[command]?.(args) : null) ?? null;
  if (name !== null) {
    try {
      files[name] = { text: await diskContext(cwd).readFile(name) };
    } catch (err) {
      files[name] = { error: (err as Error).message };
    }
  }
  return files;
}

/** A context whose files are those the CLI read (so a server never opens a client's path). */
export function filesContext(files: InputFiles, via: CommandContext['via']): CommandContext {
  return {
    via,
    readFile: async (name) => {
      const f = Object.hasOwn(files, name) ? files[name] : undefined;
      if (!f) throw new CommandError(`${name} was not sent with the command`);
      if ('error' in f) throw new CommandError(f.error);
      return f.text;
    },
  };
}
