// The hub's work-management shapes: a project with a page of its items, the bodies of the writes,
// and an item as the hub shows it (/v1's detail, its history entries named by seq so a comment can
// be edited). Projects, items and sprints themselves are /v1's (api/workmgmt/schemas.ts). Pure:
// TypeBox and schema modules only.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Line, ListEnvelope, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { Change, Comment, KEY_PATTERN, ListItemsQuery, WorkItem, WorkItemDetail, WorkProject } from '../../api/workmgmt/schemas.js';
import { WM_LIMITS, WM_STATUSES, WM_TYPES } from '../../domain/work-item.js';

/** A page of a project's items with the project itself: the project's screen needs no second read of it. */
export const ProjectItems = Type.Object(
  { project: WorkProject, ...ListEnvelope(WorkItem, 'HubWorkItemList').properties },
  { title: 'HubWorkProjectItems' },
);
export type ProjectItems = Static<typeof ProjectItems>;

export const PrefixBody = Type.Object(
  { prefix: Type.String({ maxLength: 100, description: 'A capital letter, then up to 9 capitals or digits, such as WEB.', examples: ['WEB'] }) },
  { additionalProperties: false, title: 'HubWorkPrefixBody' },
);
export type PrefixBody = Static<typeof PrefixBody>;

const DateOrNull = Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD.' }));

/** The fields a person sets on an item; in an edit, the ones sent change and the rest stay. */
const itemFields = {
  type: StringEnum(WM_TYPES),
  title: Line({ maxLength: WM_LIMITS.title }),
  description: Type.Optional(Type.String({ maxLength: WM_LIMITS.description, description: 'Markdown.' })),
  status: Type.Optional(StringEnum(WM_STATUSES)),
  assignee: Type.Optional(Nullable({ ...Uuid, description: 'A user of the account; null: nobody.' })),
  labels: Type.Optional(Type.Array(Line({ maxLength: WM_LIMITS.label }), { maxItems: WM_LIMITS.labels })),
  start_date: Type.Optional(DateOrNull),
  due_date: Type.Optional(DateOrNull),
  epic_key: Type.Optional(Nullable(Type.String({ pattern: KEY_PATTERN, description: 'An epic of this project, by key; null: in no epic.' }))),
  sprint_id: Type.Optional(Nullable({ ...Uuid, description: 'A sprint of this project; null: the backlog.' })),
  linked_documents: Type.Optional(Type.Array(Uuid, { maxItems: WM_LIMITS.linkedDocuments, description: 'Pages of this project.' })),
  points: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: WM_LIMITS.points }))),
};

export const CreateItemBody = Type.Object(itemFields, { additionalProperties: false, title: 'HubWorkItemCreateBody' });
export type CreateItemBody = Static<typeof CreateItemBody>;

export const EditItemBody = Type.Object(
  {
    ...itemFields,
    type: Type.Optional(itemFields.type),
    title: Type.Optional(itemFields.title),
    expected_updated_at: {
      ...DateTime,
      description: "The item's updated_at the edit started from: when the item changed since, 409 work_item_changed and nothing is written.",
    },
  },
  { additionalProperties: false, title: 'HubWorkItemEditBody' },
);
export type EditItemBody = Static<typeof EditItemBody>;

export const CommentBody = Type.Object(
  { text: Type.String({ maxLength: WM_LIMITS.comment, description: 'Markdown.' }) },
  { additionalProperties: false, title: 'HubWorkCommentBody' },
);
export type CommentBody = Static<typeof CommentBody>;

export const CommentParams = Type.Object(
  {
    project_id: Uuid,
    key: Type.String({ pattern: KEY_PATTERN, description: '`<PREFIX>-<number>`; a previous prefix also finds the item.' }),
    seq: Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: "The comment's seq in the item's history." }),
  },
  { additionalProperties: false },
);
export type CommentParams = Static<typeof CommentParams>;

const Seq = Type.Integer({ minimum: 1, description: "The entry's place in the item's history; a comment is edited or deleted by it." });
const HubComment = Type.Object(
  {
    ...Comment.properties,
    seq: Seq,
    edited_at: Nullable({ ...DateTime, description: 'When its author last edited it; null: never.' }),
    html: Nullable(Type.String({ description: 'The text (Markdown) as sanitised HTML; null when it could not be converted (show the text).' })),
  },
  { title: 'HubWorkItemComment' },
);
const HubChange = Type.Object({ ...Change.properties, seq: Seq }, { title: 'HubWorkItemChange' });

/** /v1's item detail, with each history entry's seq (and a comment's edited_at), and Markdown as HTML beside its source. */
export const HubWorkItem = Type.Object(
  {
    ...WorkItemDetail.properties,
    description_html: Nullable(
      Type.String({ description: 'The description (Markdown) as sanitised HTML; null when it could not be converted (show the description).' }),
    ),
    history: Type.Array(Type.Union([HubComment, HubChange]), { description: 'The whole history, oldest first.' }),
  },
  { title: 'HubWorkItem' },
);
export type HubWorkItem = Static<typeof HubWorkItem>;

/** /v1's item filters, and the order: key (as /v1 lists) or rank (the backlog's order). */
export const HubListItemsQuery = Type.Object(
  {
    ...ListItemsQuery.properties,
    order: Type.Optional(StringEnum(['key', 'rank'] as const, { description: 'key (the default, as /v1 lists) or rank: the backlog order.' })),
  },
  { additionalProperties: false },
);
export type HubListItemsQuery = Static<typeof HubListItemsQuery>;

const OtherKey = (description: string) => Type.Optional(Type.String({ pattern: KEY_PATTERN, description }));
export const MoveItemBody = Type.Object(
  {
    before: OtherKey('Place the item right before this item of the project.'),
    after: OtherKey('Place the item right after this item of the project (not with before).'),
    sprint_id: Type.Optional(Nullable({ ...Uuid, description: 'Into this sprint of the project; null: into the backlog; absent: it stays.' })),
  },
  { additionalProperties: false, title: 'HubWorkItemMoveBody' },
);
export type MoveItemBody = Static<typeof MoveItemBody>;
