// `switchboard seed FILE [--json]`: loads a fixture file (docs/fixtures.md, docs/architecture.md
// §13) in one transaction and prints the refs with their ids and the new keys' values (shown
// once). `seed --schema` prints the fixture format as a JSON Schema and opens no store.
import type { Db } from '../db/db.js';
import { refreshStatistics } from '../db/statistics.js';
import { firstOf } from '../lib/first.js';
import { ERASURE_SECRET } from '../secrets/one-way.js';
import { loadSecrets } from '../secrets/store.js';
import { parseCommandArgs, show } from './args.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { formatSeedResult } from '../fixtures/format.js';
import { seedFixture } from '../fixtures/load.js';
import { fixtureJsonSchema } from '../fixtures/schemas.js';
import { readJsonFile } from './json-file.js';
import { UsageError, done, json, type CommandContext, type CommandResult } from './result.js';

/**
 * The largest fixture file seed reads. A realistic demo account is a few KB and ten thousand
 * contacts about 2 MB; past this a mistake is likelier than a fixture, and the file would be held
 * whole in memory, sent whole over the admin socket and written in one transaction.
 */
export const MAX_FIXTURE_BYTES = 8 * 1024 * 1024;

export const SEED_USAGE = `Usage:
  switchboard seed FILE [--json] [--fire-triggers]
  switchboard seed --schema

  Loads the fixture FILE in one transaction (a bad file is refused whole, with every fault found
  named by its JSON path; nothing is written) and prints each ref with its id and the value of
  every key it created. --json prints the same as one JSON object. FILE is at most ${MAX_FIXTURE_BYTES / 1024 / 1024} MiB.
  --fire-triggers: the file's contacts count as newly created, so published contact.created
  automations start for them (off by default: a fixture describes contacts that already exist).
  --schema: prints the fixture format as a JSON Schema (docs/fixtures.md) and opens no store.`;

type SeedArgs = { schema: true } | { schema: false; file: string; json: boolean; fireTriggers: boolean };

function parse(args: readonly string[]): SeedArgs {
  const p = parseCommandArgs(args, { flags: ['json', 'fire-triggers', 'schema'], positionals: { min: 0, max: 1 } });
  const [file] = p.positionals;
  if (p.flags.has('schema')) {
    if (file !== undefined) throw new UsageError(`--schema takes no FILE, got ${show(file)}`);
    if (p.flags.size > 1) throw new UsageError('--schema takes no other option');
    return { schema: true };
  }
  if (file === undefined) throw new UsageError('missing argument (expected 1)');
  return { schema: false, file, json: p.flags.has('json'), fireTriggers: p.flags.has('fire-triggers') };
}

/** The file a seed command reads, so the CLI can send its contents to a running server. */
export function seedInputFile(args: readonly string[]): string | null {
  try {
    const a = parse(args);
    return a.schema ? null : a.file;
  } catch {
    return null;
  }
}

const schemaResult = (): CommandResult => done(JSON.stringify(fixtureJsonSchema(), null, 2));

/** `seed --schema` needs no store: the CLI answers it before opening one (or asking a server). */
const offline = (a: SeedArgs): CommandResult | null => (a.schema ? schemaResult() : null);

async function run(db: Db, a: SeedArgs, ctx: CommandContext): Promise<CommandResult> {
  if (a.schema) return schemaResult();
  const fixture = await readJsonFile(a.file, ctx, MAX_FIXTURE_BYTES);
  const current = firstOf(await loadSecrets(db, ERASURE_SECRET), 'the erasure secret');
  const result = await seedFixture(db, fixture, { erasureSecret: current.secret, fireContactCreated: a.fireTriggers });
  // A seed is a bulk load: a store that keeps no statistics itself gets them now.
  await refreshStatistics(db);
  return done(a.json ? json(result) : formatSeedResult(result));
}

export const SEED: OperatorCommand<SeedArgs> = { usage: SEED_USAGE, parse, offline, run };

/** `seed …` with the arguments after "seed". */
export function seedCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(SEED, db, args, ctx);
}
