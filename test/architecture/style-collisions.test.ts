// Every stylesheet under web/src defines its own selectors: no selector in two sheets (rules in
// style-rules.ts). The second block plants a collision and checks the checker names it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { selectorsOf, styleCollisions, type SheetMap } from './style-rules.js';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src');

function readSheets(dir: string, out: SheetMap = new Map()): SheetMap {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) readSheets(full, out);
    else if (entry.name.endsWith('.css')) out.set(path.relative(WEB, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
  }
  return out;
}

describe('web/src stylesheets', () => {
  const sheets = readSheets(WEB);

  it('reads every sheet', () => {
    expect(sheets.has('styles.css')).toBe(true);
    expect(sheets.size).toBeGreaterThan(10);
  });

  it('define no selector twice across sheets', () => {
    expect(styleCollisions(sheets)).toEqual([]);
  });
});

describe('the collision checker', () => {
  it('splits selector lists, keeps at-rule scope, skips keyframe steps and comments', () => {
    const css = `/* .x { } */ .a, .b:is(.c, .d) { color: red; }\n@media (max-width: 40rem) { .a { color: blue; } }\n@keyframes spin { from { opacity: 0; } to { opacity: 1; } }`;
    expect(selectorsOf(css)).toEqual(['.a', '.b:is(.c, .d)', '@media (max-width: 40rem) .a']);
  });

  it('passes sheets that keep to their own selectors', () => {
    const sheets: SheetMap = new Map([
      ['styles.css', '.page-head { display: flex; }'],
      ['pages/runs/runs.css', '.runs-timeline { margin: 0; }'],
    ]);
    expect(styleCollisions(sheets)).toEqual([]);
  });

  it('names a selector defined in two sheets (the old .page-head)', () => {
    const sheets: SheetMap = new Map([
      ['styles.css', '.page-head { display: flex; }'],
      ['pages/runs/runs.css', '.runs-timeline { margin: 0; }'],
      ['pages/contacts/contacts.css', '.contacts-x { margin: 0; }\n.page-head { display: grid; }'],
    ]);
    expect(styleCollisions(sheets)).toEqual([{ selector: '.page-head', sheets: ['pages/contacts/contacts.css', 'styles.css'] }]);
  });
});
