// The CLI's help. Each command's usage text is the one statement of its forms and options; the
// top-level help (`switchboard help`, `--help`, and the usage printed with no command) is made
// from those texts, so an option added to a command can never be missing from it.
import { OPERATOR_COMMAND_NAMES, isOperatorCommand, operatorUsage } from './operator.js';
import { RESTORE_USAGE } from './restore.js';

// serve's and worker's texts stand here, not in ./serve.ts: main.ts prints them without loading
// the HTTP stack that module imports.
export const SERVE_USAGE = `Usage:
  switchboard serve [--role api|worker|all]

  Serves the HTTP API on HOST:PORT (HTTPS when TLS_CERT_FILE and TLS_KEY_FILE are set). The role
  decides what the process runs:
    all     (default) the API and the engine that executes workflow runs
    api     the API only; runs are executed by worker processes
    worker  the engine only, no HTTP (the same as \`switchboard worker\`); PostgreSQL only
  Any number of api and worker processes may share one PostgreSQL database.`;

export const WORKER_USAGE = `Usage:
  switchboard worker

  Runs the engine only (no HTTP): claims queued workflow runs and executes them, up to
  SWITCHBOARD_WORKER_CONCURRENCY at once. The same as \`switchboard serve --role worker\`. Needs
  PostgreSQL (DATABASE_URL): the embedded store is owned by one process, and there
  \`switchboard serve\` runs the engine itself. With SWITCHBOARD_EMAIL_TRANSPORT=smtp it needs
  SWITCHBOARD_PUBLIC_URL (the base of unsubscribe links); without SMTP and without it, links use
  the URL the newest API process recorded where it listens.`;

export const EXPORT_USAGE = `Usage:
  switchboard export --to postgres://USER@HOST:PORT/DATABASE

  Copies the embedded store (SWITCHBOARD_DATA_DIR) into an empty PostgreSQL database, for the
  move to PostgreSQL: the schema made by the migrations, every row, the sequences and the server
  secrets, in one transaction (a copy that fails or is stopped leaves the database empty), each
  table's row count checked before the commit. Afterwards \`DATABASE_URL=… switchboard serve\`
  answers with the same data: ids, cursors, API keys, hub sessions, erased addresses. Stop the
  server first: what it wrote after the copy would be left behind. The embedded store is only read
  (one from an older release is first migrated, as serve would).
  A password may be given in the URL or in PGPASSWORD.`;

/** How a usage text's command form starts. */
const PROGRAM = '  switchboard ';

/** The commands main.ts runs itself, each with what it does in a line. */
const OWN_COMMANDS: ReadonlyArray<readonly [form: string, what: string]> = [
  ...commandForms(SERVE_USAGE).map((f) => [form(f), 'serve the HTTP API and run the engine (role all, the default), or one of them'] as const),
  ...commandForms(WORKER_USAGE).map((f) => [form(f), 'the engine only, no HTTP (serve --role worker); PostgreSQL only'] as const),
  ...commandForms(EXPORT_USAGE).map((f) => [form(f), 'copy the embedded store into an empty PostgreSQL database (the move to PostgreSQL)'] as const),
  ...commandForms(RESTORE_USAGE).map((f) => [form(f), 'make a new embedded store from a backup file (see backup)'] as const),
  ['help [COMMAND]', "this text, or a command's"],
  ['--version', "the release's version"],
];

const STORE_AND_EXIT_CODES = `Store: PostgreSQL when DATABASE_URL is set, else the embedded store in SWITCHBOARD_DATA_DIR
(default ./.switchboard). Only one process may open the embedded store: while \`serve\` runs, the
operator commands are sent to it over <data dir>/admin.sock and answer exactly as they would locally.
\`serve\` makes the store on its first start; the operator commands open an existing one only
(add --create to make a new one, as \`migrate\` does).
Exit codes: 0 done, 1 refused or failed, 2 bad usage.`;


/**
 * A usage text's command forms: each `  switchboard …` line with the lines that continue it (indented
 * deeper, before a blank or less indented line), the program's name dropped.
 */
export function commandForms(usage: string): string[][] {
  const forms: string[][] = [];
  let current: string[] | null = null;
  for (const line of usage.split('\n')) {
    if (line.startsWith(PROGRAM)) {
      current = [`  ${line.slice(PROGRAM.length)}`];
      forms.push(current);
    } else if (current && /^ {4,}\S/.test(line)) {
      current.push(line);
    } else {
      current = null;
    }
  }
  return forms;
}

/** A form on one line: `account set --account ID [--tier …] …`. */
export function form(lines: readonly string[]): string {
  return lines.map((l) => l.trim()).join(' ');
}

/** The top-level help: every command and each of its forms, as the commands' own usage texts state them. */
export function topLevelUsage(): string {
  const width = Math.max(...OWN_COMMANDS.map(([f]) => f.length)) + 3;
  const seen = new Set<string>();
  const operatorLines = OPERATOR_COMMAND_NAMES.flatMap((name) =>
    commandForms(operatorUsage(name)).flatMap((lines) => {
      // A command whose text repeats a form (a composed usage) lists it once.
      if (seen.has(form(lines))) return [];
      seen.add(form(lines));
      return lines;
    }),
  );
  return [
    'Usage: switchboard <command> [options]',
    '',
    'Commands:',
    ...OWN_COMMANDS.map(([f, what]) => `  ${f.padEnd(width)}${what}`),
    '',
    'Operator commands (`switchboard help COMMAND` says what each form and option does):',
    ...operatorLines,
    '',
    STORE_AND_EXIT_CODES,
  ].join('\n');
}

/** What `help TOPIC` prints: the command's own usage, or the top-level help for anything else. */
export function helpFor(topic: string | undefined): string {
  if (topic === 'serve') return SERVE_USAGE;
  if (topic === 'worker') return WORKER_USAGE;
  if (topic === 'export') return EXPORT_USAGE;
  if (topic === 'restore') return RESTORE_USAGE;
  return isOperatorCommand(topic) ? operatorUsage(topic) : topLevelUsage();
}
