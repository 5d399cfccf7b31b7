// The hub's content shapes: a new project's body, a page preview, a project with a page of its
// items. Projects and items themselves are /v1's (api/projects, api/items). Pure: TypeBox,
// src/domain and other schema modules only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { ListEnvelope, NameSearch, Uuid } from '../../http/schemas.js';
import { MAX_PROJECT_DESCRIPTION_LENGTH, MAX_PROJECT_NAME_LENGTH } from '../../domain/project.js';
import { ItemSummary, ListItemsQuery } from '../../api/items/schemas.js';
import { ListProjectsQuery, Project } from '../../api/projects/schemas.js';

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;
/** /v1's list queries and the hub's search by name (projects) or title (items), for the pickers. */
export const HubListProjectsQuery = Type.Object({ ...ListProjectsQuery.properties, q: NameSearch('name') }, { additionalProperties: false });
export type HubListProjectsQuery = Static<typeof HubListProjectsQuery>;
export const HubListItemsQuery = Type.Object({ ...ListItemsQuery.properties, q: NameSearch('title') }, { additionalProperties: false });
export type HubListItemsQuery = Static<typeof HubListItemsQuery>;
export const CreateProjectBody = Type.Object(
  {
    name: Type.String({ maxLength: MAX_PROJECT_NAME_LENGTH, description: 'One line; trimmed, and must not be blank.' }),
    description: Type.Optional(Type.String({ maxLength: MAX_PROJECT_DESCRIPTION_LENGTH, description: 'Trimmed; empty when not given.' })),
  },
  { additionalProperties: false },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;
export const PreviewBody = Type.Object(
  {
    markdown: Type.Optional(Type.String({ description: 'The page as Markdown. Send this or html, not both.' })),
    html: Type.Optional(Type.String({ description: 'The page as HTML. Send this or markdown, not both.' })),
  },
  { additionalProperties: false },
);
export type PreviewBody = Static<typeof PreviewBody>;
export const Preview = Type.Object(
  {
    html: Type.String({ description: 'The sanitised HTML the page would store; nothing is saved. Show it only in a sandboxed iframe.' }),
    bytes: Type.Integer({ description: 'Its size in UTF-8 bytes (a page may have at most 512 KiB).' }),
  },
  { title: 'HubPagePreview' },
);
export type Preview = Static<typeof Preview>;
/** A page of a project's items with the project itself: the project's screen in one request. */
export const ProjectItems = Type.Object(
  { project: Project, ...ListEnvelope(ItemSummary, 'HubItemList').properties },
  { title: 'HubProjectItems' },
);
export type ProjectItems = Static<typeof ProjectItems>;
