// A content project: its items, most recently updated first, filtered by kind (kept in the URL),
// paged; a link to create a page.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { Pager, Select, Time, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import { ITEM_KINDS, type Item, type Page, type Project } from './shared';
import { PageHeader } from '../../components/PageHeader';

const KIND_OPTIONS = [['', 'Every kind'], ...ITEM_KINDS.map((k) => [k, k] as const)] as const;

export default function ProjectItems() {
  const { projectId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const kind = params.get('kind') ?? '';
  const pager = useCursorPager();
  // One request: the page of items comes with the project itself.
  const items = useQuery({
    queryKey: ['content-items', projectId, kind, pager.cursor],
    queryFn: () => api.get<Page<Item> & { project: Project }>(`/hub/api/projects/${projectId}/items${qs({ kind, cursor: pager.cursor })}`),
    placeholderData: (previous) => (previous?.project.id === projectId ? previous : undefined),
  });
  const project = items.data?.project;
  return (
    <>
      <p>
        <Link to="/content">← Content</Link>
      </p>
      <PageHeader title={project?.name ?? 'Project'} />
      {project?.description && <p className="muted">{project.description}</p>}
      <div className="filters">
        <Select
          label="Kind"
          value={kind}
          onChange={(k) => {
            pager.reset();
            setParams(k ? { kind: k } : {});
          }}
          options={KIND_OPTIONS}
        />
        <Link className="button" to={`/content/${projectId}/new`}>
          New page
        </Link>
      </div>
      <h2>Items</h2>
      <QueryState q={items} isEmpty={(p) => p.data.length === 0 && pager.page === 1} empty="No items in this project yet.">
        {(p) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {p.data.map((item) => (
                  <tr key={item.id}>
                    <td>
                      <Link to={`/items/${item.id}`}>{item.title}</Link>
                    </td>
                    <td>{item.kind}</td>
                    <td>
                      <Time iso={item.updated_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pager={pager} nextCursor={p.next_cursor} label="Items" />
          </>
        )}
      </QueryState>
    </>
  );
}
