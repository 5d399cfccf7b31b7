// Work management: how rows become the response shapes (schemas.ts). How a key splits into its
// prefix and number is the domain's (src/domain/work-item.ts), shared with the services that write.
import { iso } from '../../lib/time.js';
import type { Sprint, WorkItem, WorkItemDetail, WorkProject } from './schemas.js';
import type { HistoryRow, LinkedDocumentRow, SprintRow, WmItemDetailRow, WmItemRow, WmProjectRow } from '../../services/workmgmt/read-store.js';

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
