// Work management (docs/architecture.md §12.10): work items, sprints and an item's history.

/** A project's Jira-like key prefix: a capital letter, then up to nine capitals or digits. */
export const KEY_PREFIX_PATTERN = '[A-Z][A-Z0-9]{0,9}';
export const PREFIX_RE = new RegExp(`^${KEY_PREFIX_PATTERN}$`);

export const WM_TYPES = ['story', 'task', 'bug', 'epic'] as const;
export type WmType = (typeof WM_TYPES)[number];

export const WM_STATUSES = ['todo', 'in_progress', 'in_review', 'done'] as const;
export type WmStatus = (typeof WM_STATUSES)[number];

export const SPRINT_STATES = ['planned', 'active', 'finished'] as const;
export type SprintState = (typeof SPRINT_STATES)[number];

/** A history entry is a comment or a change of one field. */
export const HISTORY_KINDS = ['comment', 'change'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];
