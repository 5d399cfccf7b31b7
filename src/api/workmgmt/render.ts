// Work management: how rows become the response shapes (schemas.ts), and how a key splits into
// its prefix and number.
import { KEY_PREFIX_PATTERN } from '../../domain/work-item.js';
import { iso } from '../../lib/time.js';
import type { Sprint, WorkItem, WorkItemDetail, WorkProject } from './schemas.js';
import type { HistoryRow, LinkedDocumentRow, SprintRow, WmItemDetailRow, WmItemRow, WmProjectRow } from '../../services/workmgmt/read-store.js';

const KEY_RE = new RegExp(`^(${KEY_PREFIX_PATTERN})-([1-9][0-9]{0,9})$`);

/** Item numbers are int4 in storage; a well-formed key beyond that names nothing. */
const MAX_NUMBER = 2_147_483_647;

/** Splits a key already checked against KEY_PATTERN; null when its number cannot exist. */
export function parseKey(key: string): { prefix: string; number: number } | null {
  const m = KEY_RE.exec(key);
  if (!m) return null;
  const [, prefix = '', digits] = m; // both groups are required
  const number = Number(digits);
  return number <= MAX_NUMBER ? { prefix, number } : null;
}

/** The prefixes that still find a project's items: the current one and every previous one. */
export function ownsPrefix(p: WmProjectRow, prefix: string): boolean {
  return p.wm_prefix === prefix || p.wm_previous_prefixes.includes(prefix);
}

export function renderProject(p: WmProjectRow): WorkProject {
  return { project_id: p.id, name: p.name, key_prefix: p.wm_prefix, previous_prefixes: p.wm_previous_prefixes };
}

const person = (id: string | null, name: string | null) => (id === null ? null : { id, name: name ?? '' });

export function renderItem(prefix: string, r: WmItemRow): WorkItem {
  return {
    key: `${prefix}-${r.number}`,
    type: r.type,
    title: r.title,
    status: r.status,
    sprint_id: r.sprint_id,
    epic_key: r.epic_number === null ? null : `${prefix}-${r.epic_number}`,
    labels: r.labels,
    assignee: person(r.assignee, r.assignee_name),
    start_date: r.start_date,
    due_date: r.due_date,
    points: r.points,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export function renderItemDetail(
  prefix: string,
  r: WmItemDetailRow,
  docs: LinkedDocumentRow[],
  history: HistoryRow[],
): WorkItemDetail {
  return {
    ...renderItem(prefix, r),
    description: r.description,
    linked_documents: docs.map((d) => ({ id: d.id, kind: d.kind, title: d.title })),
    history: history.map((h) => {
      const base = { at: iso(h.at), actor: person(h.actor, h.actor_name) };
      return h.kind === 'comment'
        ? { ...base, kind: 'comment' as const, text: h.text ?? '' }
        : { ...base, kind: 'change' as const, field: h.field ?? '', from: h.from_value, to: h.to_value };
    }),
  };
}

export function renderSprint(s: SprintRow): Sprint {
  return {
    id: s.id,
    name: s.name,
    state: s.state,
    start_date: s.start_date,
    end_date: s.end_date,
    totals: { items: Number(s.items), done: Number(s.done), points: Number(s.points), points_done: Number(s.points_done) },
    // A review exists only once the sprint is over, whatever the row holds before that.
    review: s.state === 'finished' ? (s.review ?? null) : null,
  };
}
