// Automations, their versions, automation runs and the runs' steps (docs/architecture.md §10.4):
// statuses, the re-enrollment rules, the step types the engine runs, and which runs are still
// active.
import type { Channel } from './message.js';

export const AUTOMATION_STATUSES = ['draft', 'published', 'paused'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

/** When a contact may be enrolled again in the same automation. */
export const REENROLL_RULES = ['never', 'always', 'after_exit'] as const;
export type ReenrollRule = (typeof REENROLL_RULES)[number];

/**
 * The trigger types the engine starts: contact.created (src/engine/automations/contact-created.ts),
 * webhook (src/api/hooks), schedule (src/engine/automations/schedule.ts), and manual (no event:
 * contacts are enrolled through the API or a test run). A trigger type is null before one is chosen.
 */
export const TRIGGER_TYPES = ['contact.created', 'webhook', 'schedule', 'manual'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** The step types the engine runs (src/engine/automations/steps.ts). */
export const STEP_TYPES = [
  'email.send',
  'sms.send',
  'wait',
  'ai.write',
  'notify.team',
  'task.create',
  'tag.add',
  'field.set',
  'branch',
  'end',
] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** The step types that send, and what each sends (an automation's `sends` lists them in this order). */
export const SENDING_STEPS: ReadonlyArray<readonly [StepType, Channel]> = [
  ['email.send', 'email'],
  ['sms.send', 'sms'],
  ['notify.team', 'team'],
];

export const AUTOMATION_RUN_STATUSES = ['running', 'waiting', 'succeeded', 'failed', 'stopped', 'skipped'] as const;
export type AutomationRunStatus = (typeof AUTOMATION_RUN_STATUSES)[number];

/** Run history's words for each status (docs/architecture.md §12.5): a run's status_label, and the hub's status filter. */
export const AUTOMATION_RUN_STATUS_LABELS: Readonly<Record<AutomationRunStatus, string>> = {
  running: 'Running',
  waiting: 'Waiting',
  succeeded: 'Completed',
  failed: 'Failed',
  stopped: 'Stopped',
  skipped: 'Did not meet the Run only if criteria',
};

/**
 * Runs not yet over: the claim picks among them, a contact has at most one per automation
 * (migration 0001's automation_runs_one_active), and stopping or erasing ends them.
 */
export const ACTIVE_AUTOMATION_RUN_STATUSES = ['running', 'waiting'] as const satisfies readonly AutomationRunStatus[];
export type ActiveAutomationRunStatus = (typeof ACTIVE_AUTOMATION_RUN_STATUSES)[number];

export function isActiveAutomationRun(s: AutomationRunStatus): s is ActiveAutomationRunStatus {
  return s === 'running' || s === 'waiting';
}

/**
 * An automation run's step (automation_run_steps.status); not a workflow run's step. `failed` and
 * `unknown` also say a send step's message was not delivered, or may not have been
 * (src/delivery/step-store.ts).
 */
export const AUTOMATION_STEP_STATUSES = ['ok', 'running', 'waiting', 'skipped', 'failed', 'unknown'] as const;
export type AutomationStepStatus = (typeof AUTOMATION_STEP_STATUSES)[number];

/** A step still in flight or waiting: ending its run early ends these too (as `skipped`). */
export const UNFINISHED_AUTOMATION_STEP_STATUSES = ['running', 'waiting'] as const satisfies readonly AutomationStepStatus[];
