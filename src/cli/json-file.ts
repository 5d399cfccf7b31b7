// Definition files of the operator commands (`workflows create|edit`, `automations create|edit`):
// read as JSON with duplicate keys refused, and a definition problem named with the file and the
// JSON path inside it, the way `seed` names a fixture's.
import { duplicateKeyAt, DefinitionError, ROOT } from '../lib/json-fields.js';
import { CommandError, type CommandContext } from './result.js';

/** FILE's JSON; a duplicate key is refused (JSON.parse would silently keep the last). */
export async function readJsonFile(file: string, ctx: CommandContext): Promise<unknown> {
  const text = await ctx.readFile(file);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new CommandError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  const dup = duplicateKeyAt(text);
  if (dup !== null) throw new CommandError(`${file}: ${dup}: this key appears twice in the same object (JSON would keep only the last)`);
  return body;
}

/** Runs `work`; a definition problem it throws becomes "FILE: path: detail". */
export async function inFile<T>(file: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof DefinitionError)) throw err;
    throw new CommandError(`${file}${err.path === ROOT ? '' : `: ${err.path}`}: ${err.detail}`);
  }
}
