// A sprint's machine (src/domain/sprint.ts): every state against every action, so a new state or
// action has to be placed in the table on purpose.
import { describe, expect, it } from 'vitest';
import { isFinal, SPRINT_ACTIONS, sprintMove } from '../../src/domain/sprint.js';
import { SPRINT_STATES } from '../../src/domain/work-item.js';

describe('sprint moves', () => {
  it('planned is edited and started, active is finished, finished is final', () => {
    const table = Object.fromEntries(SPRINT_STATES.map((state) => [state, Object.fromEntries(SPRINT_ACTIONS.map((a) => [a, sprintMove(state, a)]))]));
    expect(table).toEqual({
      planned: { edit: 'planned', start: 'active', finish: null },
      active: { edit: null, start: null, finish: 'finished' },
      finished: { edit: null, start: null, finish: null },
    });
    expect(SPRINT_STATES.filter(isFinal)).toEqual(['finished']);
  });
});
