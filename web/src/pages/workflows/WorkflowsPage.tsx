// The Workflows screen: every workflow with its status, project and last run, filtered by status
// (in the URL query, so it can be bookmarked); "New workflow" and each row's "Open builder" lead to
// the builder, and owners and admins can delete a workflow from its row.
import { Link } from 'react-router';
import { Select, StatusBadge, Time } from '../../components/controls';
import { ListTable, useListQuery, type Column } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { workflowListQuery, type WorkflowInList } from '../../data/workflows';
import { isAdmin, useSession } from '../../lib/session';
import { DeleteWorkflow } from './DeleteWorkflow';
import { WORKFLOW_STATUSES } from '@domain/workflow';
import './workflows.css';

function columns(admin: boolean): Column<WorkflowInList>[] {
  return [
    {
      header: 'Name',
      cell: (w) => (
        <>
          <Link to={`/workflows/${w.id}`}>{w.name}</Link>
          {w.description && <div className="muted row-note">{w.description}</div>}
        </>
      ),
    },
    { header: 'Status', cell: (w) => <StatusBadge status={w.status} /> },
    { header: 'Project', cell: (w) => w.project_name ?? <span className="muted">—</span> },
    { header: 'Blocks', cell: (w) => w.block_count },
    {
      header: 'Last run',
      cell: (w) =>
        w.last_run ? (
          // The name is the visible text with the workflow before it (hidden), so the link is told
          // apart in a list of links and speech input finds it by what it shows.
          <Link to={`/runs/${w.last_run.id}`}>
            <span className="visually-hidden">Last run of {w.name}: </span>
            <StatusBadge status={w.last_run.status} /> <Time iso={w.last_run.at} />
          </Link>
        ) : (
          <span className="muted">Never run</span>
        ),
    },
    { header: 'Updated', cell: (w) => <Time iso={w.updated_at} /> },
    {
      header: 'Actions',
      className: 'row-actions',
      cell: (w) => (
        <>
          <Link to={`/workflows/${w.id}/build`}>
            Open builder<span className="visually-hidden"> for {w.name}</span>
          </Link>
          {admin && <DeleteWorkflow wf={w} inRow />}
        </>
      ),
    },
  ];
}

export default function WorkflowsPage() {
  const admin = isAdmin(useSession());
  const list = useListQuery({ filters: ['status'], query: workflowListQuery });
  const status = list.filters.status;
  return (
    <section aria-labelledby="workflows-title">
      <PageHeader id="workflows-title" title="Workflows">
        <Link className="button" to="/workflows/new">
          New workflow
        </Link>
      </PageHeader>
      <form className="filters card" role="search" aria-label="Filter workflows" onSubmit={(e) => e.preventDefault()}>
        <Select label="Status" value={status} onChange={(v) => list.setFilter('status', v)} options={[['', 'Any status'], ...WORKFLOW_STATUSES.map((s): [string, string] => [s, s])]} />
      </form>
      <ListTable
        list={list}
        columns={columns(admin)}
       
        caption="Workflows, most recently changed first"
        label="Workflows"
        empty={status ? `No ${status} workflows.` : 'No workflows yet.'}
      />
    </section>
  );
}
