// The order a workflow's blocks run in: a topological order of its DAG, ties broken by the
// blocks' array order (so a chain written top to bottom runs top to bottom, and every run of the
// same definition runs in the same order). Pure: the stored definition in, a plan or a reason out.
import type { BlockDef, EdgeDef } from '../types.js';

export interface Plan {
  /** Blocks in the order they run. */
  order: BlockDef[];
  /** For each block id, the ids of the blocks feeding it, in edge order. */
  preds: Map<string, string[]>;
}

export type PlanResult = { ok: true; plan: Plan } | { ok: false; error: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the stored jsonb defensively: definitions are validated when saved, but a row written by
 * hand or by an older release must end its run `failed` with a reason, never crash a worker.
 */
export function planWorkflow(blocksJson: unknown, edgesJson: unknown): PlanResult {
  if (!Array.isArray(blocksJson)) return { ok: false, error: 'the workflow definition has no blocks array' };
  if (blocksJson.length === 0) return { ok: false, error: 'the workflow has no blocks' };
  const blocks: BlockDef[] = [];
  const index = new Map<string, number>();
  for (const [i, b] of blocksJson.entries()) {
    if (!isObject(b) || typeof b.id !== 'string' || typeof b.kind !== 'string') {
      return { ok: false, error: `block ${i} has no string id and kind` };
    }
    if (index.has(b.id)) return { ok: false, error: `block id ${JSON.stringify(b.id)} is used twice` };
    index.set(b.id, i);
    blocks.push({ id: b.id, kind: b.kind, config: isObject(b.config) ? b.config : {} });
  }
  const edges: EdgeDef[] = [];
  if (edgesJson !== null && edgesJson !== undefined && !Array.isArray(edgesJson)) {
    return { ok: false, error: 'the workflow definition has an edges value that is not an array' };
  }
  for (const [i, e] of (edgesJson ?? []).entries()) {
    if (!isObject(e) || typeof e.from !== 'string' || typeof e.to !== 'string') {
      return { ok: false, error: `edge ${i} has no string from and to` };
    }
    if (!index.has(e.from) || !index.has(e.to)) {
      const missing = index.has(e.from) ? e.to : e.from;
      return { ok: false, error: `edge ${i} names block ${JSON.stringify(missing)}, which does not exist` };
    }
    edges.push({ from: e.from, to: e.to });
  }

  const preds = new Map<string, string[]>(blocks.map((b) => [b.id, []]));
  const succs = new Map<string, string[]>(blocks.map((b) => [b.id, []]));
  const indegree = new Map<string, number>(blocks.map((b) => [b.id, 0]));
  for (const e of edges) {
    // A duplicate edge would feed the same input twice; one is enough.
    if (preds.get(e.to)!.includes(e.from)) continue;
    preds.get(e.to)!.push(e.from);
    succs.get(e.from)!.push(e.to);
    indegree.set(e.to, indegree.get(e.to)! + 1);
  }

  // Kahn's algorithm, always taking the ready block that comes first in the array. Workflows are
  // small (tens of blocks), so a linear scan for the next one is simpler than a heap.
  const order: BlockDef[] = [];
  const done = new Set<string>();
  while (order.length < blocks.length) {
    const next = blocks.find((b) => !done.has(b.id) && indegree.get(b.id) === 0);
    if (!next) {
      const stuck = blocks.filter((b) => !done.has(b.id)).map((b) => b.id);
      return { ok: false, error: `the edges form a cycle (blocks that can never start: ${stuck.map((s) => JSON.stringify(s)).join(', ')})` };
    }
    done.add(next.id);
    order.push(next);
    for (const s of succs.get(next.id)!) indegree.set(s, indegree.get(s)! - 1);
  }
  return { ok: true, plan: { order, preds } };
}
