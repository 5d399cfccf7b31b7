// Content: the account's projects, newest first, paged; each opens its items. "New project" opens
// the form on this screen (?new=project, so other screens can link straight to it).
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { Pager, Time, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import { NEW_PROJECT_PATH } from '../../lib/paths';
import { NewProjectForm } from './NewProjectForm';
import type { Page, Project } from './shared';
import './content.css';
import { PageHeader } from '../../components/PageHeader';

export default function ContentProjects() {
  const pager = useCursorPager();
  const [params, setParams] = useSearchParams();
  const creating = params.get('new') === 'project';
  const q = useQuery({
    queryKey: ['content-projects', pager.cursor],
    queryFn: () => api.get<Page<Project>>(`/hub/api/projects${qs({ cursor: pager.cursor })}`),
  });
  return (
    <>
      <div className="page-head page-head-split">
        <PageHeader title="Content" />
        {!creating && (
          <Link className="button" to={NEW_PROJECT_PATH}>
            New project
          </Link>
        )}
      </div>
      {creating && <NewProjectForm onCancel={() => setParams({})} />}
      <QueryState
        q={q}
        isEmpty={(p) => p.data.length === 0 && pager.page === 1}
        empty={creating ? 'No projects yet.' : 'No projects yet: a project holds pages and other content, and automations belong to one. Create one with New project.'}
      >
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
