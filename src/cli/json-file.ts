// The JSON files of the operator commands (`seed`, `workflows create|edit`, `automations
// create|edit`): read with too deep nesting and duplicate keys refused, and a definition problem
// named with the file and the JSON path inside it, the way `seed` names a fixture's.
import { parseJsonText, DefinitionError, ROOT } from '../lib/json-fields.js';
import { CommandError, type CommandContext } from './result.js';

/** FILE's JSON (src/lib/json-fields.ts parseJsonText); FILE larger than `maxBytes` is refused unread. */
export async function readJsonFile(file: string, ctx: CommandContext, maxBytes = Infinity): Promise<unknown> {
  const text = await ctx.readFile(file);
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) {
    throw new CommandError(`${file} is ${megabytes(bytes)}; this command reads at most ${megabytes(maxBytes)} (split it into several files)`);
  }
  try {
    return parseJsonText(text);
  } catch (err) {
    if (!(err instanceof DefinitionError)) throw err;
    throw new CommandError(err.path === ROOT ? `${file} is ${err.detail}` : `${file}: ${err.path}: ${err.detail}`);
  }
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Runs `work`; a definition problem it throws becomes "FILE: path: detail". */
export async function inFile<T>(file: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof DefinitionError)) throw err;
    throw new CommandError(`${file}${err.path === ROOT ? '' : `: ${err.path}`}: ${err.detail}`);
  }
}
