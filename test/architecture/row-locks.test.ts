// Row locks (src/db/db.ts "Row locks"): a lock taken on a row whose key does not change is
// FOR NO KEY UPDATE, which leaves the foreign-key inserts of other transactions (FOR KEY SHARE)
// alone; FOR UPDATE waits for them and was half of a deadlock between starts and charges. A
// statement that still says FOR UPDATE (the row is deleted, or a key column changes under it)
// stands in a file that says why, with the words "FOR UPDATE (not NO KEY UPDATE".
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { literals } from './source-rules.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const REASON = 'FOR UPDATE (not NO KEY UPDATE';

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Files whose SQL locks rows FOR UPDATE without saying why. */
function unexplainedForUpdate(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, source] of files) {
    const locks = literals(source).some((l) => /\bfor\s+update\b/i.test(l));
    if (locks && !source.includes(REASON)) out.push(file);
  }
  return out;
}

describe('row locks', () => {
  it('every FOR UPDATE in src/ stands beside its reason; the rest say FOR NO KEY UPDATE', () => {
    const files = new Map(tsFiles(SRC).map((f) => [path.relative(SRC, f), fs.readFileSync(f, 'utf8')]));
    expect(unexplainedForUpdate(files)).toEqual([]);
    const noKey = [...files.values()].filter((s) => literals(s).some((l) => /\bfor no key update\b/i.test(l)));
    expect(noKey.length).toBeGreaterThan(10);
  });

  it('names a planted FOR UPDATE without a reason, and accepts one with it', () => {
    const planted = new Map([
      ['a/store.ts', "await tx.query('select id from accounts where id = $1 for update', [id]);"],
      ['b/store.ts', `// ${REASON}: the row is deleted below.\nawait tx.query('select id from users for update');`],
      ['c/store.ts', "await tx.query('select id from accounts where id = $1 for no key update', [id]);"],
      ['d/store.ts', '// a comment saying for update is not a statement\nconst x = 1;'],
    ]);
    expect(unexplainedForUpdate(planted)).toEqual(['a/store.ts']);
  });
});
