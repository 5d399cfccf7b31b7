// Workflow definition checks, the run order, and the template renderer (no database).
import { describe, expect, it } from 'vitest';
import { BLOCK_KINDS } from '../../../src/domain/workflow.js';
import {
  createBlockRegistry,
  htmlToText,
  placeholders,
  renderTemplate,
  topologicalOrder,
  validateWorkflow,
} from '../../../src/engine/blocks/index.js';
import type { BlockDef, EdgeDef } from '../../../src/engine/types.js';

const b = (id: string, kind: string, config: Record<string, unknown>): BlockDef => ({ id, kind, config });
const e = (from: string, to: string): EdgeDef => ({ from, to });

const digest = (): { blocks: BlockDef[]; edges: EdgeDef[] } => ({
  blocks: [
    b('notes', 'source.text', { text: 'Shipped the pricing page.' }),
    b('write', 'agent', { prompt: 'Digest: {{notes}}', max_tokens: 300 }),
    b('review', 'approval', { message: 'Publish?' }),
    b('out', 'output.project', { title: 'Weekly digest' }),
  ],
  edges: [e('notes', 'write'), e('write', 'review'), e('review', 'out')],
});

describe('createBlockRegistry', () => {
  it('has every kind of docs/architecture.md §10.3', () => {
    expect([...createBlockRegistry().keys()].sort()).toEqual([...BLOCK_KINDS].sort());
  });
});

describe('validateWorkflow', () => {
  it('accepts a good definition and an empty one', () => {
    const { blocks, edges } = digest();
    expect(validateWorkflow(blocks, edges)).toBeNull();
    expect(validateWorkflow([], [])).toBeNull();
    // An approval that names people to email: any spacing and case, a trailing comma, or none at all.
    for (const notify of ['', ' Ann@Example.org , bob@example.org,', 'ann@example.org']) {
      expect(validateWorkflow([b('p', 'approval', { message: 'ok', notify })], [])).toBeNull();
    }
  });

  it('refuses an unknown kind, naming the block and the kinds', () => {
    const msg = validateWorkflow([b('x', 'source.ftp', {})], []);
    expect(msg).toMatch(/block "x": "source.ftp" is not a block kind \(kinds: source.text, source.web/);
  });

  it('refuses duplicate ids and bad ids', () => {
    expect(validateWorkflow([b('a', 'source.text', { text: 'x' }), b('a', 'source.text', { text: 'y' })], [])).toBe(
      'duplicate block id "a"',
    );
    expect(validateWorkflow([b('has space', 'source.text', { text: 'x' })], [])).toMatch(/^blocks\[0\]\.id must be/);
    expect(validateWorkflow([{ kind: 'source.text', config: {} } as unknown as BlockDef], [])).toMatch(/^blocks\[0\]\.id/);
  });

  it('refuses dangling and duplicate edges', () => {
    const { blocks } = digest();
    expect(validateWorkflow(blocks, [e('notes', 'write'), e('write', 'ghost')])).toBe(
      'edges[1].to: no block with id "ghost"',
    );
    expect(validateWorkflow(blocks, [e('nobody', 'write')])).toBe('edges[0].from: no block with id "nobody"');
    expect(validateWorkflow(blocks, [e('notes', 'write'), e('notes', 'write')])).toBe('duplicate edge notes → write');
    expect(validateWorkflow(blocks, [{ from: 'notes' } as EdgeDef])).toMatch(/^edges\[0\] must be an object/);
  });

  it('refuses cycles, spelling the cycle out', () => {
    const { blocks, edges } = digest();
    expect(validateWorkflow(blocks, [...edges, e('out', 'write')])).toBe(
      'edges form a cycle: write → review → out → write (a workflow is a DAG)',
    );
    expect(validateWorkflow(blocks, [e('review', 'review')])).toMatch(/cycle: review → review/);
  });

  it('refuses invalid configs, naming the block and the field', () => {
    const cases: Array<[BlockDef, RegExp]> = [
      [b('w', 'source.web', { url: 'ftp://example.com/' }), /block "w" \(source.web\): config.url must be an http\(s\) URL/],
      [b('w', 'source.web', { url: 'not a url' }), /config.url must be an http\(s\) URL/],
      [b('w', 'source.web', { url: 'https://u:p@example.com/' }), /config.url must not carry/],
      [b('t', 'source.text', {}), /config.text must be a string/],
      [b('t', 'source.text', { text: 'x', extra: 1 }), /config.extra is not a known field/],
      [b('i', 'source.item', { item_id: 'about' }), /config.item_id must be a content item id/],
      [b('a', 'agent', { prompt: '' }), /config.prompt must not be empty/],
      [b('a', 'agent', { prompt: 'x', max_tokens: 0 }), /config.max_tokens must be an integer from 1/],
      [b('a', 'agent', { prompt: 'x', max_tokens: 1.5 }), /config.max_tokens/],
      [b('t', 'transform.template', { template: 3 }), /config.template must be a string/],
      [b('p', 'approval', {}), /config.message must be a string/],
      [b('p', 'approval', { message: 'ok', notify: 'ann@example.org; bob@example.org' }), /config.notify must be email addresses separated by commas; "ann@example.org; bob@example.org" is not one/],
      [b('p', 'approval', { message: 'ok', notify: Array.from({ length: 21 }, (_, i) => `p${i}@example.org`).join(',') }), /config.notify may name at most 20 addresses/],
      [b('p', 'approval', { message: 'ok', notify: ['ann@example.org'] }), /config.notify must be a string/],
      [b('o', 'output.project', { title: ' ' }), /config.title must not be empty/],
      [b('o', 'output.project', { title: 'x'.repeat(501) }), /config.title must be at most 500/],
      [{ id: 'c', kind: 'source.text', config: null } as unknown as BlockDef, /block "c": config must be an object/],
    ];
    for (const [block, re] of cases) expect(validateWorkflow([block], []), JSON.stringify(block)).toMatch(re);
  });

  it('refuses a placeholder naming a block that does not feed the block', () => {
    const { blocks } = digest();
    expect(validateWorkflow(blocks, [e('write', 'review'), e('review', 'out')])).toBe(
      'block "write": config.prompt uses {{notes}} but "notes" does not feed it (add an edge notes → write)',
    );
    const t = [b('t', 'transform.template', { template: 'Hi {{nobody}}' })];
    expect(validateWorkflow(t, [])).toBe('block "t": config.template uses {{nobody}} but there is no block "nobody"');
  });

  it('refuses non-arrays', () => {
    expect(validateWorkflow(null as unknown as BlockDef[], [])).toBe('blocks must be an array');
    expect(validateWorkflow([], {} as unknown as EdgeDef[])).toBe('edges must be an array');
  });
});

describe('topologicalOrder', () => {
  const ids = (bs: BlockDef[]): string[] => bs.map((x) => x.id);
  it('puts every block after the blocks feeding it', () => {
    const blocks = ['out', 'write', 'notes'].map((id) => b(id, 'source.text', { text: id }));
    expect(ids(topologicalOrder(blocks, [e('notes', 'write'), e('write', 'out')]))).toEqual(['notes', 'write', 'out']);
  });
  it('breaks ties by array order (stable)', () => {
    const blocks = ['a', 'b', 'c', 'd', 'e'].map((id) => b(id, 'source.text', { text: id }));
    // d and b are both ready after a; b comes first in the array. e has no edges.
    expect(ids(topologicalOrder(blocks, [e('a', 'd'), e('a', 'b'), e('d', 'c'), e('b', 'c')]))).toEqual([
      'a', 'b', 'd', 'c', 'e',
    ]);
    expect(ids(topologicalOrder(blocks, []))).toEqual(['a', 'b', 'c', 'd', 'e']);
    // A diamond joined later in the array still waits for both parents.
    expect(ids(topologicalOrder(blocks, [e('e', 'a')]))).toEqual(['b', 'c', 'd', 'e', 'a']);
  });
  it('throws on a cycle or an unknown block', () => {
    const blocks = ['a', 'b'].map((id) => b(id, 'source.text', { text: id }));
    expect(() => topologicalOrder(blocks, [e('a', 'b'), e('b', 'a')])).toThrow(/cycle/);
    expect(() => topologicalOrder(blocks, [e('a', 'z')])).toThrow(/unknown block/);
  });
});

describe('templates', () => {
  const inputs = { notes: { text: 'N {{x}}' }, x: { text: 'X' } };
  it('replaces placeholders once, never re-scanning input text', () => {
    expect(renderTemplate('a {{notes}} b {{ x }} c {{missing}}', inputs)).toBe('a N {{x}} b X c ');
    // Inherited names are not inputs; ids start with a letter or digit, so {{__proto__}} is not a placeholder.
    expect(renderTemplate('{{constructor}}{{toString}}{{__proto__}}', {})).toBe('{{__proto__}}');
    expect(placeholders('{{a}} {{b}} {{a}} {not} {{ }}')).toEqual(['a', 'b']);
  });
  it('turns HTML into its visible text in linear time', () => {
    const html = '<!doctype html><html><head><title>T</title><style>p{}</style></head><body><h1>Hi &amp; bye</h1>' +
      '<p>One<br>two&#33; &#x41;</p><script>alert(1)</script><!-- c --><p>three</p></body></html>';
    expect(htmlToText(html)).toBe('Hi & bye\n\nOne\ntwo! A\n\nthree');
    // Many unclosed openers: a backtracking regex would take minutes here; the scanner is linear
    // (the test timeout bounds it, no wall-clock assertion).
    expect(htmlToText('<script>'.repeat(50_000) + '<p'.repeat(50_000))).toBe('');
  });
});
