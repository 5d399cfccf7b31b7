// A worker's hold on one claimed automation run: the same heartbeat as scheduler/lease.ts, renewed
// through the automation_runs fence.
import type { Queryable } from '../../db/db.js';
import { Lease, LeaseLost } from '../scheduler/lease.js';
import type { EngineLog } from '../scheduler/log.js';
import { renewAutomationLease, type AutomationFence } from './store.js';

export { LeaseLost };

export class AutomationLease extends Lease<AutomationFence> {
  constructor(fence: AutomationFence, db: Queryable, leaseMs: number, log: EngineLog) {
    super(fence, db, leaseMs, log, renewAutomationLease);
  }
}
