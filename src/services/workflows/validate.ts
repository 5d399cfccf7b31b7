// Validating a workflow's blocks and edges (a DAG of blocks, docs/architecture.md §10.3, §12.1):
// one set of rules for the fixture loader and the hub's builder. Reads parsed JSON through the
// path-carrying field reader, so a refusal names the JSON path at fault: each block's config is
// checked against its declared schema (the field at fault), then the engine's own check
// (workflowProblem) runs last, on the configs as the engine will see them (placeholders, with the
// block's field).
import { BLOCK_SCHEMAS } from '../../domain/block-schemas.js';
import { checkConfig } from '../../domain/config-schema.js';
import { workflowProblem } from '../../engine/blocks/index.js';
import { scheduleWords } from '../../engine/schedules/cron.js';
import { BLOCK_KINDS, WORKFLOW_STATUSES } from '../../domain/workflow.js';
import { Fields, RefSet, child, fail, type JsonObject } from '../../lib/json-fields.js';

const WORKFLOW_FIELDS = ['ref', 'name', 'description', 'status', 'project', 'blocks', 'edges', 'schedule', 'schedule_timezone'];
const BLOCK_FIELDS = ['id', 'kind', 'config'];
const EDGE_FIELDS = ['from', 'to'];

/**
 * What a flow's validator resolves references through: the account's projects and content items
 * by ref (a fixture's RefSets; a one-automation stand-in for a draft edit; the builder's
 * resolvers by id, src/services/workflows/definition.ts).
 */
export interface FlowRefs {
  projects: { resolve(ref: string, path: string): unknown };
  items: { resolve(ref: string, path: string): unknown };
  /**
   * When given, a `source.item` block's `config.item_id` must name an item of the account (the
   * builder's definitions name items by id; a fixture names them by ref, `config.item`).
   */
  itemIds?: { resolve(id: string, path: string): unknown };
}

export interface BlockSpec {
  id: string;
  kind: (typeof BLOCK_KINDS)[number];
  config: JsonObject;
}

export interface EdgeSpec {
  from: string;
  to: string;
}

export interface WorkflowSpec {
  ref: string;
  name: string;
  description: string;
  status: (typeof WORKFLOW_STATUSES)[number];
  project: string | null;
  blocks: BlockSpec[];
  edges: EdgeSpec[];
  /** Optional cron expression: the workflow also runs on this schedule (trigger `schedule`). */
  schedule: string | null;
  scheduleTimezone: string;
}

export function validateWorkflows(account: Fields, ctx: FlowRefs): WorkflowSpec[] {
  const refs = new RefSet('workflow');
  return account.list('workflows').map(([v, path]) => {
    const f = new Fields(path, v, WORKFLOW_FIELDS);
    const ref = f.ref();
    refs.add(ref, f.at('ref'), true);
    const name = f.text('name');
    const description = f.str('description', '');
    const status = f.oneOf('status', WORKFLOW_STATUSES, 'draft');
    const project = f.given('project') ? f.ref('project') : null;
    if (project !== null) ctx.projects.resolve(project, f.at('project'));

    const ids = new Set<string>();
    const blocks: BlockSpec[] = f.list('blocks').map(([bv, bp]) => {
      const b = new Fields(bp, bv, BLOCK_FIELDS);
      const id = b.ref('id');
      if (ids.has(id)) fail(b.at('id'), `duplicate block id ${JSON.stringify(id)}`);
      ids.add(id);
      const kind = b.str('kind');
      if (!(BLOCK_KINDS as readonly string[]).includes(kind)) {
        fail(b.at('kind'), `${JSON.stringify(kind)} is not a block kind (kinds: ${BLOCK_KINDS.join(', ')})`);
      }
      return { id, kind: kind as BlockSpec['kind'], config: b.object('config') };
    });

    const seen = new Set<string>();
    const located: LocatedEdge[] = [];
    const edges: EdgeSpec[] = f.list('edges').map(([ev, ep]) => {
      const e = new Fields(ep, ev, EDGE_FIELDS);
      const from = e.ref('from');
      const to = e.ref('to');
      for (const [end, id] of [['from', from], ['to', to]] as const) {
        if (!ids.has(id)) fail(e.at(end), `no block with id ${JSON.stringify(id)} in this workflow`);
      }
      const pair = JSON.stringify([from, to]);
      if (seen.has(pair)) fail(ep, `duplicate edge ${from} → ${to}`);
      seen.add(pair);
      located.push({ from, to, path: ep });
      return { from, to };
    });
    checkAcyclic(blocks, located);
    checkBlocks(blocks, edges, f, ctx);
    const schedule = f.given('schedule') ? f.text('schedule') : null;
    const scheduleTimezone = f.line('schedule_timezone', 'UTC');
    if (schedule !== null) {
      const problem = scheduleProblem(schedule, scheduleTimezone);
      if (problem) fail(f.at('schedule'), problem);
    }
    return { ref, name, description, status, project, blocks, edges, schedule, scheduleTimezone };
  });
}

/** null when the schedule can run, else why not, in the words every caller shows. */
export function scheduleProblem(schedule: string, timezone: string): string | null {
  return scheduleWords(schedule, timezone);
}

const PLACEHOLDER_ITEM_ID = '00000000-0000-7000-8000-000000000000';

/**
 * Block configs as the engine will see them. A `source.item` block names its item by fixture ref
 * (`config.item`); the loader swaps in the item's id (`config.item_id`). Each config is checked
 * against its kind's schema first, so a refusal names the field (`blocks[2].config.url`) with the
 * words the engine would use.
 */
function checkBlocks(blocks: BlockSpec[], edges: EdgeSpec[], f: Fields, ctx: FlowRefs): void {
  const blockPath = (i: number) => `${f.at('blocks')}[${i}]`;
  const forEngine = blocks.map((b, i) => {
    if (ctx.itemIds || b.kind !== 'source.item' || typeof b.config.item !== 'string') return b;
    ctx.items.resolve(b.config.item, `${blockPath(i)}.config.item`);
    const { item: _ref, ...rest } = b.config;
    return { ...b, config: { ...rest, item_id: PLACEHOLDER_ITEM_ID } };
  });
  forEngine.forEach((b, i) => {
    const bad = checkConfig(BLOCK_SCHEMAS[b.kind], b.config);
    const config = `${blockPath(i)}.config`;
    if (bad) fail(bad.field === null ? config : child(config, bad.field), `block ${JSON.stringify(b.id)} (${b.kind}): ${bad.message}`);
    if (ctx.itemIds && b.kind === 'source.item') ctx.itemIds.resolve(String(b.config.item_id), `${blockPath(i)}.config.item_id`);
  });
  const problem = workflowProblem(forEngine, edges);
  if (problem) fail(problem.path === null ? f.at('blocks') : `${f.path}.${problem.path}`, problem.message);
}

/** An edge with where it is in the definition (`edges[2]`), for the message that names it. */
type LocatedEdge = EdgeSpec & { path: string };

/**
 * Depth-first search in file order; the first edge that leads back into the path being explored
 * closes a cycle, and the message spells the cycle out.
 */
function checkAcyclic(blocks: BlockSpec[], edges: readonly LocatedEdge[]): void {
  const out = new Map<string, LocatedEdge[]>(blocks.map((b) => [b.id, []]));
  for (const e of edges) out.get(e.from)!.push(e);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): void => {
    state.set(id, 'open');
    stack.push(id);
    for (const { to, path } of out.get(id)!) {
      if (state.get(to) === 'open') {
        const cycle = [...stack.slice(stack.indexOf(to)), to].join(' → ');
        fail(path, `edges form a cycle: ${cycle} (a workflow is a DAG)`);
      }
      if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const b of blocks) if (!state.has(b.id)) visit(b.id);
}

