// The Automations screen: every automation of the account with its status, the version that runs
// and its counters, filtered by status in the URL query; "New automation" opens the builder's first step.
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { Pager, Select, StatusBadge, Time, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import { AUTOMATION_STATUSES, type Automation } from './types';
import './automations.css';
import { PageHeader } from '../../components/PageHeader';

interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

function AutomationsList({ status }: { status: string }) {
  const pager = useCursorPager();
  const q = useQuery({
    queryKey: ['hub', 'automations', status, pager.cursor],
    queryFn: () => api.get<Page<Automation>>(`/hub/api/automations${qs({ status, cursor: pager.cursor })}`),
  });
  return (
    <QueryState q={q} isEmpty={(d) => d.data.length === 0} empty={pager.page === 1 ? 'No automations match.' : 'No more automations.'}>
      {(d) => (
        <>
          <table aria-label="Automations, most recently changed first">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Version</th>
                <th scope="col">Trigger</th>
                <th scope="col">Enrolled</th>
                <th scope="col">Active</th>
                <th scope="col">Completed</th>
                <th scope="col">Last run</th>
              </tr>
            </thead>
            <tbody>
              {d.data.map((a) => (
                <tr key={a.id}>
                  <td>
                    <Link to={`/automations/${a.id}`}>{a.name}</Link>
                  </td>
                  <td>
                    <StatusBadge status={a.status} />
                    {a.has_unpublished_changes && <span className="muted"> (unpublished changes)</span>}
                  </td>
                  <td>{a.published_version || <span className="muted">never published</span>}</td>
                  <td>{a.trigger.label || <span className="muted">none yet</span>}</td>
                  <td>{a.enrollments.total}</td>
                  <td>{a.enrollments.active}</td>
                  <td>{a.enrollments.completed}</td>
                  <td>
                    <Time iso={a.last_run_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager pager={pager} nextCursor={d.next_cursor} label="Automations" />
        </>
      )}
    </QueryState>
  );
}

export default function AutomationsPage() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  return (
    <section aria-labelledby="automations-title">
      <div className="page-head page-head-split">
        <PageHeader id="automations-title" title="Automations" />
        <Link className="button" to="/automations/new">
          New automation
        </Link>
      </div>
      <form className="filters card" role="search" aria-label="Filter automations" onSubmit={(e) => e.preventDefault()}>
        <Select
          label="Status"
          value={status}
          onChange={(v) => setParams(v ? new URLSearchParams({ status: v }) : new URLSearchParams())}
          options={[['', 'Any status'], ...AUTOMATION_STATUSES.map((s): [string, string] => [s, s])]}
        />
      </form>
      <AutomationsList key={status} status={status} />
    </section>
  );
}
