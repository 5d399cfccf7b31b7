// Content: the account's projects, newest first, paged; each opens its items. "New project" opens
// the form on this screen (?new=project, so other screens can link straight to it).
import { Link, useSearchParams } from 'react-router';
import { Time } from '../../components/controls';
import { ListTable, useListQuery, type Column } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { projectListQuery, type Project } from '../../data/projects';
import { NEW_PROJECT_PATH } from '../../lib/paths';
import { NewProjectForm } from './NewProjectForm';
import './content.css';

const COLUMNS: Column<Project>[] = [
  { header: 'Project', cell: (p) => <Link to={`/content/${p.id}`}>{p.name}</Link> },
  { header: 'Description', cell: (p) => p.description || <span className="muted">—</span> },
  { header: 'Created', cell: (p) => <Time iso={p.created_at} /> },
];

export default function ContentProjects() {
  const [params, setParams] = useSearchParams();
  const creating = params.get('new') === 'project';
  const list = useListQuery({ filters: [], query: projectListQuery });
  return (
    <>
      <PageHeader title="Content">
        {!creating && (
          <Link className="button" to={NEW_PROJECT_PATH}>
            New project
          </Link>
        )}
      </PageHeader>
      {creating && <NewProjectForm onCancel={() => setParams({})} />}
      <ListTable
        list={list}
        columns={COLUMNS}
       
        caption="Content projects, newest first"
        label="Projects"
        empty={creating ? 'No projects yet.' : 'No projects yet: a project holds pages and other content, and automations belong to one. Create one with New project.'}
      />
    </>
  );
}
