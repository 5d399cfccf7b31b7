// The one admission rule (src/domain/enrollment.ts), shared by /v1's enrollments and the triggers:
// every skip reason, the order they are checked in, and an id given twice.
import { describe, expect, it } from 'vitest';
import { admit, SKIP_REASONS, skipReason, takesEnrollments, type AdmissionRules, type ContactState } from '../../src/domain/enrollment.js';

const RULES: AdmissionRules = { status: 'published', reenroll: 'never', max_per_contact: 2 };
const fresh = (over: Partial<ContactState> = {}): ContactState => ({
  id: 'c',
  found: true,
  archived: false,
  erased: false,
  active_here: false,
  before_here: false,
  active_in_project: 0,
  ...over,
});

describe('skipReason', () => {
  it('admits a contact that is there, not in this automation and under the project cap', () => {
    expect(skipReason(fresh(), RULES)).toBeNull();
    expect(skipReason(fresh({ active_in_project: 1 }), RULES)).toBeNull();
  });

  it('covers every reason /v1 names, and no other', () => {
    const cases: [ContactState | undefined, string][] = [
      [undefined, 'not_found'],
      [fresh({ found: false }), 'not_found'],
      [fresh({ archived: true }), 'not_found'],
      [fresh({ erased: true }), 'erased'],
      [fresh({ active_here: true }), 'already_enrolled'],
      [fresh({ before_here: true }), 'enrolled_before'],
      [fresh({ active_in_project: 2 }), 'too_many_automations'],
    ];
    for (const [state, reason] of cases) expect(skipReason(state, RULES), JSON.stringify(state)).toBe(reason);
    expect(new Set(cases.map(([, r]) => r))).toEqual(new Set(SKIP_REASONS));
  });

  it('enrolled_before only when the automation runs once per contact', () => {
    expect(skipReason(fresh({ before_here: true }), { ...RULES, reenroll: 'always' })).toBeNull();
    expect(skipReason(fresh({ before_here: true }), { ...RULES, reenroll: 'after_exit' })).toBeNull();
  });

  it('names the first reason that applies: missing, erased, here now, here before, the cap', () => {
    const all = fresh({ archived: true, erased: true, active_here: true, before_here: true, active_in_project: 9 });
    expect(skipReason(all, RULES)).toBe('not_found');
    expect(skipReason({ ...all, archived: false }, RULES)).toBe('erased');
    expect(skipReason({ ...all, archived: false, erased: false }, RULES)).toBe('already_enrolled');
    expect(skipReason({ ...all, archived: false, erased: false, active_here: false }, RULES)).toBe('enrolled_before');
    expect(skipReason({ ...all, archived: false, erased: false, active_here: false, before_here: false }, RULES)).toBe('too_many_automations');
  });
});

describe('takesEnrollments', () => {
  it('only a published automation', () => {
    expect(takesEnrollments({ status: 'published' })).toBe(true);
    expect(takesEnrollments({ status: 'draft' })).toBe(false);
    expect(takesEnrollments({ status: 'paused' })).toBe(false);
  });
});

describe('admit', () => {
  it('decides an id given twice once: a skip repeats its reason, an admitted id is already_enrolled the second time', () => {
    const states = new Map([
      ['a', fresh({ id: 'a' })],
      ['b', fresh({ id: 'b', before_here: true })],
    ]);
    expect(admit(['a', 'b', 'x', 'a', 'b'], states, RULES)).toEqual([
      { contactId: 'a', reason: null },
      { contactId: 'b', reason: 'enrolled_before' },
      { contactId: 'x', reason: 'not_found' },
      { contactId: 'a', reason: 'already_enrolled' },
      { contactId: 'b', reason: 'enrolled_before' },
    ]);
  });
});
