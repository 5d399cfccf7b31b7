// The domain's derived lists agree with its predicates, and sqlList quotes only plain constants.
import { describe, expect, it } from 'vitest';
import { sqlList } from '../../src/db/sql-list.js';
import { ACTIVE_AUTOMATION_RUN_STATUSES, AUTOMATION_RUN_STATUSES, isActiveAutomationRun } from '../../src/domain/automation.js';
import { ACTIVE_RUN_STATUSES, NON_FINAL, RUN_STATUSES, countsTowardConcurrency, isFinal } from '../../src/domain/workflow.js';

describe('domain predicates', () => {
  it('the list of active runs is what counts toward concurrency, and none is final', () => {
    expect(RUN_STATUSES.filter(countsTowardConcurrency)).toEqual([...ACTIVE_RUN_STATUSES]);
    expect(ACTIVE_RUN_STATUSES.some(isFinal)).toBe(false);
    expect(NON_FINAL).toEqual(['queued', 'running', 'awaiting_approval']);
  });

  it('the list of active automation runs is what isActiveAutomationRun says', () => {
    expect(AUTOMATION_RUN_STATUSES.filter(isActiveAutomationRun)).toEqual([...ACTIVE_AUTOMATION_RUN_STATUSES]);
  });
});

describe('sqlList', () => {
  it('writes the SQL the queries had by hand (partial indexes match the same text)', () => {
    expect(`(${sqlList(ACTIVE_AUTOMATION_RUN_STATUSES)})`).toBe("('running', 'waiting')");
    expect(`(${sqlList(NON_FINAL)})`).toBe("('queued', 'running', 'awaiting_approval')");
  });

  it('refuses anything but a plain constant', () => {
    expect(() => sqlList(["a'); drop table x; --"])).toThrow(/not a plain constant/);
  });
});
