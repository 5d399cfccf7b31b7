// Work management: the projects that opened it, newest first, paged; each opens its board.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Pager, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import type { Page, WorkProject } from './types';
import { PageHeader } from '../../components/PageHeader';

export default function WorkProjects() {
  const pager = useCursorPager();
  const q = useQuery({
    queryKey: ['work-projects', pager.cursor],
    queryFn: () => api.get<Page<WorkProject>>(`/hub/api/workmgmt/projects${qs({ cursor: pager.cursor })}`),
  });
  return (
    <>
      <PageHeader title="Work management" />
      <QueryState q={q} isEmpty={(p) => p.data.length === 0 && pager.page === 1} empty="No project uses work management yet.">
        {(p) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col">Key prefix</th>
                  <th scope="col">Earlier prefixes</th>
                </tr>
              </thead>
              <tbody>
                {p.data.map((project) => (
                  <tr key={project.project_id}>
                    <td>
                      <Link to={`/work/${project.project_id}`}>{project.name}</Link>
                    </td>
                    <td>
                      <code>{project.key_prefix}</code>
                    </td>
                    <td>{project.previous_prefixes.join(', ') || <span className="muted">—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pager={pager} nextCursor={p.next_cursor} label="Projects" />
          </>
        )}
      </QueryState>
    </>
  );
}
