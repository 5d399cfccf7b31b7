// A workflow definition's problems, every one of them, in words a person reads: the one validator
// the server's save (src/services/workflows/validate.ts, which refuses with the first) and the
// hub's builder (which shows them all on their blocks as the user edits) share. Pure, so the web
// imports it as `@domain/workflow-check`; defensive about shapes, since definitions arrive as
// parsed JSON.
import { BLOCK_SCHEMAS } from './block-schemas.js';
import { configIssues, fieldWords, quoted } from './config-schema.js';
import { BLOCK_ID_RE, BLOCK_ID_RULE, BLOCK_KINDS, BLOCK_PLACEHOLDER_RE, TEMPLATE_FIELDS, type BlockKind } from './workflow.js';

export interface DefinitionProblem {
  /** Where, inside the definition: `blocks[2].config.prompt`, `blocks[1].id`, `edges[3].to`, `edges[0]`. */
  path: string;
  /** The block at fault, by id, and its config field (or `id` / `kind`). */
  block?: string;
  field?: string;
  /** The block's kind when it is one (for the server's `block "x" (agent): ` prefix). */
  kind?: BlockKind;
  /** The edge at fault, as `from->to`. */
  edge?: string;
  /** What is wrong and what to do, without naming the block (the block shows it). */
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isKind = (k: unknown): k is BlockKind => typeof k === 'string' && (BLOCK_KINDS as readonly string[]).includes(k);

/** The blocks' own problems: shape, id and kind (`problems`), and every config field at fault (`configs`). */
function blockProblems(blocks: readonly unknown[]): { problems: DefinitionProblem[]; configs: DefinitionProblem[]; ids: Set<string> } {
  const problems: DefinitionProblem[] = [];
  const configs: DefinitionProblem[] = [];
  const ids = new Set<string>();
  blocks.forEach((b, i) => {
    const at = `blocks[${i}]`;
    if (!isObject(b)) return void problems.push({ path: at, message: 'A block must be an object with id, kind and config' });
    if (typeof b.id !== 'string' || !BLOCK_ID_RE.test(b.id)) {
      return void problems.push({ path: `${at}.id`, block: typeof b.id === 'string' ? b.id : undefined, field: 'id', message: `A block id must be ${BLOCK_ID_RULE}` });
    }
    const id = b.id;
    if (ids.has(id)) return void problems.push({ path: `${at}.id`, block: id, field: 'id', message: `Another block is already called ${quoted(id)}: give this one another id` });
    ids.add(id);
    if (!isKind(b.kind)) {
      return void problems.push({ path: `${at}.kind`, block: id, field: 'kind', message: `${JSON.stringify(b.kind)} is not a kind of block (kinds: ${BLOCK_KINDS.join(', ')})` });
    }
    const kind = b.kind;
    if (!isObject(b.config)) return void problems.push({ path: `${at}.config`, block: id, kind, message: "This block's settings must be an object" });
    const schema = BLOCK_SCHEMAS[kind];
    for (const { field, issue } of configIssues(schema, b.config)) {
      const f = schema.fields.find((x) => x.name === field);
      configs.push({ path: field === null ? `${at}.config` : configPath(at, field), block: id, kind, field: field ?? undefined, message: fieldWords(f, field ?? '', issue) });
    }
  });
  return { problems, configs, ids };
}

/** `blocks[0].config.prompt`, or `blocks[0].config["my colour"]` for a key that is not a plain name. */
const configPath = (at: string, field: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(field) ? `${at}.config.${field}` : `${at}.config[${JSON.stringify(field)}]`);

/** The edges' problems: shape, unknown ends, a block feeding itself, a repeat, then the first cycle. */
function edgeProblems(edges: readonly unknown[], ids: ReadonlySet<string>): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const seen = new Set<string>();
  const good: { from: string; to: string; path: string }[] = [];
  edges.forEach((e, i) => {
    const at = `edges[${i}]`;
    if (!isObject(e) || typeof e.from !== 'string' || typeof e.to !== 'string') {
      return void problems.push({ path: at, message: 'A connection must name the block it comes from and the block it goes to' });
    }
    const edge = `${e.from}->${e.to}`;
    const lost = (['from', 'to'] as const).find((end) => !ids.has(e[end] as string));
    if (lost) {
      const name = e[lost] as string;
      return void problems.push({ path: `${at}.${lost}`, edge, message: `This connection ${lost === 'from' ? 'comes from' : 'goes to'} ${quoted(name)}, but there is no block called ${quoted(name)}` });
    }
    if (e.from === e.to) return void problems.push({ path: at, edge, message: `${quoted(e.from)} is connected to itself: a workflow must flow one way, so remove this connection` });
    if (seen.has(edge)) return void problems.push({ path: at, edge, message: `${quoted(e.from)} is already connected to ${quoted(e.to)}` });
    seen.add(edge);
    good.push({ from: e.from, to: e.to, path: at });
  });
  const cycle = firstCycle([...ids], good);
  if (cycle) {
    problems.push({
      path: cycle.path,
      edge: `${cycle.from}->${cycle.to}`,
      message: `These connections go round in a circle: ${cycle.names.join(' → ')}. A workflow must flow one way: remove one of them`,
    });
  }
  return problems;
}

/**
 * Depth-first in file order; the first edge that leads back into the path being explored closes a
 * cycle (its path is the one to point at, its blocks the ones to spell out).
 */
function firstCycle(ids: readonly string[], edges: readonly { from: string; to: string; path: string }[]) {
  const out = new Map<string, { to: string; path: string }[]>(ids.map((id) => [id, []]));
  for (const e of edges) out.get(e.from)?.push(e);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  // Iterative, so a long chain cannot overflow the stack.
  for (const start of ids) {
    if (state.has(start)) continue;
    const frames: { id: string; next: number }[] = [{ id: start, next: 0 }];
    state.set(start, 'open');
    stack.push(start);
    for (let top = frames.at(-1); top; top = frames.at(-1)) {
      const e = out.get(top.id)![top.next];
      if (!e) {
        state.set(top.id, 'done');
        stack.pop();
        frames.pop();
        continue;
      }
      top.next++;
      if (state.get(e.to) === 'open') return { from: top.id, to: e.to, path: e.path, names: [...stack.slice(stack.indexOf(e.to)), e.to] };
      if (!state.has(e.to)) {
        state.set(e.to, 'open');
        stack.push(e.to);
        frames.push({ id: e.to, next: 0 });
      }
    }
  }
  return null;
}

/** A `{{name}}` in a template must name a block that feeds this one, or it would render as nothing. */
function placeholderProblems(blocks: readonly unknown[], edges: readonly unknown[], ids: ReadonlySet<string>): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const links = edges.filter((e): e is { from: string; to: string } => isObject(e) && typeof e.from === 'string' && typeof e.to === 'string');
  blocks.forEach((b, i) => {
    if (!isObject(b) || typeof b.id !== 'string' || !isKind(b.kind) || !isObject(b.config)) return;
    const field = TEMPLATE_FIELDS[b.kind];
    const text = field ? b.config[field] : undefined;
    if (!field || typeof text !== 'string') return;
    const id = b.id;
    const feeding = new Set(links.filter((e) => e.to === id).map((e) => e.from));
    const label = BLOCK_SCHEMAS[b.kind].fields.find((f) => f.name === field)?.label ?? field;
    for (const name of new Set([...text.matchAll(BLOCK_PLACEHOLDER_RE)].map((m) => m[1]!))) {
      if (feeding.has(name)) continue;
      problems.push({
        path: `blocks[${i}].config.${field}`,
        block: id,
        kind: b.kind,
        field,
        message: ids.has(name)
          ? `The ${label.toLowerCase()} uses {{${name}}}, but ${quoted(name)} does not feed this block: connect ${quoted(name)} to it`
          : `The ${label.toLowerCase()} uses {{${name}}}, but there is no block called ${quoted(name)}`,
      });
    }
  });
  return problems;
}

/**
 * Every problem with a definition's blocks and edges, in the order a save meets them: the graph
 * first (block ids and kinds, edges, the first cycle), then each block's settings, then placeholders.
 */
export function definitionProblems(def: { blocks: unknown; edges: unknown }): DefinitionProblem[] {
  const blocks = Array.isArray(def.blocks) ? (def.blocks as unknown[]) : [];
  const edges = Array.isArray(def.edges) ? (def.edges as unknown[]) : [];
  const { problems, configs, ids } = blockProblems(blocks);
  return [...problems, ...edgeProblems(edges, ids), ...configs, ...placeholderProblems(blocks, edges, ids)];
}

/** "1 problem", "2 problems": the words every count of problems uses. */
export const problemCount = (n: number): string => `${n} problem${n === 1 ? '' : 's'}`;
