// The rules of a workflow save: where the editing starts (a draft kept in the browser or the
// server's definition), what a PUT sends (the updated_at it started from, so a concurrent edit is
// a conflict), and what a failed save means (a conflict, a refusal kept with what was sent).
import { describe, expect, it } from 'vitest';
import { HubError } from '../../web/src/lib/api';
import { LAYER_GAP } from '../../web/src/pages/workflow-builder/layout';
import { EMPTY_DEFINITION, type Definition, type Draft, type WorkflowEditor } from '../../web/src/pages/workflow-builder/model';
import { failureOf, isStale, laidOut, parseStored, putBody, startingDraft, type Stored } from '../../web/src/pages/workflow-builder/saving';

const def: Definition = {
  ...EMPTY_DEFINITION,
  name: 'Digest',
  blocks: [
    { id: 'src', kind: 'source.text', config: { text: 'x' } },
    { id: 'ask', kind: 'agent', config: { prompt: 'p' } },
  ],
  edges: [{ from: 'src', to: 'ask' }],
};
const editor: WorkflowEditor = { id: 'wf_1', created_at: 't0', updated_at: 't1', definition: def, schedule_next: [], project_name: null };
const stored = (draft: Draft, base: string | null): Stored => ({ base_updated_at: base, draft });

describe('parseStored', () => {
  it('reads a kept draft back', () => {
    const s = stored(laidOut(def), 't1');
    expect(parseStored(JSON.stringify(s))).toEqual(s);
  });

  it('drops nothing, broken JSON, and entries that are not drafts', () => {
    expect(parseStored(null)).toBeNull();
    expect(parseStored('')).toBeNull();
    expect(parseStored('{oops')).toBeNull();
    expect(parseStored('null')).toBeNull();
    expect(parseStored(JSON.stringify({ base_updated_at: null }))).toBeNull();
    expect(parseStored(JSON.stringify({ base_updated_at: null, draft: { blocks: [], edges: {} } }))).toBeNull();
  });
});

describe('startingDraft', () => {
  it('lays out the server definition when nothing is kept', () => {
    const s = startingDraft(null, editor, EMPTY_DEFINITION);
    expect(s).toMatchObject({ restored: false, updatedAt: 't1' });
    expect(s.draft.positions).toEqual({ src: { x: 0, y: 0 }, ask: { x: 0, y: LAYER_GAP } });
  });

  it('restores a kept draft that differs, with the updated_at it began from (so saving it over a newer one conflicts)', () => {
    const mine: Draft = { ...laidOut(def), name: 'Mine' };
    expect(startingDraft(stored(mine, 't0'), editor, EMPTY_DEFINITION)).toEqual({ draft: mine, restored: true, updatedAt: 't0' });
    // A draft of a new workflow has no updated_at of its own: the server's is expected.
    expect(startingDraft(stored(mine, null), editor, EMPTY_DEFINITION).updatedAt).toBe('t1');
  });

  it('does not restore a kept draft equal to the server definition (positions alone are no change)', () => {
    const same: Draft = { ...laidOut(def), positions: { src: { x: 500, y: 500 }, ask: { x: 0, y: 0 } } };
    const s = startingDraft(stored(same, 't0'), editor, EMPTY_DEFINITION);
    expect(s.restored).toBe(false);
    expect(s.updatedAt).toBe('t1');
    expect(s.draft.positions.src).toEqual({ x: 0, y: 0 });
  });

  it('starts a new workflow empty, with no updated_at', () => {
    expect(startingDraft(null, null, EMPTY_DEFINITION)).toEqual({ draft: { ...EMPTY_DEFINITION, positions: {} }, restored: false, updatedAt: null });
  });

  it('keeps the positions handed over by a first save only when they place every block', () => {
    const handed = { src: { x: 9, y: 9 }, ask: { x: 9, y: 99 } };
    expect(startingDraft(null, editor, EMPTY_DEFINITION, handed).draft.positions).toEqual(handed);
    expect(startingDraft(null, editor, EMPTY_DEFINITION, { src: { x: 9, y: 9 } }).draft.positions.ask).toEqual({ x: 0, y: LAYER_GAP });
  });
});

describe('putBody', () => {
  const draft: Draft = { ...laidOut(def) };

  it('sends the definition with the updated_at it started from', () => {
    const body = putBody(draft, 't1');
    expect(body).toEqual({ ...def, expected_updated_at: 't1' });
    expect(body).not.toHaveProperty('positions');
  });

  it('sends it bare when forced over a conflict or when no updated_at is known', () => {
    expect(putBody(draft, 't1', true)).toEqual(def);
    expect(putBody(draft, null)).toEqual(def);
  });
});

describe('failureOf and isStale', () => {
  it('calls a version mismatch a conflict, whatever was sent', () => {
    expect(failureOf(new HubError(409, 'workflow_changed', 'changed', 'r'), def)).toEqual({ conflict: true });
    expect(failureOf(new HubError(409, 'workflow_changed', 'changed', 'r'), undefined)).toEqual({ conflict: true });
  });

  it('keeps a refusal with the definition sent, placed when the server named a path', () => {
    const placed = failureOf(new HubError(422, 'invalid_field', 'block "ask" (agent): empty', 'r', 'blocks[1].config.prompt'), def);
    expect(placed).toEqual({ refused: { sent: def, problem: { message: 'block "ask" (agent): empty', short: 'empty', block: { id: 'ask', field: 'prompt' } } } });
    // Not a field refusal (a 500, the network): kept, with nothing to place.
    expect(failureOf(new HubError(0, 'network_error', 'down', null), def)).toEqual({ refused: { sent: def, problem: null } });
  });

  it('has nothing to keep when nothing was sent', () => {
    expect(failureOf(new Error('boom'), undefined)).toBeNull();
  });

  it('drops a refusal once the draft is no longer what was sent', () => {
    const refused = { problem: null, sent: def };
    expect(isStale(null, def)).toBe(false);
    expect(isStale(refused, laidOut(def))).toBe(false);
    expect(isStale(refused, { ...def, name: 'Fixed' })).toBe(true);
  });
});
