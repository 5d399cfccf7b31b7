// The order blocks run in (topological, ties by array order) and the reasons a stored definition
// cannot run. Pure: no database.
import { describe, expect, it } from 'vitest';
import { planWorkflow } from '../../src/engine/executor/plan.js';

const b = (id: string) => ({ id, kind: 'test.echo', config: {} });
const order = (blocks: unknown, edges: unknown) => {
  const r = planWorkflow(blocks, edges);
  if (!r.ok) throw new Error(r.error);
  return r.plan.order.map((x) => x.id);
};

describe('planWorkflow', () => {
  it('runs a block after all its predecessors, ties in array order', () => {
    expect(order([b('a'), b('b'), b('c')], [])).toEqual(['a', 'b', 'c']);
    expect(order([b('c'), b('b'), b('a')], [{ from: 'a', to: 'c' }, { from: 'b', to: 'c' }])).toEqual(['b', 'a', 'c']);
    // Diamond: a → b, a → c, b → d, c → d, declared backwards.
    expect(order([b('d'), b('c'), b('b'), b('a')], [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }, { from: 'b', to: 'd' }, { from: 'c', to: 'd' }])).toEqual(['a', 'c', 'b', 'd']);
  });

  it('lists each block\u2019s predecessors in edge order, once', () => {
    const r = planWorkflow([b('a'), b('b'), b('c')], [{ from: 'b', to: 'c' }, { from: 'a', to: 'c' }, { from: 'b', to: 'c' }]);
    expect(r.ok && r.plan.preds.get('c')).toEqual(['b', 'a']);
    expect(r.ok && r.plan.order[0].config).toEqual({});
  });

  it('refuses what cannot run, saying why', () => {
    const err = (blocks: unknown, edges: unknown) => {
      const r = planWorkflow(blocks, edges);
      return r.ok ? null : r.error;
    };
    expect(err([], [])).toBe('the workflow has no blocks');
    expect(err(null, [])).toBe('the workflow definition has no blocks array');
    expect(err([b('a'), b('a')], [])).toBe('block id "a" is used twice');
    expect(err([{ id: 1, kind: 'x' }], [])).toBe('block 0 has no string id and kind');
    expect(err([b('a')], [{ from: 'a', to: 'nope' }])).toBe('edge 0 names block "nope", which does not exist');
    expect(err([b('a')], [{ from: 'a' }])).toBe('edge 0 has no string from and to');
    expect(err([b('a')], {})).toBe('the workflow definition has an edges value that is not an array');
    expect(err([b('a'), b('b'), b('c')], [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }, { from: 'b', to: 'c' }])).toBe(
      'the edges form a cycle (blocks that can never start: "a", "b", "c")',
    );
    expect(err([b('a')], null)).toBeNull();
  });
});
