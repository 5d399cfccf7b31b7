// A content project: its items, most recently updated first, filtered by kind (kept in the URL),
// paged; a link to create a page.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { Pager, Select, Time, useCursorPager } from '../../components/controls';
import { ErrorNotice, QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import { ITEM_KINDS, type Item, type Page, type Project } from './shared';

const KIND_OPTIONS = [['', 'Every kind'], ...ITEM_KINDS.map((k) => [k, k] as const)] as const;

export default function ProjectItems() {
  const { projectId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const kind = params.get('kind') ?? '';
  const pager = useCursorPager();
  const project = useQuery({ queryKey: ['content-project', projectId], queryFn: () => api.get<Project>(`/hub/api/projects/${projectId}`) });
  const items = useQuery({
    queryKey: ['content-items', projectId, kind, pager.cursor],
    queryFn: () => api.get<Page<Item>>(`/hub/api/projects/${projectId}/items${qs({ kind, cursor: pager.cursor })}`),
  });
  return (
    <>
      <p>
        <Link to="/content">← Content</Link>
      </p>
      <h1>{project.data?.name ?? 'Project'}</h1>
      <ErrorNotice error={project.error} />
      {project.data?.description && <p className="muted">{project.data.description}</p>}
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
