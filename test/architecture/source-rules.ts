// The layering rules of src/, checked over the source text (no compiler, no dependency): which
// folder may import which, where SQL text may stand, and that no import cycle exists (type-only
// imports included: a type cycle still ties two modules together). Pure functions over
// { path → source }, so the test can run them on src/ and on planted violations alike.

/** A source file's path relative to src/, with forward slashes, e.g. "engine/engine.ts". */
export type SourceMap = ReadonlyMap<string, string>;

export interface Violation {
  rule: string;
  file: string;
  detail: string;
}

/**
 * The layers, top to bottom; a module may import its own folder, or any folder of a lower layer
 * (never a higher one, never a sibling of the same layer unless listed as allowed below). The
 * README's "Code map" states the same order, one line per folder.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['main.ts'],
  ['cli'],
  ['admin'],
  // The app's wiring: server.ts makes the dependencies from a Config, app.ts (the composition
  // root) mounts /v1 and the hub on the HTTP kit; both stand above the kit and the resources,
  // which never reach up to them.
  ['server.ts'],
  ['app.ts'],
  ['http', 'api', 'hub'],
  ['fixtures'],
  ['services'],
  ['engine'],
  ['delivery'],
  ['queue'],
  ['accounts', 'keys', 'limits', 'idempotency', 'secrets'],
  ['domain'],
  ['db', 'lib', 'config.ts', 'config-reader.ts'],
  // Where the program's own files are (migrations, the page worker, web/dist): node built-ins only.
  ['code-location.ts'],
];

/**
 * Same-layer imports across folders that are part of the design: the resources use the HTTP kit
 * (the kit never imports them: src/app.ts mounts them), and the hub reuses /v1's schemas and
 * renderers (never a store: the reads both share live in services/); /v1 never imports the hub.
 */
const SAME_LAYER_ALLOWED: ReadonlySet<string> = new Set([
  'api>http', 'hub>http', 'hub>api',
  'db>lib', 'lib>db', 'db>config.ts', 'lib>config.ts', 'config.ts>config-reader.ts',
  'accounts>keys', 'keys>accounts', 'accounts>limits', 'keys>limits', 'idempotency>keys', 'idempotency>accounts',
]);

/** Files that only start the program: they stand in main.ts's layer wherever they are. */
const ENTRY_POINTS: Readonly<Record<string, string>> = { 'cli/entry.ts': 'main.ts' };

/** "engine/engine.ts" → "engine"; "main.ts" → "main.ts". */
export function folderOf(file: string): string {
  if (ENTRY_POINTS[file]) return ENTRY_POINTS[file];
  const i = file.indexOf('/');
  return i < 0 ? file : file.slice(0, i);
}

function layerOf(folder: string): number {
  const i = LAYERS.findIndex((l) => l.includes(folder));
  return i < 0 ? -1 : i;
}

/** The string and template literals of a TypeScript file, comments skipped. */
export function literals(source: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = source.length;
  const readQuoted = (quote: string): string => {
    let s = '';
    i++;
    while (i < n && source[i] !== quote) {
      if (source[i] === '\\') {
        s += source[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (quote === '`' && source[i] === '$' && source[i + 1] === '{') {
        // An interpolation: skip to its matching brace (nested literals inside are rare in SQL).
        let depth = 0;
        for (; i < n; i++) {
          if (source[i] === '{') depth++;
          else if (source[i] === '}' && --depth === 0) break;
        }
        s += '$?';
        i++;
        continue;
      }
      s += source[i++];
    }
    i++;
    return s;
  };
  while (i < n) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      out.push(readQuoted(c));
    } else {
      i++;
    }
  }
  return out;
}

/**
 * Statement shapes that only SQL has. The house writes SQL in lower case (upper case too is
 * caught); a sentence such as "Select a workflow from the list" starts with a capital and is prose.
 */
const SQL_SHAPES = [
  /\bselect\s[\s\S]*?\bfrom\s+[a-z_]+/,
  /\bSELECT\s[\s\S]*?\bFROM\s+[a-z_]+/,
  /\binsert\s+into\s+[a-z_]+/i,
  /\bupdate\s+[a-z_]+\s+set\b/i,
  /\bdelete\s+from\s+[a-z_]+/i,
  /\b(create|alter|drop)\s+(table|index|schema|type|function)\b/i,
  /\bpg_notify\s*\(/i,
  /\bon\s+conflict\b/i,
];

export function looksLikeSql(text: string): boolean {
  // A one-word or short message is never a statement; SQL texts here all have several keywords.
  if (text.length < 12) return false;
  return SQL_SHAPES.some((re) => re.test(text));
}

/** Files allowed to hold SQL text: `*store.ts` anywhere, and everything under db/. */
export function mayHoldSql(file: string): boolean {
  return folderOf(file) === 'db' || /(^|\/|-)store\.ts$/.test(file);
}

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null; // a package
  const parts = from.split('/').slice(0, -1);
  for (const seg of spec.split('/')) {
    if (seg === '.' || seg === '') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/').replace(/\.js$/, '.ts');
}

/** Every import and re-export of one file (static, type-only and dynamic), as written. */
export function importSpecifiers(source: string): { spec: string; typeOnly: boolean }[] {
  // Comments out first: an import written in a comment is not an import.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(IMPORT_RE)].map((m) => ({ spec: m[2] ?? m[3] ?? '', typeOnly: Boolean(m[1]) }));
}

/** Every relative import and re-export (static, type-only and dynamic) of every file. */
export function importEdges(files: SourceMap): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const [file, source] of files) {
    for (const { spec, typeOnly } of importSpecifiers(source)) {
      const to = resolve(file, spec);
      if (to) edges.push({ from: file, to, typeOnly });
    }
  }
  return edges;
}

function layerViolations(edges: readonly ImportEdge[]): Violation[] {
  const out: Violation[] = [];
  for (const e of edges) {
    const a = folderOf(e.from);
    const b = folderOf(e.to);
    if (a === b) continue;
    const la = layerOf(a);
    const lb = layerOf(b);
    if (la < 0 || lb < 0) {
      out.push({ rule: 'every folder has a layer', file: e.from, detail: `${la < 0 ? a : b} is in no layer of LAYERS` });
    } else if (lb < la || (lb === la && !SAME_LAYER_ALLOWED.has(`${a}>${b}`))) {
      out.push({ rule: 'imports point down', file: e.from, detail: `${a} (layer ${la}) imports ${e.to} (layer ${lb})` });
    }
  }
  return out;
}

/** The rules the issue names, stated on their own so a failure reads as the rule it breaks. */
function namedRuleViolations(edges: readonly ImportEdge[]): Violation[] {
  const out: Violation[] = [];
  for (const e of edges) {
    const a = folderOf(e.from);
    const b = folderOf(e.to);
    if ((a === 'engine' || a === 'delivery') && b === 'api') {
      out.push({ rule: `${a} never imports api`, file: e.from, detail: e.to });
    }
    if (b === 'cli' && a !== 'cli' && e.from !== 'main.ts') {
      out.push({ rule: 'nothing imports cli', file: e.from, detail: e.to });
    }
    if (a === 'hub' && b === 'api' && mayHoldSql(e.to)) {
      out.push({ rule: 'the hub reads through services, never an api store', file: e.from, detail: e.to });
    }
    if (a === 'fixtures' && !['fixtures', 'services', 'domain', 'lib', 'db'].includes(b)) {
      out.push({ rule: 'fixtures only calls services', file: e.from, detail: e.to });
    }
  }
  return out;
}

/** A schema module (`schemas.ts`): the web app typechecks it without Node, so it stays pure. */
export function isSchemaModule(file: string): boolean {
  return file === 'schemas.ts' || file.endsWith('/schemas.ts');
}

const PACKAGE_RE = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s+)?['"]([^'".][^'"]*)['"]|import\(\s*['"]([^'".][^'"]*)['"]\s*\)/g;

/**
 * Schema modules import only TypeBox, src/domain and other schema modules: the web app imports
 * them for their static types, so nothing in them may pull in Node, Fastify or a store.
 */
function schemaPurityViolations(files: SourceMap, edges: readonly ImportEdge[]): Violation[] {
  const out: Violation[] = [];
  for (const e of edges) {
    if (!isSchemaModule(e.from)) continue;
    if (folderOf(e.to) === 'domain' || isSchemaModule(e.to)) continue;
    out.push({ rule: 'schema modules are pure', file: e.from, detail: e.to });
  }
  for (const [file, source] of files) {
    if (!isSchemaModule(file)) continue;
    const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    for (const m of code.matchAll(PACKAGE_RE)) {
      const pkg = m[1] ?? m[2];
      if (pkg !== '@sinclair/typebox') out.push({ rule: 'schema modules are pure', file, detail: pkg });
    }
  }
  return out;
}

function sqlViolations(files: SourceMap): Violation[] {
  const out: Violation[] = [];
  for (const [file, source] of files) {
    if (mayHoldSql(file)) continue;
    for (const text of literals(source)) {
      if (looksLikeSql(text)) {
        out.push({ rule: 'SQL only in *store.ts and db/', file, detail: text.replace(/\s+/g, ' ').slice(0, 80) });
      }
    }
  }
  return out;
}

/** Import cycles (Tarjan's strongly connected components), type-only edges included. */
export function cycles(files: SourceMap, edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const f of files.keys()) next.set(f, []);
  for (const e of edges) if (files.has(e.to)) next.get(e.from)!.push(e.to);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || next.get(v)!.includes(v)) found.push(scc.sort());
    }
  };
  for (const f of files.keys()) if (!index.has(f)) visit(f);
  return found;
}

/** Every violation of every rule, in a stable order. */
export function checkSources(files: SourceMap): Violation[] {
  const edges = importEdges(files);
  const missing = edges
    .filter((e) => !files.has(e.to))
    .map((e) => ({ rule: 'imports resolve', file: e.from, detail: `${e.to} not found` }));
  const cyc = cycles(files, edges).map((c) => ({ rule: 'no import cycle', file: c[0], detail: c.join(' → ') }));
  return [...missing, ...namedRuleViolations(edges), ...layerViolations(edges), ...schemaPurityViolations(files, edges), ...sqlViolations(files), ...cyc];
}
