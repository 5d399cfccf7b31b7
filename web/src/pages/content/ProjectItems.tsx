// A content project: its items, most recently updated first, filtered by kind (kept in the URL),
// paged; a link to create a page. The page of items comes with the project itself (one request).
import { Link, useParams } from 'react-router';
import { Select, Time } from '../../components/controls';
import { ListTable, useListQuery, type Column } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { itemListQuery, type ItemSummary } from '../../data/projects';
import { ITEM_KINDS } from '@domain/project';

const KIND_OPTIONS = [['', 'Every kind'], ...ITEM_KINDS.map((k) => [k, k] as const)] as const;

const COLUMNS: Column<ItemSummary>[] = [
  { header: 'Title', cell: (item) => <Link to={`/items/${item.id}`}>{item.title}</Link> },
  { header: 'Kind', cell: (item) => item.kind },
  { header: 'Updated', cell: (item) => <Time iso={item.updated_at} /> },
];

export default function ProjectItems() {
  const { projectId = '' } = useParams();
  const list = useListQuery({ filters: ['kind'], query: itemListQuery(projectId) });
  // The previous page stays on screen while the next loads: only a page of this project names it.
  const project = list.q.data?.project.id === projectId ? list.q.data.project : undefined;
  return (
    <>
      <p>
        <Link to="/content">← Content</Link>
      </p>
      <PageHeader title={project?.name ?? 'Project'} />
      {project?.description && <p className="muted">{project.description}</p>}
      <div className="filters">
        <Select label="Kind" value={list.filters.kind} onChange={(k) => list.setFilter('kind', k)} options={KIND_OPTIONS} />
        <Link className="button" to={`/content/${projectId}/new`}>
          New page
        </Link>
      </div>
      <h2>Items</h2>
      <ListTable list={list} columns={COLUMNS} caption="Items, most recently updated first" label="Items" empty="No items in this project yet." />
    </>
  );
}
