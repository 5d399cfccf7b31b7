// The workflow builder's draft and its pure moves: add, rename, remove, connect, disconnect, set a
// config field; each returns a new draft and leaves the one it was given alone.
import { describe, expect, it } from 'vitest';
import {
  addBlock,
  connect,
  definitionOf,
  disconnect,
  EMPTY_DEFINITION,
  edgeId,
  idProblem,
  inputsOf,
  removeBlocks,
  renameBlock,
  sameDefinition,
  setConfig,
  uniqueId,
  type Draft,
} from '../../web/src/pages/workflow-builder/model';

const empty: Draft = { ...EMPTY_DEFINITION, positions: {} };

/** src → ask → page, ask's prompt naming its input. */
function sample(): Draft {
  return {
    ...EMPTY_DEFINITION,
    blocks: [
      { id: 'src', kind: 'source.text', config: { text: 'hello' } },
      { id: 'ask', kind: 'agent', config: { prompt: 'Summarise {{src}} and {{ src }}, not {{srcs}}', max_tokens: 10 } },
      { id: 'page', kind: 'output.project', config: { title: 'From {{src}}' } },
    ],
    edges: [
      { from: 'src', to: 'ask' },
      { from: 'ask', to: 'page' },
    ],
    positions: { src: { x: 0, y: 0 }, ask: { x: 0, y: 140 }, page: { x: 0, y: 280 } },
  };
}

describe('adding a block', () => {
  it('names it after its kind, numbered when taken, and places it where asked', () => {
    const one = addBlock(empty, 'agent', { x: 5, y: 6 });
    expect(one.id).toBe('agent');
    const two = addBlock(one.draft, 'agent', { x: 7, y: 8 });
    expect(two.id).toBe('agent-2');
    expect(two.draft.blocks.map((b) => b.id)).toEqual(['agent', 'agent-2']);
    expect(two.draft.positions['agent-2']).toEqual({ x: 7, y: 8 });
    expect(one.draft.blocks).toHaveLength(1);
    expect(empty.blocks).toHaveLength(0);
  });

  it('fills the gap in the numbering, and calls a "Save as page" block a page', () => {
    const d: Draft = { ...empty, blocks: [{ id: 'text', kind: 'source.text', config: {} }, { id: 'text-3', kind: 'source.text', config: {} }] };
    expect(uniqueId(d, 'source.text')).toBe('text-2');
    expect(uniqueId(d, 'output.project')).toBe('page');
  });

  it('starts its config with the declared defaults and the required texts empty', () => {
    expect(addBlock(empty, 'agent', { x: 0, y: 0 }).draft.blocks[0].config).toEqual({ prompt: '', max_tokens: 1024 });
    expect(addBlock(empty, 'source.item', { x: 0, y: 0 }).draft.blocks[0].config).toEqual({});
  });
});

describe('renaming a block', () => {
  it('renames its edges, its position, and the placeholders of the blocks it feeds', () => {
    const d = renameBlock(sample(), 'src', 'intro');
    expect(d.blocks.map((b) => b.id)).toEqual(['intro', 'ask', 'page']);
    expect(d.edges).toEqual([
      { from: 'intro', to: 'ask' },
      { from: 'ask', to: 'page' },
    ]);
    expect(d.positions).toEqual({ intro: { x: 0, y: 0 }, ask: { x: 0, y: 140 }, page: { x: 0, y: 280 } });
    // Spacing inside the braces is kept; a longer name that starts the same is not touched.
    expect(d.blocks[1].config.prompt).toBe('Summarise {{intro}} and {{ intro }}, not {{srcs}}');
    // `page` is not fed by src: its text is its own.
    expect(d.blocks[2].config.title).toBe('From {{src}}');
  });

  it('treats the old name literally, not as a pattern', () => {
    const d: Draft = {
      ...empty,
      blocks: [
        { id: 'a.b', kind: 'source.text', config: {} },
        { id: 'x', kind: 'agent', config: { prompt: '{{a.b}} {{aXb}}', max_tokens: 5 } },
      ],
      edges: [{ from: 'a.b', to: 'x' }],
    };
    expect(renameBlock(d, 'a.b', 'c').blocks[1].config).toEqual({ prompt: '{{c}} {{aXb}}', max_tokens: 5 });
  });
});

describe('removing, connecting and configuring', () => {
  it('removes blocks with their edges and positions', () => {
    const d = removeBlocks(sample(), ['ask']);
    expect(d.blocks.map((b) => b.id)).toEqual(['src', 'page']);
    expect(d.edges).toEqual([]);
    expect(Object.keys(d.positions)).toEqual(['src', 'page']);
  });

  it('connects once, never a block to itself, and disconnects by edge id', () => {
    const d = sample();
    expect(connect(d, 'src', 'ask')).toBe(d);
    expect(connect(d, 'ask', 'ask')).toBe(d);
    const more = connect(d, 'src', 'page');
    expect(more.edges.map(edgeId)).toEqual(['src->ask', 'ask->page', 'src->page']);
    expect(inputsOf(more, 'page')).toEqual(['ask', 'src']);
    expect(disconnect(more, ['src->ask', 'nope->x']).edges.map(edgeId)).toEqual(['ask->page', 'src->page']);
  });

  it('sets a config field on one block, and clears it with undefined', () => {
    const d = setConfig(sample(), 'ask', 'max_tokens', 99);
    expect(d.blocks[1].config.max_tokens).toBe(99);
    expect(setConfig(d, 'ask', 'max_tokens', undefined).blocks[1].config).not.toHaveProperty('max_tokens');
    expect(d.blocks[0].config).toEqual({ text: 'hello' });
  });
});

describe('ids and the definition', () => {
  it('refuses an id that breaks the rule or is taken by another block', () => {
    const d = sample();
    expect(idProblem(d, 'fresh')).toBeNull();
    expect(idProblem(d, 'ask', 'ask')).toBeNull();
    expect(idProblem(d, 'ask', 'src')).toBe('Another block is already called ask.');
    expect(idProblem(d, '-bad')).toMatch(/^A block id must be /);
    expect(idProblem(d, 'x'.repeat(65))).toMatch(/^A block id must be /);
  });

  it('keeps the definition keys only, in the API order, and compares on them alone', () => {
    const d = sample();
    expect(Object.keys(definitionOf(d))).toEqual(['name', 'description', 'project_id', 'status', 'blocks', 'edges', 'schedule', 'schedule_timezone']);
    const moved: Draft = { ...d, positions: {} };
    expect(sameDefinition(d, moved)).toBe(true);
    expect(sameDefinition(d, { ...d, name: 'Other' })).toBe(false);
  });
});
