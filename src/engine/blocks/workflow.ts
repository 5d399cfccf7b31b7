// Checks on a workflow definition as a whole (run when it is saved: fixture, hub) and the order
// the executor runs its blocks in.
import type { Block, BlockDef, EdgeDef } from '../types.js';
import { BLOCK_ID_RE, placeholders } from './text.js';

/** Config fields holding `{{block_id}}` templates, by kind: their names must be inputs. */
const TEMPLATE_FIELDS: Record<string, string> = { agent: 'prompt', 'transform.template': 'template' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const q = JSON.stringify;
/** Array.isArray without its narrowing, which turns a readonly array into any[] (elements `any`). */
const isList = (v: unknown): boolean => Array.isArray(v);

/**
 * A definition's first problem: the message, and where it is as a path inside the definition
 * (`blocks[2].config.prompt`, `edges[1].to`; null for a cycle, which no single element holds).
 */
export interface WorkflowProblem {
  path: string | null;
  message: string;
}

/**
 * null when the definition is acceptable, else the first problem, naming the block or edge at
 * fault. Defensive about shapes: definitions arrive as parsed JSON.
 */
export function workflowProblem(
  blocks: readonly BlockDef[],
  edges: readonly EdgeDef[],
  registry: ReadonlyMap<string, Block>,
): WorkflowProblem | null {
  const at = (path: string | null, message: string): WorkflowProblem => ({ path, message });
  if (!isList(blocks)) return at('blocks', 'blocks must be an array');
  if (!isList(edges)) return at('edges', 'edges must be an array');
  const kinds = [...registry.keys()].join(', ');
  const ids = new Set<string>();
  for (const [i, b] of blocks.entries()) {
    if (!isObject(b)) return at(`blocks[${i}]`, `blocks[${i}] must be an object with id, kind and config`);
    if (typeof b.id !== 'string' || !BLOCK_ID_RE.test(b.id)) {
      return at(`blocks[${i}].id`, `blocks[${i}].id must be 1 to 64 letters, digits, '_', '.' or '-' (starting with a letter or digit)`);
    }
    if (ids.has(b.id)) return at(`blocks[${i}].id`, `duplicate block id ${q(b.id)}`);
    ids.add(b.id);
    const block = typeof b.kind === 'string' ? registry.get(b.kind) : undefined;
    if (!block) return at(`blocks[${i}].kind`, `block ${q(b.id)}: ${q(b.kind)} is not a block kind (kinds: ${kinds})`);
    if (!isObject(b.config)) return at(`blocks[${i}].config`, `block ${q(b.id)}: config must be an object`);
    const bad = block.validate(b.config);
    if (bad) return at(`blocks[${i}].config`, `block ${q(b.id)} (${b.kind}): ${bad}`);
  }
  const seen = new Set<string>();
  for (const [i, e] of edges.entries()) {
    if (!isObject(e) || typeof e.from !== 'string' || typeof e.to !== 'string') {
      return at(`edges[${i}]`, `edges[${i}] must be an object with from and to block ids`);
    }
    for (const end of ['from', 'to'] as const) {
      const id = e[end];
      if (!ids.has(id)) return at(`edges[${i}].${end}`, `edges[${i}].${end}: no block with id ${q(id)}`);
    }
    if (e.from === e.to) return at(`edges[${i}]`, `edges form a cycle: ${e.from} → ${e.to} (a workflow is a DAG)`);
    const pair = `${e.from}\u0000${e.to}`;
    if (seen.has(pair)) return at(`edges[${i}]`, `duplicate edge ${e.from} → ${e.to}`);
    seen.add(pair);
  }
  const cycle = findCycle(blocks, edges);
  if (cycle) return at(null, `edges form a cycle: ${cycle.join(' → ')} (a workflow is a DAG)`);
  // A placeholder naming a block that does not feed this one would render as nothing: refuse it.
  for (const [i, b] of blocks.entries()) {
    const field = TEMPLATE_FIELDS[b.kind];
    if (!field) continue;
    const feeding = new Set(edges.filter((e) => e.to === b.id).map((e) => e.from));
    for (const name of placeholders(String(b.config[field]))) {
      if (!feeding.has(name)) {
        return at(
          `blocks[${i}].config.${field}`,
          ids.has(name)
            ? `block ${q(b.id)}: config.${field} uses {{${name}}} but ${q(name)} does not feed it (add an edge ${name} → ${b.id})`
            : `block ${q(b.id)}: config.${field} uses {{${name}}} but there is no block ${q(name)}`,
        );
      }
    }
  }
  return null;
}

/** workflowProblem's message alone: null when the definition is acceptable. */
export function validateWorkflow(
  blocks: readonly BlockDef[],
  edges: readonly EdgeDef[],
  registry: ReadonlyMap<string, Block>,
): string | null {
  return workflowProblem(blocks, edges, registry)?.message ?? null;
}

/** The first cycle met by a depth-first search in array order, spelled out, or null. */
function findCycle(blocks: readonly BlockDef[], edges: readonly EdgeDef[]): string[] | null {
  const out = new Map<string, string[]>(blocks.map((b) => [b.id, []]));
  for (const e of edges) out.get(e.from)?.push(e.to);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  // Iterative, so a long chain cannot overflow the stack.
  for (const start of blocks) {
    if (state.has(start.id)) continue;
    const stack: Array<{ id: string; next: number }> = [{ id: start.id, next: 0 }];
    state.set(start.id, 'open');
    path.push(start.id);
    for (let top = stack.at(-1); top; top = stack.at(-1)) {
      const to = out.get(top.id)![top.next];
      if (to !== undefined) {
        top.next++;
        if (state.get(to) === 'open') return [...path.slice(path.indexOf(to)), to];
        if (!state.has(to)) {
          state.set(to, 'open');
          path.push(to);
          stack.push({ id: to, next: 0 });
        }
      } else {
        state.set(top.id, 'done');
        path.pop();
        stack.pop();
      }
    }
  }
  return null;
}

/**
 * The blocks in an order where every block comes after the blocks feeding it. Stable: among the
 * blocks ready at any moment, the one earliest in the array goes first, so a chain written in
 * order runs in that order. Throws on a cycle or an edge to an unknown block (validate first).
 */
export function topologicalOrder(blocks: readonly BlockDef[], edges: readonly EdgeDef[]): BlockDef[] {
  interface Node {
    block: BlockDef;
    indegree: number;
    succ: Node[];
    done: boolean;
  }
  const nodes = blocks.map((block): Node => ({ block, indegree: 0, succ: [], done: false }));
  const byId = new Map(nodes.map((n) => [n.block.id, n]));
  for (const e of edges) {
    const from = byId.get(e.from);
    const to = byId.get(e.to);
    if (from === undefined || to === undefined) throw new Error(`edge ${e.from} → ${e.to} names an unknown block`);
    from.succ.push(to);
    to.indegree++;
  }
  const order: BlockDef[] = [];
  // O(n²) scan for the earliest ready block: workflows are small, and this keeps the tie rule obvious.
  while (order.length < nodes.length) {
    const next = nodes.find((n) => n.indegree === 0 && !n.done);
    if (!next) throw new Error('edges form a cycle (a workflow is a DAG)');
    next.done = true;
    order.push(next.block);
    for (const t of next.succ) t.indegree--;
  }
  return order;
}
