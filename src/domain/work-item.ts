// Work management (docs/architecture.md §12.10): work items, sprints and an item's history.

/** A project's Jira-like key prefix: a capital letter, then up to nine capitals or digits. */
export const KEY_PREFIX_PATTERN = '[A-Z][A-Z0-9]{0,9}';
export const PREFIX_RE = new RegExp(`^${KEY_PREFIX_PATTERN}$`);

const KEY_RE = new RegExp(`^(${KEY_PREFIX_PATTERN})-([1-9][0-9]{0,9})$`);

/** Item numbers are int4 in storage; a well-formed key beyond that names nothing. */
const MAX_NUMBER = 2_147_483_647;

/** Splits a key `<PREFIX>-<number>`; null when it is not one or its number cannot exist. */
export function parseKey(key: string): { prefix: string; number: number } | null {
  const m = KEY_RE.exec(key);
  if (!m) return null;
  const [, prefix = '', digits] = m; // both groups are required
  const number = Number(digits);
  return number <= MAX_NUMBER ? { prefix, number } : null;
}

/** The prefixes that still find a project's items: the current one and every previous one. */
export function ownsPrefix(p: { wm_prefix: string; wm_previous_prefixes: readonly string[] }, prefix: string): boolean {
  return p.wm_prefix === prefix || p.wm_previous_prefixes.includes(prefix);
}

export const WM_TYPES = ['story', 'task', 'bug', 'epic'] as const;
export type WmType = (typeof WM_TYPES)[number];

export const WM_STATUSES = ['todo', 'in_progress', 'in_review', 'done'] as const;
export type WmStatus = (typeof WM_STATUSES)[number];

export const SPRINT_STATES = ['planned', 'active', 'finished'] as const;
export type SprintState = (typeof SPRINT_STATES)[number];

/** A history entry is a comment or a change of one field. */
export const HISTORY_KINDS = ['comment', 'change'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/**
 * The fields a person edits on an item, as history rows name them (kind 'change', field). Each
 * change of one of these writes one row; the fixture format writes the same names.
 */
export const WM_EDITABLE_FIELDS = [
  'type', 'title', 'description', 'status', 'assignee', 'labels', 'start_date', 'due_date', 'epic', 'sprint', 'linked_documents', 'points',
] as const;
export type WmEditableField = (typeof WM_EDITABLE_FIELDS)[number];

/** Limits of what the hub writes on an item (the store takes more; these keep a board readable). */
export const WM_LIMITS = {
  title: 500,
  description: 100_000,
  comment: 20_000,
  labels: 20,
  label: 200,
  linkedDocuments: 50,
  points: 1_000,
  sprintName: 200,
  sprintGoal: 2_000,
  reviewSummary: 20_000,
} as const;
