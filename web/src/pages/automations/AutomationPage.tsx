// An automation's page: its status, the version that runs and its counters, the moves it allows,
// and its runs per contact in Run history's words, filtered by status in the URL query, with a
// Stop on each running or waiting run; links to the builder, and Delete for owners and admins.
// One request: GET /hub/api/automations/{id}.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { Pager, Select, StatusBadge, Time, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import { AutomationMoves } from './AutomationMoves';
import { DeleteAutomation } from './DeleteAutomation';
import { StopRun } from './StopRun';
import { isActive, RUN_STATUS_WORDS, RUN_STATUSES, type AutomationDetail, type AutomationRun } from './types';
import './automations.css';
import { PageHeader } from '../../components/PageHeader';

/** A test of the draft runs no published version (version 0): say so rather than "0". */
const runVersion = (r: AutomationRun) => (r.test ? (r.version ? `v ${r.version} (test)` : 'draft (test)') : `v ${r.version}`);

function RunsTable({ runs }: { runs: AutomationRun[] }) {
  return (
    <table aria-label="Runs of this automation, newest first">
      <thead>
        <tr>
          <th scope="col">Contact</th>
          <th scope="col">Status</th>
          <th scope="col">Started</th>
          <th scope="col">Finished or next step</th>
          <th scope="col">Version</th>
          <th scope="col">
            <span className="muted">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id}>
            <td>
              {r.contact ? <Link to={`/contacts/${r.contact.id}`}>{r.contact.name}</Link> : <span className="muted">No contact</span>}
            </td>
            <td>
              <StatusBadge status={r.status} label={r.status_label} />
              {r.error && <p className="automations-run-error">{r.error}</p>}
            </td>
            <td>
              <Time iso={r.started_at} />
            </td>
            <td>{r.finished_at ? <Time iso={r.finished_at} /> : <Time iso={r.next_at} />}</td>
            <td>{runVersion(r)}</td>
            <td>{isActive(r.status) && <StopRun run={r} />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Detail({ id, status, setStatus }: { id: string; status: string; setStatus: (s: string) => void }) {
  const pager = useCursorPager();
  const q = useQuery({
    queryKey: ['hub', 'automations', id, status, pager.cursor],
    queryFn: () => api.get<AutomationDetail>(`/hub/api/automations/${encodeURIComponent(id)}${qs({ status, cursor: pager.cursor })}`),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryState q={q}>
      {({ automation: a, runs }) => (
        <>
          <div className="page-head page-head-split">
            <PageHeader id="automation-title" title={a.name} />
            <div className="page-actions">
              <Link className="button" to={`/automations/${a.id}/build`}>
                Open builder
              </Link>
              <AutomationMoves automation={a} />
              <DeleteAutomation automation={a} />
            </div>
          </div>
          <p>
            <StatusBadge status={a.status} /> {a.published_version ? `version ${a.published_version} runs` : 'never published'}
            {a.has_unpublished_changes && ' · the draft has unpublished changes'} · trigger: {a.trigger.label || 'none yet'}
          </p>
          <ul className="counters" aria-label="Counters">
            <li>
              <strong>{a.enrollments.total}</strong> enrolled
            </li>
            <li>
              <strong>{a.enrollments.active}</strong> active
            </li>
            <li>
              <strong>{a.enrollments.completed}</strong> completed
            </li>
          </ul>
          <p>
            <Link to={`/messages?automation_id=${a.id}`}>Messages this automation sent</Link>
          </p>
          <h2>Runs</h2>
          <form className="filters card" role="search" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
            <Select
              label="Run status"
              value={status}
              onChange={setStatus}
              options={[['', 'Any status'], ...RUN_STATUSES.map((s): [string, string] => [s, RUN_STATUS_WORDS[s]])]}
            />
          </form>
          {runs.data.length ? <RunsTable runs={runs.data} /> : <p className="state state-empty">{pager.page === 1 ? 'No runs match.' : 'No more runs.'}</p>}
          <Pager pager={pager} nextCursor={runs.next_cursor} label="Runs" />
        </>
      )}
    </QueryState>
  );
}

export default function AutomationPage() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  return (
    <section aria-labelledby="automation-title">
      <p>
        <Link to="/automations">← Automations</Link>
      </p>
      <Detail key={status} id={id} status={status} setStatus={(v) => setParams(v ? new URLSearchParams({ status: v }) : new URLSearchParams())} />
    </section>
  );
}
