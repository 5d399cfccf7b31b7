// The Project resource's schemas (content API): the project and the list's query. Pure: TypeBox
// and src/domain only, for the hub and the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, ListQuery, Uuid } from '../../http/schemas.js';

export const Project = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Type.String({ description: 'May be an empty string.' }),
    created_at: DateTime,
    updated_at: DateTime,
  },
  {
    title: 'Project',
    examples: [
      {
        id: '01968f3e-7b1a-7c3e-9d2f-2a4b6c8d0e1f',
        name: 'Website',
        description: 'Marketing site',
        created_at: '2026-03-01T12:00:00.000Z',
        updated_at: '2026-03-02T09:30:00.000Z',
      },
    ],
  },
);
export type Project = Static<typeof Project>;

export const ListProjectsQuery = Type.Object({ ...ListQuery }, { additionalProperties: false });
export type ListProjectsQuery = Static<typeof ListProjectsQuery>;
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;
