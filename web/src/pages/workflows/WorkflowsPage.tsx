// The Workflows screen: every workflow with its status, project and last run, filtered by status
// (in the URL query, so it can be bookmarked); "New workflow" and each row's "Open builder" lead to
// the builder, and owners and admins can delete a workflow from its row.
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { Pager, Select, StatusBadge, Time, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import { isAdmin, useSession } from '../../lib/session';
import { DeleteWorkflow } from './DeleteWorkflow';
import type { Page } from '../runs/model';
import { WORKFLOW_STATUSES, type WorkflowInList } from './model';
import '../runs/runs.css';
import './workflows.css';

function WorkflowList({ status }: { status: string }) {
  const admin = isAdmin(useSession());
  const pager = useCursorPager();
  const q = useQuery({
    queryKey: ['hub', 'workflows', status, pager.cursor],
    queryFn: () => api.get<Page<WorkflowInList>>(`/hub/api/workflows${qs({ status, cursor: pager.cursor })}`),
  });
  return (
    <QueryState q={q} isEmpty={(d) => d.data.length === 0} empty={status ? `No ${status} workflows.` : 'No workflows yet.'}>
      {(d) => (
        <>
          <table>
            <caption className="visually-hidden">Workflows, most recently changed first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Project</th>
                <th scope="col">Blocks</th>
                <th scope="col">Last run</th>
                <th scope="col">Updated</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {d.data.map((w) => (
                <tr key={w.id}>
                  <td>
                    <Link to={`/workflows/${w.id}`}>{w.name}</Link>
                    {w.description && <div className="muted run-summary">{w.description}</div>}
                  </td>
                  <td>
                    <StatusBadge status={w.status} />
                  </td>
                  <td>{w.project_name ?? <span className="muted">—</span>}</td>
                  <td>{w.block_count}</td>
                  <td>
                    {w.last_run ? (
                      <Link to={`/runs/${w.last_run.id}`} aria-label={`Last run of ${w.name}: ${w.last_run.status.replace(/_/g, ' ')}`}>
                        <StatusBadge status={w.last_run.status} /> <Time iso={w.last_run.at} />
                      </Link>
                    ) : (
                      <span className="muted">Never run</span>
                    )}
                  </td>
                  <td>
                    <Time iso={w.updated_at} />
                  </td>
                  <td className="row-actions">
                    <Link to={`/workflows/${w.id}/build`}>
                      Open builder<span className="visually-hidden"> for {w.name}</span>
                    </Link>
                    {admin && <DeleteWorkflow wf={w} inRow />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager pager={pager} nextCursor={d.next_cursor} label="Workflows" />
        </>
      )}
    </QueryState>
  );
}

export default function WorkflowsPage() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  return (
    <section aria-labelledby="workflows-title">
      <div className="page-head">
        <h1 id="workflows-title">Workflows</h1>
        <Link className="button" to="/workflows/new">
          New workflow
        </Link>
      </div>
      <form className="filters card" role="search" aria-label="Filter workflows" onSubmit={(e) => e.preventDefault()}>
        <Select
          label="Status"
          value={status}
          onChange={(v) => setParams(v ? { status: v } : {})}
          options={[['', 'Any status'], ...WORKFLOW_STATUSES.map((s): [string, string] => [s, s])]}
        />
      </form>
      <WorkflowList key={status} status={status} />
    </section>
  );
}
