// diffAutomation on its own: steps matched by id, which fields changed, key order ignored, the
// flags, and has_changes (false while never published, as /v1's has_unpublished_changes).
import { describe, expect, it } from 'vitest';
import { diffAutomation, jsonEqual, stepFieldChanges, type DiffSide } from '../../src/domain/automation-diff.js';

const side = (over: Partial<DiffSide> = {}): DiffSide => ({
  name: 'Welcome',
  trigger: { type: 'contact.created', label: 'New', config: {} },
  run_only_if: null,
  reenroll: 'never',
  steps: [
    { id: 'e1', name: 'Email', type: 'email.send', config: { subject: 'Hi', body: 'Hello' }, next: 'b' },
    { id: 'b', name: 'Lead?', type: 'branch', config: { field: 'lifecycle_stage', op: 'eq', value: 'lead' }, branches: { yes: 's1', no: 'x' } },
    { id: 's1', name: 'Text', type: 'sms.send', config: { body: 'Hi' }, next: 'x' },
    { id: 'x', name: 'End', type: 'end', config: {} },
  ],
  ...over,
});

describe('jsonEqual', () => {
  it('ignores key order and treats absent and null alike; arrays keep their order', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, n: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual(null, undefined)).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: '1' })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });
});

describe('diffAutomation', () => {
  it('finds nothing between a version and the same draft with keys in another order', () => {
    const d = side();
    const shuffled = side({ steps: d.steps.map((s) => Object.fromEntries(Object.entries(s).reverse()) as typeof s), trigger: { config: {}, label: 'New', type: 'contact.created' } });
    expect(diffAutomation({ ...d, version: 3 }, shuffled)).toEqual({
      from_version: 3,
      steps: { added: [], removed: [], changed: [], reordered: false },
      trigger_changed: false,
      run_only_if_changed: false,
      reenroll_changed: false,
      name_changed: false,
      has_changes: false,
    });
  });

  it('names added, removed and changed steps, with the fields that changed', () => {
    const before = side();
    const steps = [
      { ...before.steps[0], name: 'Welcome email', config: { subject: 'Hello', body: 'Hello' } },
      { ...before.steps[1], branches: { yes: 'w', no: 'x' } },
      { id: 'w', name: 'Wait', type: 'wait', config: { duration: 'PT1M' }, next: 'x' },
      { ...before.steps[3], type: 'tag.add', config: { tag: 'done' } },
    ];
    const d = diffAutomation({ ...before, version: 1 }, side({ steps }));
    expect(d.steps.added).toEqual([steps[2]]);
    expect(d.steps.removed).toEqual([before.steps[2]]);
    expect(d.steps.changed).toEqual([
      { id: 'e1', fields: ['name', 'config'], before: before.steps[0], after: steps[0] },
      { id: 'b', fields: ['branches'], before: before.steps[1], after: steps[1] },
      { id: 'x', fields: ['type', 'config'], before: before.steps[3], after: steps[3] },
    ]);
    expect(d).toMatchObject({ has_changes: true, trigger_changed: false, steps: { reordered: false } });
  });

  it('sees a removed next, a reorder, and each of the trigger, filter, re-enrollment and name', () => {
    const before = side();
    const noNext = side({ steps: [{ ...before.steps[0], next: undefined }, ...before.steps.slice(1)] });
    expect(diffAutomation({ ...before, version: 1 }, noNext).steps.changed).toEqual([{ id: 'e1', fields: ['next'], before: before.steps[0], after: noNext.steps[0] }]);
    const swapped = side({ steps: [before.steps[1], before.steps[0], ...before.steps.slice(2)] });
    expect(diffAutomation({ ...before, version: 1 }, swapped)).toMatchObject({ has_changes: true, steps: { reordered: true, changed: [] } });
    const flags = (over: Partial<DiffSide>) => {
      const d = diffAutomation({ ...before, version: 1 }, side(over));
      return [d.trigger_changed, d.run_only_if_changed, d.reenroll_changed, d.name_changed, d.has_changes];
    };
    expect(flags({ trigger: { type: 'webhook', label: 'New', config: {} } })).toEqual([true, false, false, false, true]);
    expect(flags({ run_only_if: { field: 'email', op: 'exists' } })).toEqual([false, true, false, false, true]);
    expect(flags({ reenroll: 'always' })).toEqual([false, false, true, false, true]);
    expect(flags({ name: 'Hello' })).toEqual([false, false, false, true, true]);
  });

  it('never published: every step is added, from_version 0, has_changes false as /v1 says', () => {
    const d = diffAutomation(null, side());
    expect(d.from_version).toBe(0);
    expect(d.steps.added.map((s) => s.id)).toEqual(['e1', 'b', 's1', 'x']);
    expect(d).toMatchObject({ has_changes: false, trigger_changed: false, steps: { removed: [], changed: [], reordered: false } });
  });
});

describe('stepFieldChanges', () => {
  const [email, branch] = side().steps;
  it('names each changed setting and branch with its old and new value, in field order', () => {
    const after = { ...branch, name: 'Lead now?', config: { ...branch.config as object, value: 'customer', extra: 1 }, branches: { yes: 'x', no: 'x' } };
    expect(stepFieldChanges(branch, after)).toEqual([
      { part: 'name', before: 'Lead?', after: 'Lead now?' },
      { part: 'config', key: 'value', before: 'lead', after: 'customer' },
      { part: 'config', key: 'extra', before: undefined, after: 1 },
      { part: 'branches', key: 'yes', before: 's1', after: 'x' },
    ]);
  });
  it('says a removed setting and a changed next; nothing for an equal step or reordered keys', () => {
    expect(stepFieldChanges(email, { ...email, config: { subject: 'Hi' }, next: 'x' })).toEqual([
      { part: 'config', key: 'body', before: 'Hello', after: undefined },
      { part: 'next', before: 'b', after: 'x' },
    ]);
    expect(stepFieldChanges(email, { ...email, config: { body: 'Hello', subject: 'Hi' } })).toEqual([]);
  });
});
