// The workflow builder's pure parts, without a browser: the layered auto-layout (every edge points
// down a layer; a layer's blocks follow the blocks feeding them; a cycle cannot hang it) and the
// placing of a refused save on the block, edge or setting the server's `param` names.
import { describe, expect, it } from 'vitest';

// The web's modules are typed by web/tsconfig.json (bundler resolution, the @domain alias), not by
// the server's NodeNext build, so they are loaded by a path tsc does not follow, with the few
// shapes used here declared below.
type XY = { x: number; y: number };
type Edge = { from: string; to: string };
type Definition = Record<string, unknown> & { blocks: { id: string; kind: string; config: Record<string, unknown> }[]; edges: Edge[] };
const WEB = '../../web/src';
const { COLUMN_GAP, LAYER_GAP, layeredLayout } = (await import(`${WEB}/pages/workflow-builder/layout.ts`)) as {
  COLUMN_GAP: number;
  LAYER_GAP: number;
  layeredLayout: (ids: string[], edges: Edge[]) => Record<string, XY>;
};
const { problemOf } = (await import(`${WEB}/pages/workflow-builder/problems.ts`)) as {
  problemOf: (err: unknown, sent: Definition) => { short: string; edge?: string; setting?: string; block?: { id: string; field?: string } } | null;
};
const { HubError } = (await import(`${WEB}/lib/api.ts`)) as {
  HubError: new (status: number, code: string, message: string, requestId: string | null, param?: string) => Error;
};

const layer = (y: number) => y / LAYER_GAP;

describe('layeredLayout', () => {
  it('puts each block one layer below the longest path to it', () => {
    const pos = layeredLayout(['a', 'b', 'c', 'd'], [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'a', to: 'c' },
      { from: 'd', to: 'c' },
    ]);
    expect([pos.a, pos.b, pos.c, pos.d].map((p) => layer(p.y))).toEqual([0, 1, 2, 0]);
  });

  it('orders a layer by the positions of the blocks feeding it, so edges do not cross', () => {
    // x feeds q and y feeds p: below them p goes under y (right), q under x (left).
    const pos = layeredLayout(['x', 'y', 'p', 'q'], [
      { from: 'y', to: 'p' },
      { from: 'x', to: 'q' },
    ]);
    expect([pos.x.x, pos.y.x]).toEqual([0, COLUMN_GAP]);
    expect([pos.q.x, pos.p.x]).toEqual([0, COLUMN_GAP]);
  });

  it('ends on a cycle and ignores edges naming unknown blocks', () => {
    const pos = layeredLayout(['a', 'b'], [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'a' },
      { from: 'a', to: 'ghost' },
    ]);
    expect(Object.keys(pos).sort()).toEqual(['a', 'b']);
    for (const p of Object.values(pos)) expect(layer(p.y)).toBeLessThan(2);
  });
});

describe('problemOf', () => {
  const sent: Definition = {
    name: 'W',
    description: '',
    project_id: null,
    status: 'draft',
    blocks: [
      { id: 'src', kind: 'source.text', config: { text: 'x' } },
      { id: 'ask', kind: 'agent', config: { prompt: '' } },
    ],
    edges: [
      { from: 'src', to: 'ask' },
      { from: 'ask', to: 'src' },
    ],
    schedule: null,
    schedule_timezone: 'UTC',
  };
  const refusal = (param: string | undefined, message: string) => new HubError(422, 'invalid_field', message, 'req', param);

  it('names the i-th block of the body sent, its field, and the message without the block prefix', () => {
    const p = problemOf(refusal('blocks[1].config.prompt', 'block "ask" (agent): config.prompt must not be empty'), sent);
    expect(p).toMatchObject({ block: { id: 'ask', field: 'prompt' }, short: 'config.prompt must not be empty' });
  });

  it('names the edge that closes a cycle, from its path or from the spelled-out cycle', () => {
    expect(problemOf(refusal('edges[1]', 'edges form a cycle: src → ask → src (a workflow is a DAG)'), sent)?.edge).toBe('ask->src');
    expect(problemOf(refusal('blocks', 'edges form a cycle: src → ask → src (a workflow is a DAG)'), sent)?.edge).toBe('ask->src');
  });

  it('leaves a workflow setting as a setting, and any other refusal unplaced', () => {
    expect(problemOf(refusal('schedule', 'bad cron'), sent)).toMatchObject({ setting: 'schedule' });
    expect(problemOf(new HubError(409, 'workflow_changed', 'changed', 'req'), sent)).toBeNull();
  });
});
