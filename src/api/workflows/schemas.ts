// The Workflow resource's schemas: the workflow and the list's query. Pure: TypeBox and
// src/domain only, for the hub and the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { WORKFLOW_STATUSES } from '../../domain/workflow.js';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

export const WorkflowStatus = StringEnum(WORKFLOW_STATUSES);
export type WorkflowStatus = Static<typeof WorkflowStatus>;

export const Workflow = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Type.String({ description: 'May be an empty string.' }),
    status: WorkflowStatus,
    project_id: Nullable(Uuid),
    updated_at: DateTime,
    last_run: Nullable(
      Type.Object({ id: Uuid, status: Type.String(), at: DateTime }, { description: 'The most recently created run.' }),
    ),
  },
  { title: 'Workflow' },
);
export type Workflow = Static<typeof Workflow>;

export const ListWorkflowsQuery = Type.Object(
  {
    ...ListQuery,
    status: Type.Optional(WorkflowStatus),
    project_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type ListWorkflowsQuery = Static<typeof ListWorkflowsQuery>;
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;
