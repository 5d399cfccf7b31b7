// Validating a workflow's blocks and edges (a DAG of blocks, docs/architecture.md §10.3, §12.1):
// one set of rules for the fixture loader and the hub's builder. Reads parsed JSON through the
// path-carrying field reader, so a refusal names the JSON path at fault; the blocks and edges are
// then checked by the domain's definition validator (src/domain/workflow-check.ts, which the
// builder runs in the browser too), on the configs as the engine will see them.
import { definitionProblems } from '../../domain/workflow-check.js';
import { scheduleWords } from '../../engine/schedules/cron.js';
import { BLOCK_KINDS, WORKFLOW_STATUSES } from '../../domain/workflow.js';
import { Fields, RefSet, eachEntry, fail, type DefinitionError, type JsonObject } from '../../lib/json-fields.js';

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

/** The account's workflows; with `onFault`, a workflow at fault is reported there and left out (the fixture loader lists every fault). */
export function validateWorkflows(account: Fields, ctx: FlowRefs, onFault?: (err: DefinitionError) => void): WorkflowSpec[] {
  const refs = new RefSet('workflow');
  return eachEntry(account.list('workflows'), (v, path) => {
    const f = new Fields(path, v, WORKFLOW_FIELDS);
    const ref = f.ref();
    refs.add(ref, f.at('ref'), true);
    const name = f.text('name');
    const description = f.str('description', '');
    const status = f.oneOf('status', WORKFLOW_STATUSES, 'draft');
    const project = f.given('project') ? f.ref('project') : null;
    if (project !== null) ctx.projects.resolve(project, f.at('project'));

    const blocks: BlockSpec[] = f.list('blocks').map(([bv, bp]) => {
      const b = new Fields(bp, bv, BLOCK_FIELDS);
      const id = b.ref('id');
      const kind = b.str('kind');
      if (!(BLOCK_KINDS as readonly string[]).includes(kind)) {
        fail(b.at('kind'), `${JSON.stringify(kind)} is not a block kind (kinds: ${BLOCK_KINDS.join(', ')})`);
      }
      return { id, kind: kind as BlockSpec['kind'], config: b.object('config') };
    });
    const edges: EdgeSpec[] = f.list('edges').map(([ev, ep]) => {
      const e = new Fields(ep, ev, EDGE_FIELDS);
      return { from: e.ref('from'), to: e.ref('to') };
    });
    checkBlocks(blocks, edges, f, ctx);
    const schedule = f.given('schedule') ? f.text('schedule') : null;
    const scheduleTimezone = f.line('schedule_timezone', 'UTC');
    if (schedule !== null) {
      const problem = scheduleProblem(schedule, scheduleTimezone);
      if (problem) fail(f.at('schedule'), problem);
    }
    return { ref, name, description, status, project, blocks, edges, schedule, scheduleTimezone };
  }, onFault);
}

/** null when the schedule can run, else why not, in the words every caller shows. */
export function scheduleProblem(schedule: string, timezone: string): string | null {
  return scheduleWords(schedule, timezone);
}

const PLACEHOLDER_ITEM_ID = '00000000-0000-7000-8000-000000000000';

/**
 * Block configs as the engine will see them. A `source.item` block names its item by fixture ref
 * (`config.item`); the loader swaps in the item's id (`config.item_id`). A refusal names the field
 * (`blocks[2].config.url`) in the words the builder shows beside it.
 */
function checkBlocks(blocks: BlockSpec[], edges: EdgeSpec[], f: Fields, ctx: FlowRefs): void {
  const blockPath = (i: number) => `${f.at('blocks')}[${i}]`;
  const forEngine = blocks.map((b, i) => {
    if (ctx.itemIds || b.kind !== 'source.item' || typeof b.config.item !== 'string') return b;
    ctx.items.resolve(b.config.item, `${blockPath(i)}.config.item`);
    const { item: _ref, ...rest } = b.config;
    return { ...b, config: { ...rest, item_id: PLACEHOLDER_ITEM_ID } };
  });
  // The builder's own validator (src/domain/workflow-check.ts): it shows every problem as the
  // user edits; a save is refused with the first, at its path, with the block named for a file's author.
  const first = definitionProblems({ blocks: forEngine, edges })[0];
  if (first) {
    const who = first.block === undefined ? '' : `block ${JSON.stringify(first.block)}${first.kind ? ` (${first.kind})` : ''}: `;
    fail(`${f.path}.${first.path}`, `${who}${first.message}`);
  }
  forEngine.forEach((b, i) => {
    if (ctx.itemIds && b.kind === 'source.item') ctx.itemIds.resolve(String(b.config.item_id), `${blockPath(i)}.config.item_id`);
  });
}
