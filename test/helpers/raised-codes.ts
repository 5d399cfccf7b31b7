// The error codes src/ raises, read from the source: `new ApiError('code'` (any spacing), and a
// service's `new Refusal(message, 'code'` (the error handler maps both). The catalogue tests (/v1's
// and the hub's) check that every catalogued code is raised somewhere.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

export function raisedCodes(): Set<string> {
  const out = new Set<string>();
  for (const f of sourceFiles(SRC)) {
    const text = fs.readFileSync(f, 'utf8');
    for (const m of text.matchAll(/new ApiError\(\s*'([a-z_]+)'/g)) out.add(m[1]);
    // The code is the Refusal's second argument; the message before it is one expression that ends
    // at the statement (a template literal may hold commas, never a semicolon here).
    for (const m of text.matchAll(/new Refusal\([^;]*?,\s*'([a-z_]+)'\s*[,)]/g)) out.add(m[1]);
  }
  return out;
}
