// Work management: the response shapes (docs/architecture.md §12.10) and how rows become them. Kept
// beside the routes so routes.ts stays the short contract of paths, parameters and handlers.
import { Type, type Static } from '@sinclair/typebox';
import { ITEM_KINDS } from '../../domain/project.js';
import { KEY_PREFIX_PATTERN, SPRINT_STATES, WM_STATUSES, WM_TYPES } from '../../domain/work-item.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { iso } from '../../lib/time.js';
import type { HistoryRow, LinkedDocumentRow, SprintRow, WmItemDetailRow, WmItemRow, WmProjectRow } from './store.js';

/** A key prefix, as the hub allows them: a capital letter, then up to 9 capitals or digits. */
const PREFIX = KEY_PREFIX_PATTERN;
/** `<PREFIX>-<number>`: no leading zero, at most 10 digits (a larger number cannot exist). */
export const KEY_PATTERN = `^${PREFIX}-[1-9][0-9]{0,9}$`;
const KEY_RE = new RegExp(`^(${PREFIX})-([1-9][0-9]{0,9})$`);

/** Item numbers are int4 in storage; a well-formed key beyond that names nothing. */
const MAX_NUMBER = 2_147_483_647;

/** Splits a key already checked against KEY_PATTERN; null when its number cannot exist. */
export function parseKey(key: string): { prefix: string; number: number } | null {
  const m = KEY_RE.exec(key);
  if (!m) return null;
  const number = Number(m[2]);
  return number <= MAX_NUMBER ? { prefix: m[1], number } : null;
}

/** The prefixes that still find a project's items: the current one and every previous one. */
export function ownsPrefix(p: WmProjectRow, prefix: string): boolean {
  return p.wm_prefix === prefix || p.wm_previous_prefixes.includes(prefix);
}

const Key = Type.String({ pattern: KEY_PATTERN, description: '`<PREFIX>-<number>`, with the current prefix.', examples: ['WEB-12'] });
const DateOnly = (description: string) => Nullable(Type.String({ format: 'date', description }));
const Person = Type.Object(
  {
    id: Uuid,
    name: Type.String({ description: "The person's name in the hub, else their email address." }),
  },
  { title: 'WorkPerson' },
);

export const WorkProject = Type.Object(
  {
    project_id: Uuid,
    name: Type.String(),
    key_prefix: Type.String({ description: 'The prefix of item keys now.', examples: ['WEB'] }),
    previous_prefixes: Type.Array(Type.String(), { description: 'Earlier prefixes; keys with them still find the items.' }),
  },
  { title: 'WorkProject' },
);

const itemFields = {
  key: Key,
  type: StringEnum(WM_TYPES),
  title: Type.String(),
  status: StringEnum(WM_STATUSES),
  sprint_id: Nullable(Uuid),
  epic_key: Nullable(Type.String({ description: "The epic's key (current prefix); null when in no epic." })),
  labels: Type.Array(Type.String()),
  assignee: Nullable(Person),
  start_date: DateOnly('YYYY-MM-DD.'),
  due_date: DateOnly('YYYY-MM-DD.'),
  points: Nullable(Type.Integer({ minimum: 0 })),
  created_at: DateTime,
  updated_at: DateTime,
};
export const WorkItem = Type.Object(itemFields, { title: 'WorkItem' });

const Comment = Type.Object(
  { at: DateTime, actor: Nullable(Person), kind: Type.Literal('comment'), text: Type.String() },
  { title: 'WorkItemComment' },
);
const Change = Type.Object(
  {
    at: DateTime,
    actor: Nullable(Person),
    kind: Type.Literal('change'),
    field: Type.String({ description: 'The field that changed, such as status or points.' }),
    from: Nullable(Type.String()),
    to: Nullable(Type.String()),
  },
  { title: 'WorkItemChange' },
);

export const WorkItemDetail = Type.Object(
  {
    ...itemFields,
    description: Type.String({ description: 'May be an empty string.' }),
    linked_documents: Type.Array(
      Type.Object({ id: Uuid, kind: StringEnum(ITEM_KINDS), title: Type.String() }),
      { description: 'Linked content items that still exist, in the order they were linked; GET /items/{id} reads one.' },
    ),
    history: Type.Array(Type.Union([Comment, Change]), {
      description: 'The whole history, oldest first. actor is null when no person (or a removed one) made the entry.',
    }),
  },
  { title: 'WorkItemDetail' },
);

export const Sprint = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    state: StringEnum(SPRINT_STATES),
    start_date: DateOnly('YYYY-MM-DD; null when not set.'),
    end_date: DateOnly('YYYY-MM-DD; null when not set.'),
    totals: Type.Object(
      {
        items: Type.Integer({ description: 'Items in the sprint.' }),
        done: Type.Integer({ description: 'Of those, items done.' }),
        points: Type.Integer({ description: 'Sum of their points (items without points count 0).' }),
        points_done: Type.Integer({ description: 'Sum of the points of the items done.' }),
      },
      { description: 'Computed from the items now in the sprint.' },
    ),
    review: Nullable(
      Type.Object({}, { additionalProperties: true, description: "The sprint review as written in the hub; null until the sprint is finished." }),
    ),
  },
  { title: 'Sprint' },
);

export function renderProject(p: WmProjectRow): Static<typeof WorkProject> {
  return { project_id: p.id, name: p.name, key_prefix: p.wm_prefix, previous_prefixes: p.wm_previous_prefixes };
}

const person = (id: string | null, name: string | null) => (id === null ? null : { id, name: name ?? '' });

export function renderItem(prefix: string, r: WmItemRow): Static<typeof WorkItem> {
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
): Static<typeof WorkItemDetail> {
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

export function renderSprint(s: SprintRow): Static<typeof Sprint> {
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
