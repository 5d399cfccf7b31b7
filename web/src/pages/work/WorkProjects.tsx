// Work management: the projects that opened it, newest first, paged; each opens its board. Owners
// and admins start it in another project here (OpenWorkArea.tsx).
import { Link } from 'react-router';
import { ListTable, useListQuery, type Column } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { workProjectListQuery, type WorkProject } from '../../data/work';
import { isAdmin, useSession } from '../../lib/session';
import { OpenWorkArea } from './OpenWorkArea';
import './work.css';

const COLUMNS: Column<WorkProject>[] = [
  { header: 'Project', cell: (p) => <Link to={`/work/${p.project_id}`}>{p.name}</Link> },
  { header: 'Key prefix', cell: (p) => <code>{p.key_prefix}</code> },
  { header: 'Earlier prefixes', cell: (p) => p.previous_prefixes.join(', ') || <span className="muted">—</span> },
];

export default function WorkProjects() {
  const list = useListQuery({ filters: [], query: workProjectListQuery });
  const admin = isAdmin(useSession());
  const usedBy = new Set((list.q.data?.data ?? []).map((p) => p.project_id));
  return (
    <>
      <PageHeader title="Work management" />
      <ListTable
        list={list}
        columns={COLUMNS}
        rowKey={(p) => p.project_id}
        caption="Work-management projects, newest first"
        label="Projects"
        empty={admin ? 'No project uses work management yet: start it in one below.' : 'No project uses work management yet. An owner or admin of the account starts it in a project.'}
      />
      {admin && <OpenWorkArea usedBy={usedBy} />}
    </>
  );
}
