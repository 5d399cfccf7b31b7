// Content: the account's projects, newest first, paged; each opens its items.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Pager, Time, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import type { Page, Project } from './shared';

export default function ContentProjects() {
  const pager = useCursorPager();
  const q = useQuery({
    queryKey: ['content-projects', pager.cursor],
    queryFn: () => api.get<Page<Project>>(`/hub/api/projects${qs({ cursor: pager.cursor })}`),
  });
  return (
    <>
      <h1>Content</h1>
      <QueryState q={q} isEmpty={(p) => p.data.length === 0 && pager.page === 1} empty="No projects yet.">
        {(p) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col">Description</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {p.data.map((project) => (
                  <tr key={project.id}>
                    <td>
                      <Link to={`/content/${project.id}`}>{project.name}</Link>
                    </td>
                    <td>{project.description || <span className="muted">—</span>}</td>
                    <td>
                      <Time iso={project.created_at} />
                    </td>
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
