// The placing of a refused workflow save on the block, edge or setting the server's `param` names,
// against the body that was sent (not the draft as it is now).
import { describe, expect, it } from 'vitest';
import { HubError } from '../../web/src/lib/api';
import type { Definition } from '../../web/src/pages/workflow-builder/model';
import { liveProblems, onBlock, onField, problemOf } from '../../web/src/pages/workflow-builder/problems';

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

describe('problemOf', () => {
  it('names the i-th block of the body sent, its field, and the message without the block prefix', () => {
    const p = problemOf(refusal('blocks[1].config.prompt', 'block "ask" (agent): config.prompt must not be empty'), sent);
    expect(p).toMatchObject({ block: { id: 'ask', field: 'prompt' }, short: 'config.prompt must not be empty' });
  });

  it('names a block key (id, kind) as the field, and the whole config as no field', () => {
    expect(problemOf(refusal('blocks[0].id', 'bad id'), sent)?.block).toEqual({ id: 'src', field: 'id' });
    expect(problemOf(refusal('blocks[0].config', 'block "src": config must be an object'), sent)).toMatchObject({
      block: { id: 'src', field: undefined },
      short: 'config must be an object',
    });
  });

  it('names the edge that closes a cycle from its path', () => {
    expect(problemOf(refusal('edges[1]', 'These connections go round in a circle: src → ask → src.'), sent)?.edge).toBe('ask->src');
  });

  it('leaves a path past the end of the body as a setting rather than pointing at nothing', () => {
    expect(problemOf(refusal('blocks[7].config.prompt', 'x'), sent)).toMatchObject({ setting: 'blocks[7].config.prompt' });
    expect(problemOf(refusal('edges[9].to', 'x'), sent)?.edge).toBeUndefined();
  });

  it('leaves a workflow setting as a setting, and any other refusal unplaced', () => {
    expect(problemOf(refusal('schedule', 'bad cron'), sent)).toMatchObject({ setting: 'schedule', message: 'bad cron', short: 'bad cron' });
    expect(problemOf(refusal(undefined, 'something'), sent)).toMatchObject({ setting: undefined });
    expect(problemOf(new HubError(409, 'workflow_changed', 'changed', 'req'), sent)).toBeNull();
    expect(problemOf(new Error('network'), sent)).toBeNull();
  });
});

describe('liveProblems: the server\'s validator over the draft, every problem at once, in words', () => {
  it('puts each problem on its block and field, two blocks at once, without the block prefix', () => {
    const draft: Definition = {
      ...sent,
      blocks: [
        { id: 'src', kind: 'source.text', config: { text: '' } },
        { id: 'ask', kind: 'agent', config: { prompt: '', max_tokens: 0 } },
      ],
      edges: [{ from: 'src', to: 'ask' }],
    };
    const all = liveProblems(draft);
    expect(all.map((p) => [p.block?.id, p.block?.field, p.short])).toEqual([
      ['src', 'text', 'Write the text this block starts the run with'],
      ['ask', 'prompt', 'Write the prompt for this AI block'],
      ['ask', 'max_tokens', 'Max tokens must be a whole number from 1 to 100,000'],
    ]);
    expect(onBlock(all, 'ask')).toHaveLength(2);
    expect(onField(onBlock(all, 'ask'), 'prompt')).toBe('Write the prompt for this AI block');
    expect(all[0].message).toBe('src: Write the text this block starts the run with');
  });

  it('marks the edge closing a cycle, a placeholder naming no feeding block, and an empty name', () => {
    const all = liveProblems({ ...sent, name: ' ', blocks: [sent.blocks[0], { id: 'ask', kind: 'agent', config: { prompt: 'Use {{src}} and {{gone}}' } }] });
    expect(all.find((p) => p.setting === 'name')?.short).toBe('Give the workflow a name');
    expect(all.find((p) => p.edge)?.edge).toBe('ask->src');
    expect(all.find((p) => p.short.includes('{{gone}}'))).toMatchObject({ block: { id: 'ask', field: 'prompt' }, short: 'The prompt uses {{gone}}, but there is no block called “gone”' });
  });

  it('finds nothing wrong with a complete draft', () => {
    expect(liveProblems({ ...sent, blocks: [sent.blocks[0], { id: 'ask', kind: 'agent', config: { prompt: 'Sum {{src}}' } }], edges: [sent.edges[0]] })).toEqual([]);
  });
});
