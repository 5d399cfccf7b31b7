// The publish rules on their own (no database): each step's config against STEP_SCHEMAS, a
// schedule trigger's cron and time zone, the Run-only-if condition; paths as the body names them.
import { describe, expect, it } from 'vitest';
import { publishProblems, runOnlyIfProblems, stepProblems, triggerProblems } from '../../src/services/automations/publish-rules.js';

describe('stepProblems', () => {
  it('gives the first problem of each step at steps[i].config.<field>, in step order', () => {
    expect(
      stepProblems([
        { id: 'e', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } },
        { id: 's', type: 'sms.send', config: {} },
        { id: 'w', type: 'wait', config: { duration: 'PT1M', until: '2030-01-01T00:00:00Z' } },
        { id: 'a', type: 'ai.write', config: { prompt: 'Write', max_tokens: 0 } },
        { id: 'f', type: 'field.set', config: { field: 'first_name', value: null } },
        { id: 'x', type: 'end' },
      ]),
    ).toEqual([
      { path: 'steps[1].config.body', message: 'Fill in the text' },
      { path: 'steps[2].config.until', message: 'Fill in exactly one of duration or until' },
      { path: 'steps[3].config.max_tokens', message: expect.stringMatching(/^Max tokens must be a whole number from 1 to /) },
    ]);
  });

  it('brackets a config key that is not a plain name', () => {
    expect(stepProblems([{ id: 't', type: 'tag.add', config: { tag: 'x', 'my colour': 'red' } }])).toEqual([
      { path: 'steps[0].config["my colour"]', message: expect.stringMatching(/^“my colour” is not a setting here \(the settings: tag\); remove it$/) },
    ]);
  });

  it('leaves structural faults (an unknown type) to the save-time validator', () => {
    expect(stepProblems([{ id: 'q', type: 'fax.send', config: { a: 1 } }, 'not a step'])).toEqual([]);
  });
});

describe('triggerProblems', () => {
  it.each([
    [{ type: 'schedule', config: {} }, 'trigger.config.cron', /^Choose when the schedule runs/],
    [{ type: 'schedule', config: { cron: 'every day' } }, 'trigger.config.cron', /^The schedule 'every day' is not valid: use five fields/],
    [{ type: 'schedule', config: { cron: '0 9 * * 1', timezone: 'Mars/Olympus' } }, 'trigger.config.cron', /^'Mars\/Olympus' is not a time zone/],
    [{ type: 'schedule', config: { cron: '0 9 * * 1', timezone: '' } }, 'trigger.config.timezone', /time zone must be a name/],
  ])('%j → %s', (trigger, path, message) => {
    const [p] = triggerProblems(trigger);
    expect(p.path).toBe(path);
    expect(p.message).toMatch(message);
  });

  it('accepts a valid schedule and any other trigger', () => {
    expect(triggerProblems({ type: 'schedule', config: { cron: '0 9 * * 1', timezone: 'Europe/Paris' } })).toEqual([]);
    expect(triggerProblems({ type: 'contact.created', config: {} })).toEqual([]);
    expect(triggerProblems({ type: null })).toEqual([]);
  });
});

describe('runOnlyIfProblems and publishProblems', () => {
  it('checks the filter as a branch condition, named under run_only_if', () => {
    expect(runOnlyIfProblems(null)).toEqual([]);
    expect(runOnlyIfProblems({ field: 'tags', op: 'contains', value: 'vip' })).toEqual([]);
    expect(runOnlyIfProblems({ field: 'tags', op: 'like' })).toEqual([{ path: 'run_only_if.op', message: expect.stringMatching(/^Run only if: Choose the test \(one of eq, /) }]);
    expect(runOnlyIfProblems({ op: 'eq' })).toEqual([{ path: 'run_only_if.field', message: 'Run only if: Fill in the contact field' }]);
  });

  it('lists the trigger first, then the filter, then the steps', () => {
    const problems = publishProblems({ trigger: { type: 'schedule', config: {} }, run_only_if: { field: 'nope' }, steps: [{ id: 't1', type: 'tag.add', config: {} }] });
    expect(problems.map((p) => p.path)).toEqual(['trigger.config.cron', 'run_only_if.field', 'steps[0].config.tag']);
  });
});
