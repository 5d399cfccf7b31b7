// The placing of a refused workflow save on the block, edge or setting the server's `param` names,
// against the body that was sent (not the draft as it is now).
import { describe, expect, it } from 'vitest';
import { HubError } from '../../web/src/lib/api';
import type { Definition } from '../../web/src/pages/workflow-builder/model';
import { problemOf } from '../../web/src/pages/workflow-builder/problems';

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

  it('names the edge that closes a cycle, from its path or from the spelled-out cycle', () => {
    expect(problemOf(refusal('edges[1]', 'edges form a cycle: src → ask → src (a workflow is a DAG)'), sent)?.edge).toBe('ask->src');
    expect(problemOf(refusal('blocks', 'edges form a cycle: src → ask → src (a workflow is a DAG)'), sent)?.edge).toBe('ask->src');
  });

  it('finds the block a whole-definition refusal names in its message, with the field it mentions', () => {
    expect(problemOf(refusal('blocks', 'block "ask" (agent): config.prompt names {{nope}}, which does not feed it'), sent)?.block).toEqual({ id: 'ask', field: 'prompt' });
    // A name the body does not hold is not a place to point at.
    expect(problemOf(refusal('edges', 'block "gone" (agent): missing'), sent)).toMatchObject({ setting: 'edges' });
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
