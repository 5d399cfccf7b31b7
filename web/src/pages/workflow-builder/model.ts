// The builder's data: the workflow definition as the hub API takes it (the `workflows create|edit`
// file format), the draft being edited (the definition plus where each block sits on the canvas),
// and the pure moves on it — add, rename, remove, connect, disconnect — each returning a new draft.
import { BLOCK_SCHEMAS } from '@domain/block-schemas';
import { BLOCK_ID_RE, BLOCK_ID_RULE, BLOCK_KINDS, type BlockKind, type WorkflowStatus } from '@domain/workflow';
import type { WorkflowBlock, WorkflowDefinition, WorkflowEdge, WorkflowEditor } from '@server/hub/workflows/schemas';

export { BLOCK_KINDS, BLOCK_SCHEMAS };
export type { BlockKind, WorkflowStatus };

// The server's shapes (src/hub/workflows/schemas.ts), under the builder's names.
export type BlockDef = WorkflowBlock;
export type EdgeDef = WorkflowEdge;
/** The definition format, keys in the API's order. */
export type Definition = WorkflowDefinition;
/** GET/PUT /hub/api/workflows/:id/definition, POST /hub/api/workflows. */
export type { WorkflowEditor };

export interface XY {
  x: number;
  y: number;
}

/** What is edited: the definition and the canvas positions (the positions are the browser's only). */
export interface Draft extends Definition {
  positions: Record<string, XY>;
}

export const EMPTY_DEFINITION: Definition = {
  name: 'Untitled workflow',
  description: '',
  project_id: null,
  status: 'draft',
  blocks: [],
  edges: [],
  schedule: null,
  schedule_timezone: 'UTC',
};

/** The body the API takes: the definition's keys only, in order. */
export function definitionOf(d: Definition): Definition {
  const { name, description, project_id, status, blocks, edges, schedule, schedule_timezone } = d;
  return { name, description, project_id, status, blocks, edges, schedule, schedule_timezone };
}

export function sameDefinition(a: Definition, b: Definition): boolean {
  return JSON.stringify(definitionOf(a)) === JSON.stringify(definitionOf(b));
}

export const edgeId = (e: EdgeDef): string => `${e.from}->${e.to}`;

/** Why `id` cannot name a block of `draft` (other than the block `self`), or null. */
export function idProblem(draft: Definition, id: string, self?: string): string | null {
  if (!BLOCK_ID_RE.test(id)) return `A block id must be ${BLOCK_ID_RULE}.`;
  if (id !== self && draft.blocks.some((b) => b.id === id)) return `Another block is already called ${id}.`;
  return null;
}

/** Stems that read better than the kind's last word: a "Save as page" block is a page, not a project. */
const ID_STEMS: Partial<Record<BlockKind, string>> = { 'output.project': 'page' };

/** A fresh id for a new block of `kind`: its kind's last word, numbered when taken (agent, agent-2, …). */
export function uniqueId(draft: Definition, kind: BlockKind): string {
  const stem = ID_STEMS[kind] ?? kind.split('.').pop()!;
  const taken = new Set(draft.blocks.map((b) => b.id));
  if (!taken.has(stem)) return stem;
  for (let n = 2; ; n++) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`;
}

/** A new block's config: each field's declared default, nothing else (the form fills the rest). */
function initialConfig(kind: BlockKind): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const f of BLOCK_SCHEMAS[kind].fields) {
    if (f.type === 'integer' && f.default !== undefined) config[f.name] = f.default;
    else if (f.type === 'text' && f.required) config[f.name] = '';
  }
  return config;
}

export function addBlock(draft: Draft, kind: BlockKind, at: XY): { draft: Draft; id: string } {
  const id = uniqueId(draft, kind);
  return {
    id,
    draft: { ...draft, blocks: [...draft.blocks, { id, kind, config: initialConfig(kind) }], positions: { ...draft.positions, [id]: at } },
  };
}

/** Renames a block everywhere: its edges, its position, and `{{old}}` in the templates it feeds. */
export function renameBlock(draft: Draft, from: string, to: string): Draft {
  const swap = (id: string) => (id === from ? to : id);
  const feeds = new Set(draft.edges.filter((e) => e.from === from).map((e) => e.to));
  const pattern = new RegExp(`\\{\\{(\\s*)${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*)\\}\\}`, 'g');
  const blocks = draft.blocks.map((b) => {
    const config = feeds.has(b.id) ? Object.fromEntries(Object.entries(b.config).map(([k, v]) => [k, typeof v === 'string' ? v.replace(pattern, `{{$1${to}$2}}`) : v])) : b.config;
    return { ...b, id: swap(b.id), config };
  });
  const { [from]: pos, ...positions } = draft.positions;
  return { ...draft, blocks, edges: draft.edges.map((e) => ({ from: swap(e.from), to: swap(e.to) })), positions: pos ? { ...positions, [to]: pos } : positions };
}

export function removeBlocks(draft: Draft, ids: readonly string[]): Draft {
  const gone = new Set(ids);
  const positions = Object.fromEntries(Object.entries(draft.positions).filter(([id]) => !gone.has(id)));
  return { ...draft, blocks: draft.blocks.filter((b) => !gone.has(b.id)), edges: draft.edges.filter((e) => !gone.has(e.from) && !gone.has(e.to)), positions };
}

/** Adds the edge from → to unless it exists or loops on itself (a cycle through others is the server's to report). */
export function connect(draft: Draft, from: string, to: string): Draft {
  if (from === to || draft.edges.some((e) => e.from === from && e.to === to)) return draft;
  return { ...draft, edges: [...draft.edges, { from, to }] };
}

export function disconnect(draft: Draft, ids: readonly string[]): Draft {
  const gone = new Set(ids);
  return { ...draft, edges: draft.edges.filter((e) => !gone.has(edgeId(e))) };
}

export function setConfig(draft: Draft, id: string, name: string, value: unknown): Draft {
  return {
    ...draft,
    blocks: draft.blocks.map((b) => {
      if (b.id !== id) return b;
      const config = { ...b.config };
      if (value === undefined) delete config[name];
      else config[name] = value;
      return { ...b, config };
    }),
  };
}

/** The blocks feeding `id`, in edge order: the names its templates may use. */
export const inputsOf = (draft: Definition, id: string): string[] => draft.edges.filter((e) => e.to === id).map((e) => e.from);
