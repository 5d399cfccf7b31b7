// A workflow's definition as the hub's builder and the operator's `workflows create|edit|export`
// files carry it: the fixture's workflow with ids instead of refs (`project_id`, a source.item's
// `config.item_id`). It is validated by the fixture's own validator (validateWorkflows), wrapped
// as a one-workflow account, so there is one set of rules; a refusal's path is the path inside
// the definition (`blocks[2].config.prompt`), the message the words a fixture gets.
import { BLOCK_SCHEMAS } from '../../domain/block-schemas.js';
import type { WorkflowStatus } from '../../domain/workflow.js';
import { firstOf } from '../../lib/first.js';
import { isUuid } from '../../lib/ids.js';
import { DefinitionError, Fields, ROOT, fail, type JsonObject } from '../../lib/json-fields.js';
import type { WorkflowEditRow } from './store.js';
import { validateWorkflows, type BlockSpec, type EdgeSpec, type FlowRefs } from './validate.js';

/** The definition's fields, in the order an export writes them. */
export const DEFINITION_FIELDS = ['name', 'description', 'project_id', 'status', 'blocks', 'edges', 'schedule', 'schedule_timezone'] as const;

export interface WorkflowDefinition {
  name: string;
  description: string;
  project_id: string | null;
  status: WorkflowStatus;
  blocks: BlockSpec[];
  edges: EdgeSpec[];
  schedule: string | null;
  schedule_timezone: string;
}

/** The project and content item ids of the account a definition names (the store says which exist). */
export interface AccountIds {
  projects: ReadonlySet<string>;
  items: ReadonlySet<string>;
}

/** The ids a definition names, to ask the store which exist (only UUIDs: anything else cannot). */
export function namedIds(body: unknown): { projectIds: string[]; itemIds: string[] } {
  const o = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const blocks = Array.isArray(o.blocks) ? (o.blocks as unknown[]) : [];
  const itemIds = blocks.map((b) => (b && typeof b === 'object' ? (b as { config?: { item_id?: unknown } }).config?.item_id : undefined));
  return { projectIds: [o.project_id].filter(isUuid), itemIds: itemIds.filter(isUuid) };
}

function byId(kind: string, ids: ReadonlySet<string>): FlowRefs['projects'] {
  return {
    resolve(id: string, path: string) {
      if (!ids.has(id)) fail(path, `no ${kind} with id ${JSON.stringify(id)} in this account`);
      return id;
    },
  };
}

/** The path as the definition's author wrote it: workflows[0].project → project_id. */
function bodyPath(validatorPath: string): string {
  const p = validatorPath.replace(/^workflows\[0\]\.?/, '') || ROOT;
  return p === 'project' ? 'project_id' : p;
}

/** Validates a definition (parsed JSON) and returns it with its defaults filled in. Throws DefinitionError. */
export function parseDefinition(body: unknown, ids: AccountIds): WorkflowDefinition {
  const f = new Fields(ROOT, body, DEFINITION_FIELDS);
  const wrapped: Record<string, unknown> = { ref: 'workflow' };
  for (const k of DEFINITION_FIELDS) if (f.has(k)) wrapped[k === 'project_id' ? 'project' : k] = f.o[k];
  const items = byId('content item', ids.items);
  try {
    const specs = validateWorkflows(new Fields(ROOT, { workflows: [wrapped] }, ['workflows']), {
      projects: byId('project', ids.projects),
      items,
      itemIds: items,
    });
    const spec = firstOf(specs, 'the validated workflow');
    return {
      name: spec.name,
      description: spec.description,
      project_id: spec.project,
      status: spec.status,
      blocks: spec.blocks,
      edges: spec.edges,
      schedule: spec.schedule,
      schedule_timezone: spec.scheduleTimezone,
    };
  } catch (err) {
    if (!(err instanceof DefinitionError)) throw err;
    throw new DefinitionError(bodyPath(err.path), err.detail);
  }
}

/** A config's keys in its schema's order (jsonb keeps its own order: shortest key first). */
function inSchemaOrder(kind: BlockSpec['kind'], config: JsonObject): JsonObject {
  const names = BLOCK_SCHEMAS[kind]?.fields.map((f) => f.name) ?? [];
  return Object.fromEntries(Object.entries(config).sort(([a], [b]) => rank(names, a) - rank(names, b)));
}

const rank = (names: string[], k: string) => (names.includes(k) ? names.indexOf(k) : names.length);

/** A stored workflow as a definition, keys in the export's order: create(export(x)) gives x again. */
export function exportDefinition(w: WorkflowEditRow): WorkflowDefinition {
  return {
    name: w.name,
    description: w.description,
    project_id: w.project_id,
    status: w.status as WorkflowStatus,
    blocks: (w.blocks as BlockSpec[]).map(({ id, kind, config }) => ({ id, kind, config: inSchemaOrder(kind, config) })),
    edges: (w.edges as EdgeSpec[]).map(({ from, to }) => ({ from, to })),
    schedule: w.schedule,
    schedule_timezone: w.schedule_timezone,
  };
}
