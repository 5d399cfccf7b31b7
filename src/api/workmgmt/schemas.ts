// Work management: the response shapes (docs/architecture.md §12.10) and the paths' and lists'
// parameters. Pure: TypeBox and src/domain only (render.ts makes the shapes from rows), for the
// hub and the web app.
import { Type, type Static } from '@sinclair/typebox';
import { ITEM_KINDS } from '../../domain/project.js';
import { KEY_PREFIX_PATTERN, SPRINT_STATES, WM_STATUSES, WM_TYPES } from '../../domain/work-item.js';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

/** A key prefix, as the hub allows them: a capital letter, then up to 9 capitals or digits. */
const PREFIX = KEY_PREFIX_PATTERN;
/** `<PREFIX>-<number>`: no leading zero, at most 10 digits (a larger number cannot exist). */
export const KEY_PATTERN = `^${PREFIX}-[1-9][0-9]{0,9}$`;

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
export type WorkProject = Static<typeof WorkProject>;

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
export type WorkItem = Static<typeof WorkItem>;

export const Comment = Type.Object(
  { at: DateTime, actor: Nullable(Person), kind: Type.Literal('comment'), text: Type.String() },
  { title: 'WorkItemComment' },
);
export const Change = Type.Object(
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
export type WorkItemDetail = Static<typeof WorkItemDetail>;

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
export type Sprint = Static<typeof Sprint>;

export const ProjectParams = Type.Object({ project_id: Uuid }, { additionalProperties: false });
export type ProjectParams = Static<typeof ProjectParams>;
export const ItemParams = Type.Object(
  {
    project_id: Uuid,
    key: Type.String({ pattern: KEY_PATTERN, description: '`<PREFIX>-<number>`; a previous prefix of the project also finds the item.', examples: ['WEB-12'] }),
  },
  { additionalProperties: false },
);
export type ItemParams = Static<typeof ItemParams>;
export const ListOnlyQuery = Type.Object(ListQuery, { additionalProperties: false });
export type ListOnlyQuery = Static<typeof ListOnlyQuery>;
export const ListItemsQuery = Type.Object(
  {
    ...ListQuery,
    status: Type.Optional(StringEnum(WM_STATUSES)),
    type: Type.Optional(StringEnum(WM_TYPES)),
    sprint_id: Type.Optional(Uuid),
    assignee: Type.Optional(
      Type.Union([Uuid, Type.Literal('none')], { description: "A user id, or `none` for items nobody is assigned to." }),
    ),
    epic: Type.Optional(
      Type.String({
        pattern: KEY_PATTERN,
        description: "An epic's key, with the current or a previous prefix: the items in that epic.",
        examples: ['WEB-4'],
      }),
    ),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Items carrying this label (exact).' })),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        // At least one word: a q of blanks only would filter nothing (and is refused like an empty one).
        pattern: '\\S',
        description: 'Words that must all appear in the title or description (any case).',
      }),
    ),
    changed_since: Type.Optional(
      Type.String({ format: 'date-time', description: 'Items changed at or after this moment (ISO 8601 with a zone).' }),
    ),
  },
  { additionalProperties: false },
);
export type ListItemsQuery = Static<typeof ListItemsQuery>;
