// The `switchboard` command line (docs/architecture.md §2). bin/switchboard.js calls main(argv) and
// exits with the code it resolves to. Heavy modules (the HTTP stack, the database drivers) are
// imported only by the commands that need them, so an operator command sent to a running server
// starts quickly.
import path from 'node:path';
import { PACKAGE_ROOT } from './code-location.js';
import { holdEventLoop } from './lib/event-loop-hold.js';
import { loadConfig, type Config } from './config.js';
import { describeStore, embeddedStoreExists, storeCapabilities } from './db/store-config.js';
import { sendAdminRequest } from './admin/client.js';
import { checkSocketPath, socketPath, type AdminRequest } from './admin/protocol.js';
import {
  answerWithoutStore,
  checkOperatorArgs,
  filesContext,
  isOperatorCommand,
  readInputFiles,
  runOperatorCommand,
  type InputFiles,
  type OperatorCommandName,
} from './cli/operator.js';
import { UsageError, failed, type CommandResult } from './cli/result.js';
import { KEYS_USAGE } from './cli/keys.js';
import { ACCOUNT_USAGE } from './cli/account.js';
import { SEED_USAGE } from './cli/seed.js';
import { MIGRATE_USAGE } from './cli/migrate.js';
import { CURSOR_SECRET_USAGE } from './cli/cursor-secret.js';
import { RUNS_USAGE } from './cli/runs.js';
import { AUTOMATIONS_USAGE } from './cli/automations.js';
import { WORKFLOWS_USAGE } from './cli/workflows.js';
import { AUTOMATIONS_TEST_USAGE } from './cli/automations-test.js';
import { AUTOMATION_RUNS_USAGE } from './cli/automation-runs.js';
import { CONTACTS_USAGE } from './cli/contacts.js';
import { MESSAGES_USAGE } from './cli/messages.js';
import { ACCOUNT_CREATE_USAGE } from './cli/account-create.js';
import { PROJECTS_USAGE } from './cli/projects.js';
import { USERS_USAGE } from './cli/users.js';

const USAGE = `Usage: switchboard <command> [options]

Commands:
  serve [--role api|worker|all]   serve the HTTP API and run the engine (role all, the default), or one of them
  worker                          the engine only, no HTTP (serve --role worker); PostgreSQL only
  migrate                         apply pending database migrations
  seed FILE [--json]              load a fixture file in one transaction; print refs, ids and new key values
  seed --schema                   print the fixture format as a JSON Schema
  keys create --account ID --by USER_ID --name NAME [--scopes a,b] [--expires ISO] [--cap MICROS] [--json]
  keys list --account ID [--json]
  keys revoke --account ID --key KEY_ID
  keys set-cap --account ID --key KEY_ID --cap MICROS|none
  keys update --account ID --key KEY_ID [--name NAME] [--cap MICROS|none]
  keys roll --account ID --key KEY_ID [--grace none|1h|24h|7d] [--json]
  account create --name NAME --owner-email EMAIL [--owner-name NAME] [--json]
  account list [--json]
  account show --account ID [--json]
  account set --account ID [--tier T] [--state S] [--subscription S] [--credit MICROS] [--api-open true|false]
      [--requests-per-minute N|default] [--run-starts-per-minute N|default] [--concurrent-runs N|default]
  runs start --workflow ID [--account ID] [--json]
  runs show|approve|reject|cancel RUN_ID [--account ID]
  runs retry RUN_ID [--account ID] [--json]
  automations test ID --contact CONTACT_ID --by USER_ID [--json]
  automations edit AUTOMATION_ID FILE [--account ID]
  automations publish|pause|resume AUTOMATION_ID [--account ID]
  automation-runs stop RUN_ID [--account ID]
  contacts erase CONTACT_ID --account ID
  messages retry MESSAGE_ID [--account ID] [--force]
  workflows create FILE --account ID
  workflows edit WORKFLOW_ID FILE [--account ID]
  workflows status WORKFLOW_ID draft|active|paused [--account ID]
  workflows schedule WORKFLOW_ID CRON [--timezone TZ] | --off [--account ID]
  workflows export WORKFLOW_ID [--account ID]
  projects create --account ID --name NAME [--description TEXT] [--json]
  users list --account ID [--json]
  users add --account ID --email EMAIL [--name NAME] [--role owner|admin|member] [--json]
  users set-role --account ID --user USER_ID --role owner|admin|member
  users remove --account ID --user USER_ID
  cursor-secret rotate            new list-cursor signing secret (running servers use it after a restart)
  help [COMMAND]                  this text, or a command's
  --version                       the release's version

Store: PostgreSQL when DATABASE_URL is set, else the embedded store in SWITCHBOARD_DATA_DIR
(default ./.switchboard). Only one process may open the embedded store: while \`serve\` runs, the
operator commands are sent to it over <data dir>/admin.sock and answer exactly as they would locally.
\`serve\` makes the store on its first start; the operator commands open an existing one only
(add --create to make a new one, as \`migrate\` does).
Exit codes: 0 done, 1 refused or failed, 2 bad usage.`;

const COMMAND_USAGE: Readonly<Record<OperatorCommandName, string>> = {
  keys: KEYS_USAGE,
  account: `${ACCOUNT_USAGE}\n${ACCOUNT_CREATE_USAGE.replace(/^Usage:\n/, '')}`,
  seed: SEED_USAGE,
  migrate: MIGRATE_USAGE,
  'cursor-secret': CURSOR_SECRET_USAGE,
  runs: RUNS_USAGE,
  automations: `${AUTOMATIONS_USAGE}\n${AUTOMATIONS_TEST_USAGE.replace(/^Usage:\n/, '')}`,
  'automation-runs': AUTOMATION_RUNS_USAGE,
  contacts: CONTACTS_USAGE,
  messages: MESSAGES_USAGE,
  projects: PROJECTS_USAGE,
  users: USERS_USAGE,
  workflows: WORKFLOWS_USAGE,
};

/** How long an operator command waits for a server that holds the data dir but is still starting. */
const LOCK_WAIT_MS = 5_000;

function emit(res: CommandResult): number {
  if (res.stdout) process.stdout.write(res.stdout);
  if (res.stderr) process.stderr.write(res.stderr);
  return res.code;
}

function usageError(message: string, usage = USAGE): number {
  process.stderr.write(`error: ${message}\n\n${usage}\n`);
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  // Until the command is done the loop never runs empty: see lib/event-loop-hold.ts (start-up of
  // the embedded store waited up to 0.3 s for V8's background compilation without it).
  const release = holdEventLoop();
  try {
    return await runCommand(argv);
  } finally {
    release();
  }
}

async function runCommand(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined) return usageError('no command given');
  if (cmd === '--version' || cmd === '-v') return emitHelp(await packageVersion());
  if (cmd === 'help' || cmd === '--help' || cmd === '-h') {
    const topic = rest[0];
    if (topic === 'serve') return emitHelp((await import('./cli/serve.js')).SERVE_USAGE);
    if (topic === 'worker') return emitHelp((await import('./cli/serve.js')).WORKER_USAGE);
    return emitHelp(isOperatorCommand(topic) ? COMMAND_USAGE[topic] : USAGE);
  }
  if (cmd === 'worker') {
    const { WORKER_USAGE, serve } = await import('./cli/serve.js');
    if (rest.includes('--help') || rest.includes('-h')) return emitHelp(WORKER_USAGE);
    if (rest.length) return usageError(`worker takes no arguments, got ${JSON.stringify(rest[0])}`, WORKER_USAGE);
    const config = configOrNull();
    if (!config) return 1;
    return serve(config, 'worker', processOutput());
  }
  if (cmd === 'serve') {
    const { SERVE_USAGE, parseServeArgs, serve } = await import('./cli/serve.js');
    if (rest.includes('--help') || rest.includes('-h')) return emitHelp(SERVE_USAGE);
    let role;
    try {
      role = parseServeArgs(rest).role;
    } catch (err) {
      if (err instanceof UsageError) return usageError(err.message, SERVE_USAGE);
      throw err;
    }
    const config = configOrNull();
    if (!config) return 1;
    return serve(config, role, processOutput());
  }
  if (!isOperatorCommand(cmd)) return usageError(`unknown command ${JSON.stringify(cmd)}`);
  if (rest.includes('--help') || rest.includes('-h')) return emitHelp(COMMAND_USAGE[cmd]);
  // --create is the CLI's, not the command's: it lets this command make a new store (below).
  const create = rest.includes(CREATE_FLAG);
  const commandArgv = [cmd, ...rest.filter((a) => a !== CREATE_FLAG)];
  // Bad arguments are refused before the store is opened or a server is asked.
  const bad = checkOperatorArgs(commandArgv);
  if (bad) return emit(bad);
  // What needs no store (seed --schema) is answered without opening one.
  const offline = answerWithoutStore(commandArgv);
  if (offline) return emit(offline);
  const config = configOrNull();
  if (!config) return 1;
  return emit(await operator(config, commandArgv, create));
}

/** Lets an operator command other than migrate make a new store where there is none. */
const CREATE_FLAG = '--create';

/** package.json's version, read from the installed package. */
async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  try {
    const pkg = JSON.parse(await readFile(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string };
    if (pkg.version) return pkg.version;
  } catch {
    // unreadable: say so below
  }
  return 'unknown';
}

/** serve's output: this process's streams, and whether a person reads stdout on a terminal. */
function processOutput(): { out(text: string): void; err(text: string): void; tty: boolean } {
  return { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), tty: process.stdout.isTTY === true };
}

function emitHelp(text: string): number {
  process.stdout.write(text + '\n');
  return 0;
}

function configOrNull(): Config | null {
  try {
    return loadConfig();
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return null;
  }
}

async function operator(config: Config, argv: string[], create: boolean): Promise<CommandResult> {
  // The CLI reads seed's FILE itself; a server never opens a client's path.
  const files = await readInputFiles(argv, process.cwd());
  // A store that no one process owns (PostgreSQL: any number share it) is used directly.
  if (!storeCapabilities(config).ownsDataDir) return runLocally(config, argv, files, create);

  const sock = socketPath(config.dataDir);
  let socketUsable = true;
  try {
    checkSocketPath(sock);
  } catch {
    socketUsable = false; // a server could not have bound it either
  }
  const req: AdminRequest = { argv, cwd: process.cwd(), files };
  const { DataDirLockedError } = await import('./db/data-dir-lock.js');
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    if (socketUsable) {
      const answer = await sendAdminRequest(sock, req);
      if (answer) return answer;
    }
    try {
      return await runLocally(config, argv, files, create);
    } catch (err) {
      if (!(err instanceof DataDirLockedError)) throw err;
      // A server that holds the lock but has not opened its socket yet may just be starting.
      if (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        continue;
      }
      return failed(
        `${err.message}\nThat process holds the data-dir lock but does not answer on the admin socket ${sock}; ` +
          'if it is a switchboard server it may still be starting (try again), otherwise stop it.',
      );
    }
  }
}

/**
 * Opens the store in this process (taking the data-dir lock on PGlite), runs the command, closes.
 * Only an existing store is opened: a command pointed at the wrong data dir (one without the
 * server's SWITCHBOARD_DATA_DIR) or at an empty database would otherwise make a second store
 * beside the real one, seed it, and print keys the running server refuses. `serve` makes the
 * store on its first start; `migrate` and --create make one on purpose.
 */
async function runLocally(config: Config, argv: string[], files: InputFiles, create: boolean): Promise<CommandResult> {
  const mayCreate = create || argv[0] === 'migrate';
  if (!mayCreate && storeCapabilities(config).ownsDataDir && !embeddedStoreExists(config.dataDir)) {
    return failed(
      `there is no store in ${config.dataDir} (SWITCHBOARD_DATA_DIR), so nothing was done. Point SWITCHBOARD_DATA_DIR at the ` +
        `data directory your server uses (its log names it: "store: pglite, data dir …"), or add ${CREATE_FLAG} to make a new, empty store there.`,
    );
  }
  const { openDb } = await import('./db/open.js');
  const { appliedVersion, latestVersion, migrate } = await import('./db/migrate.js');
  const db = await openDb(config);
  try {
    if (!mayCreate && (await appliedVersion(db)) === 0) {
      return failed(
        `${describeStore(config)} holds no Switchboard store yet, so nothing was done. Check DATABASE_URL and SWITCHBOARD_DATA_DIR, ` +
          `or run \`switchboard migrate\` (or add ${CREATE_FLAG}) to make a new store there.`,
      );
    }
    // An older schema is brought up as serve would (a new one too, with --create).
    if (argv[0] !== 'migrate') {
      if (config.autoMigrate) await migrate(db);
      else if ((await appliedVersion(db)) < latestVersion()) {
        return failed('the database schema is older than this release; run `switchboard migrate` first');
      }
    }
    return await runOperatorCommand(db, argv, filesContext(files, 'local'));
  } finally {
    await db.close();
  }
}
