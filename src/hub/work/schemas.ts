// The hub's work-management shapes: a project with a page of its items. Projects, items and
// sprints themselves are /v1's (api/workmgmt/schemas.ts). Pure: TypeBox and schema modules only.
import { Type, type Static } from '@sinclair/typebox';
import { ListEnvelope } from '../../http/schemas.js';
import { WorkItem, WorkProject } from '../../api/workmgmt/schemas.js';

/** A page of a project's items with the project itself: the project's screen needs no second read of it. */
export const ProjectItems = Type.Object(
  { project: WorkProject, ...ListEnvelope(WorkItem, 'HubWorkItemList').properties },
  { title: 'HubWorkProjectItems' },
);
export type ProjectItems = Static<typeof ProjectItems>;
