// A sprint's life (docs/architecture.md §12.10): planned → active → finished. The states are
// declared once, in work-item.ts (SPRINT_STATES, what /v1 renders); this file is their machine:
// which move a person may make from which state. A project has at most one active sprint (the
// board shows "the" sprint, and a finish hands its unfinished items to a planned one); the store
// holds that under concurrency (services/workmgmt/sprints.ts takes the project's row lock).
import type { SprintState } from './work-item.js';

/** What a person does to a sprint in the hub. */
export const SPRINT_ACTIONS = ['edit', 'start', 'finish'] as const;
export type SprintAction = (typeof SPRINT_ACTIONS)[number];

/** A finished sprint is over: nothing moves it again, and its review stays as written. */
export function isFinal(state: SprintState): boolean {
  switch (state) {
    case 'planned':
    case 'active':
      return false;
    case 'finished':
      return true;
    default: {
      const never: never = state;
      throw new Error(`unknown sprint state ${String(never)}`);
    }
  }
}

/**
 * The state a sprint in `state` reaches by `action`, or null when the action is not allowed
 * there: a sprint is edited only while planned (its dates and goal are the plan), started from
 * planned, finished from active.
 */
export function sprintMove(state: SprintState, action: SprintAction): SprintState | null {
  switch (action) {
    case 'edit':
      return state === 'planned' ? 'planned' : null;
    case 'start':
      return state === 'planned' ? 'active' : null;
    case 'finish':
      return state === 'active' ? 'finished' : null;
    default: {
      const never: never = action;
      throw new Error(`unknown sprint action ${String(never)}`);
    }
  }
}

