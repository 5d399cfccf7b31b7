// The hub's stylesheets are global (vite bundles every imported .css into the page), so a selector
// defined in two sheets styles an element by whichever sheet loaded last — a screen's look would
// depend on the screens visited before it. The rule: each selector is defined in one sheet only.
// Shared rules live in web/src/styles.css; a page folder's sheet names its classes with the
// folder's prefix (runs-, workflows-, wf-, …). Plain CSS text in, findings out (no browser).

/** A stylesheet's path (relative, for the findings) → its text. */
export type SheetMap = Map<string, string>;

export interface StyleCollision {
  selector: string;
  sheets: string[];
}

/** Every selector a sheet defines, at-rule prelude kept (`@media (x) .a` differs from `.a`). */
export function selectorsOf(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const out: string[] = [];
  const context: string[] = [];
  let buf = '';
  for (const ch of text) {
    if (ch === '{') {
      const prelude = buf.trim().replace(/\s+/g, ' ');
      buf = '';
      if (prelude.startsWith('@')) {
        context.push(prelude);
        continue;
      }
      // Inside a keyframes block the "selectors" are steps (from, 50%), not elements.
      const inKeyframes = context.some((c) => /^@(-\w+-)?keyframes\b/.test(c));
      context.push('');
      if (inKeyframes) continue;
      const scope = context.filter(Boolean).join(' ');
      for (const sel of splitSelectors(prelude)) out.push(scope ? `${scope} ${sel}` : sel);
    } else if (ch === '}') {
      context.pop();
      buf = '';
    } else if (ch === ';' ) {
      buf = '';
    } else buf += ch;
  }
  return out;
}

/** `a, b:is(c, d)` → ['a', 'b:is(c, d)']: commas inside brackets do not split. */
function splitSelectors(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of list) {
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

/** The selectors defined in more than one sheet, each with the sheets that define it. */
export function styleCollisions(sheets: SheetMap): StyleCollision[] {
  const where = new Map<string, Set<string>>();
  for (const [file, css] of sheets) {
    for (const sel of selectorsOf(css)) {
      const set = where.get(sel) ?? new Set<string>();
      set.add(file);
      where.set(sel, set);
    }
  }
  return [...where]
    .filter(([, files]) => files.size > 1)
    .map(([selector, files]) => ({ selector, sheets: [...files].sort() }))
    .sort((a, b) => a.selector.localeCompare(b.selector));
}
