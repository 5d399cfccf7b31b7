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
  operatorUsage,
  readInputFiles,
  runOperatorCommand,
  type InputFiles,
} from './cli/operator.js';
import { UsageError, failed, type CommandResult } from './cli/result.js';
import { EXPORT_USAGE, SERVE_USAGE, WORKER_USAGE, helpFor, topLevelUsage } from './cli/help.js';

/** How long an operator command waits for a server that holds the data dir but is still starting. */
const LOCK_WAIT_MS = 5_000;

function emit(res: CommandResult): number {
  if (res.stdout) process.stdout.write(res.stdout);
  if (res.stderr) process.stderr.write(res.stderr);
  return res.code;
}

function usageError(message: string, usage = topLevelUsage()): number {
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
  if (cmd === 'help' || cmd === '--help' || cmd === '-h') return emitHelp(helpFor(rest[0]));
  if (cmd === 'worker') {
    const { serve } = await import('./cli/serve.js');
    if (rest.includes('--help') || rest.includes('-h')) return emitHelp(WORKER_USAGE);
    if (rest.length) return usageError(`worker takes no arguments, got ${JSON.stringify(rest[0])}`, WORKER_USAGE);
    const config = configOrNull();
    if (!config) return 1;
    return serve(config, 'worker', processOutput());
  }
  if (cmd === 'serve') {
    const { parseServeArgs, serve } = await import('./cli/serve.js');
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
  if (cmd === 'export') {
    if (rest.includes('--help') || rest.includes('-h')) return emitHelp(EXPORT_USAGE);
    const config = configOrNull();
    if (!config) return 1;
    const { runExport } = await import('./cli/export.js');
    return emit(await runExport(config, rest, (line) => process.stderr.write(line + '\n')));
  }
  if (cmd === 'backup' || cmd === 'restore') return backupOrRestore(cmd, rest);
  if (!isOperatorCommand(cmd)) return usageError(`unknown command ${JSON.stringify(cmd)}`);
  if (rest.includes('--help') || rest.includes('-h')) return emitHelp(operatorUsage(cmd));
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

/**
 * backup packs, and restore unpacks, a backup file in this process (src/cli/backup.ts,
 * restore.ts); backup's copy of the store is taken where the store is open, as operator commands run.
 */
async function backupOrRestore(cmd: 'backup' | 'restore', rest: string[]): Promise<number> {
  if (rest.includes('--help') || rest.includes('-h')) return emitHelp(helpFor(cmd));
  const config = configOrNull();
  if (!config) return 1;
  if (cmd === 'restore') {
    const { restore } = await import('./cli/restore.js');
    return emit(await restore(config, rest, process.cwd()));
  }
  const { backup } = await import('./cli/backup.js');
  return emit(await backup(config, rest, { ask: (argv) => operator(config, argv, false), version: await packageVersion(), cwd: process.cwd() }));
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
    // An older schema is brought up as serve would (a new one too, with --create). A backup copies
    // the store as it is: one taken before an upgrade must hold the old schema.
    if (argv[0] !== 'migrate' && argv[0] !== 'backup') {
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
