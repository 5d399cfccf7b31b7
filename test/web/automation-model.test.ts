// The automation builder's pure parts: new steps and their ids, moving, removing (with the jumps
// that led to the removed step), branches, the chain a contact walks, a step's one-line summary,
// the placing of the server's paths on steps, and the words for the server's enums.
import { describe, expect, it } from 'vitest';
import {
  chainFrom,
  defaultConfig,
  fallThrough,
  insertStep,
  issuesOf,
  mergeIssues,
  moveStep,
  newStep,
  newStepId,
  removeStep,
  setBranch,
  splitPath,
  stepSummary,
  updateStep,
} from '../../web/src/pages/automation-builder/model';
import type { StepType } from '../../src/domain/automation';
import type { Step } from '../../web/src/data/automations';
import { durationWords, OP_WORDS, triggerWords, TRIGGER_TYPES } from '../../web/src/pages/automation-builder/words';

const step = (id: string, type: StepType = 'tag.add', extra: Partial<Step> = {}): Step => ({ id, name: id, type, config: {}, ...extra });
const ids = (steps: readonly Step[]) => steps.map((s) => s.id);

describe('new steps', () => {
  it('numbers ids per type from 1, taking the first free number', () => {
    expect(newStepId('email.send', [])).toBe('email1');
    expect(newStepId('email.send', [step('email1'), step('email3')])).toBe('email2');
    expect(newStepId('field.set', [step('update1')])).toBe('update2');
    expect(newStepId('ai.write', [step('email1')])).toBe('ai1');
  });

  it('starts a config with the required choices at their first option and the required texts empty', () => {
    expect(defaultConfig('email.send')).toEqual({ subject: '', body: '' });
    expect(defaultConfig('field.set')).toEqual({ field: 'lifecycle_stage', value: '' });
    expect(defaultConfig('wait')).toEqual({ duration: 'P1D' });
    expect(defaultConfig('branch')).toEqual({ field: 'lifecycle_stage', op: 'eq', value: '' });
    expect(defaultConfig('end')).toEqual({});
  });

  it('names a new step after its type', () => {
    expect(newStep('sms.send', [step('sms1')])).toEqual({ id: 'sms2', name: 'Send text message', type: 'sms.send', config: { body: '' } });
  });
});

describe('editing the list', () => {
  const three = [step('a'), step('b'), step('c')];

  it('inserts at a place, and moves one up or down within bounds', () => {
    expect(ids(insertStep(three, 1, step('x')))).toEqual(['a', 'x', 'b', 'c']);
    expect(ids(insertStep(three, 3, step('x')))).toEqual(['a', 'b', 'c', 'x']);
    expect(ids(moveStep(three, 0, 1))).toEqual(['b', 'a', 'c']);
    expect(ids(moveStep(three, 2, -1))).toEqual(['a', 'c', 'b']);
    expect(ids(moveStep(three, 0, -1))).toEqual(['a', 'b', 'c']);
    expect(ids(moveStep(three, 2, 1))).toEqual(['a', 'b', 'c']);
    expect(ids(three)).toEqual(['a', 'b', 'c']);
  });

  it('removes a step and the jumps that led to it, keeping the other branches', () => {
    const steps = [
      step('a', 'tag.add', { next: 'c' }),
      step('br', 'branch', { branches: { yes: 'c', no: 'd' } }),
      step('only', 'branch', { branches: { yes: 'c' } }),
      step('c'),
      step('d', 'tag.add', { next: 'a' }),
    ];
    const out = removeStep(steps, 'c');
    expect(ids(out)).toEqual(['a', 'br', 'only', 'd']);
    expect(out[0]).not.toHaveProperty('next');
    expect(out[1].branches).toEqual({ no: 'd' });
    expect(out[2]).not.toHaveProperty('branches');
    expect(out[3].next).toBe('a');
    expect(steps[0].next).toBe('c');
  });

  it('updates one step by id', () => {
    const out = updateStep([step('a'), step('b')], 'b', (s) => ({ ...s, name: 'B' }));
    expect(out.map((s) => s.name)).toEqual(['a', 'B']);
  });

  it('sets and clears where a branch outcome goes', () => {
    const b = setBranch(step('br', 'branch'), 'yes', 'a');
    expect(b.branches).toEqual({ yes: 'a' });
    expect(setBranch(b, 'no', 'c').branches).toEqual({ yes: 'a', no: 'c' });
    expect(setBranch(b, 'yes', '')).not.toHaveProperty('branches');
  });

  it('falls through to the next step in the list, or the end', () => {
    expect(fallThrough([step('a'), step('b')], 0)?.id).toBe('b');
    expect(fallThrough([step('a'), step('b')], 1)).toBeNull();
  });
});

describe('chainFrom', () => {
  it('walks `next`, else the list order, and stops at a branch or an end', () => {
    const steps = [step('a', 'tag.add', { next: 'c' }), step('b'), step('c'), step('br', 'branch'), step('z')];
    expect(ids(chainFrom(steps, 'a'))).toEqual(['a', 'c', 'br']);
    expect(ids(chainFrom([step('a'), step('e', 'end'), step('z')], 'a'))).toEqual(['a', 'e']);
  });

  it('stops at a loop, at an unknown id, at nothing, and at the limit', () => {
    expect(ids(chainFrom([step('a'), step('b', 'tag.add', { next: 'a' })], 'a'))).toEqual(['a', 'b']);
    expect(chainFrom([step('a')], 'ghost')).toEqual([]);
    expect(chainFrom([step('a')], null)).toEqual([]);
    const long = Array.from({ length: 10 }, (_, i) => step(`s${i}`));
    expect(chainFrom(long, 's0')).toHaveLength(6);
    expect(chainFrom(long, 's0', 3)).toHaveLength(3);
  });
});

describe('stepSummary', () => {
  it('says what each step does, or what it still lacks', () => {
    expect(stepSummary(step('e', 'email.send', { config: { subject: 'Hi' } }))).toBe('Subject: Hi');
    expect(stepSummary(step('e', 'email.send', { config: { subject: '  ' } }))).toBe('No subject yet');
    expect(stepSummary(step('s', 'sms.send', { config: { body: 'x'.repeat(80) } }))).toBe(`“${'x'.repeat(60)}”`);
    expect(stepSummary(step('w', 'wait', { config: { duration: 'PT1H' } }))).toBe('For 1 hour');
    expect(stepSummary(step('w', 'wait', { config: {} }))).toBe('No time yet');
    expect(stepSummary(step('t', 'tag.add', { config: { tag: 'vip' } }))).toBe('Tag: vip');
    expect(stepSummary(step('f', 'field.set', { config: { field: 'phone', value: null } }))).toBe('phone ← (cleared)');
    expect(stepSummary(step('f', 'field.set', { config: { field: 'first_name', value: 'Ada' } }))).toBe('first_name ← Ada');
  });

  it('reads a branch condition in words, with its list or without a value', () => {
    expect(stepSummary(step('b', 'branch', { config: { field: 'lifecycle_stage', op: 'in', value: ['lead', 'customer'] } }))).toBe('If lifecycle stage is one of lead, customer');
    expect(stepSummary(step('b', 'branch', { config: { field: 'phone', op: 'is_set' } }))).toBe('If phone is set');
    expect(stepSummary(step('b', 'branch', { config: { field: 'email', value: 'a@b.c' } }))).toBe('If email is a@b.c');
  });
});

describe('issues from the server paths', () => {
  const sent = [step('email1'), step('wait1')];

  it('splits a step path into its index and field', () => {
    expect(splitPath('steps[2].config.subject')).toEqual({ step: 2, field: 'config.subject' });
    expect(splitPath('steps[0]')).toEqual({ step: 0, field: '' });
    expect(splitPath('name')).toEqual({ step: null, field: 'name' });
  });

  it('places problems on the step that was sent at that index, the first message per field winning', () => {
    const issues = issuesOf(
      [
        { path: 'steps[1].config.duration', message: 'bad duration' },
        { path: 'steps[1].config.duration', message: 'second' },
        { path: 'steps[0]', message: 'whole step' },
        { path: 'trigger.type', message: 'no trigger' },
        { path: 'steps[9].config.x', message: 'past the end' },
      ],
      sent,
    );
    expect(issues.get('wait1')).toEqual(new Map([['config.duration', 'bad duration']]));
    expect(issues.get('email1')).toEqual(new Map([['', 'whole step']]));
    expect(issues.get('')).toEqual(new Map([['trigger.type', 'no trigger'], ['config.x', 'past the end']]));
  });

  it('merges two maps, the first winning on the same field', () => {
    const a = issuesOf([{ path: 'steps[0].config.subject', message: 'refused' }], sent);
    const b = issuesOf([{ path: 'steps[0].config.subject', message: 'problem' }, { path: 'steps[0].config.body', message: 'empty' }, { path: 'name', message: 'n' }], sent);
    const merged = mergeIssues(a, b);
    expect(merged.get('email1')).toEqual(new Map([['config.subject', 'refused'], ['config.body', 'empty']]));
    expect(merged.get('')).toEqual(new Map([['name', 'n']]));
    expect(b.get('email1')?.get('config.subject')).toBe('problem');
  });
});

describe('words', () => {
  it('words every trigger type in the domain order, and an unknown or missing one', () => {
    expect(TRIGGER_TYPES.map(([t]) => t)).toEqual(['contact.created', 'webhook', 'schedule', 'manual']);
    expect(triggerWords('webhook')).toBe('A webhook is called');
    expect(triggerWords(null)).toBe('No trigger yet');
    expect(triggerWords('future.kind')).toBe('future.kind');
  });

  it('reads the aliases like the names they stand for, and the presets in words', () => {
    expect(OP_WORDS.ne).toBe(OP_WORDS.neq);
    expect(OP_WORDS.is_empty).toBe(OP_WORDS.not_exists);
    expect(durationWords('P7D')).toBe('1 week');
    expect(durationWords('PT90M')).toBe('90 minutes');
    expect(durationWords('P5D')).toBe('5 days');
  });
});
