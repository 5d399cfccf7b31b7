// The workflow builder's pure parts, without a browser: the layered auto-layout (every edge points
// down a layer; a layer's blocks follow the blocks feeding them; a cycle cannot hang it) and the
// placing of a refused save on the block, edge or setting the server's `param` names.
import { describe, expect, it } from 'vitest';
import { COLUMN_GAP, LAYER_GAP, layeredLayout } from '../../web/src/pages/workflow-builder/layout.js';
import { problemOf } from '../../web/src/pages/workflow-builder/problems.js';
import type { Definition } from '../../web/src/pages/workflow-builder/model.js';
import { HubError } from '../../web/src/lib/api.js';

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
