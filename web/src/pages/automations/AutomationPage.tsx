// An automation's page: its status, the version that runs and its counters, the moves it allows,
// and its runs per contact in Run history's words, filtered by status in the URL query
// (useListQuery), with a Stop on each running or waiting run; links to the builder, and Delete for
// owners and admins. Both reads are GET /hub/api/automations/{id}: the head asks it for its
// summary, the table for each page of runs.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Select, StatusBadge, Time } from '../../components/controls';
import { ListTable, useListQuery, type Column } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { automationQuery, automationRunsQuery, type Automation, type AutomationRun } from '../../data/automations';
import { AutomationMoves } from './AutomationMoves';
import { DeleteAutomation } from './DeleteAutomation';
import { StopRun } from './StopRun';
import { isActive, RUN_STATUS_WORDS, RUN_STATUSES } from './words';
import './automations.css';

/** A test of the draft runs no published version (version 0): say so rather than "0". */
const runVersion = (r: AutomationRun) => (r.test ? (r.version ? `v ${r.version} (test)` : 'draft (test)') : `v ${r.version}`);

const RUN_COLUMNS: Column<AutomationRun>[] = [
  { header: 'Contact', cell: (r) => (r.contact ? <Link to={`/contacts/${r.contact.id}`}>{r.contact.name}</Link> : <span className="muted">No contact</span>) },
  {
    header: 'Status',
    cell: (r) => (
      <>
        <StatusBadge status={r.status} label={r.status_label} />
        {r.error && <p className="automations-run-error">{r.error}</p>}
      </>
    ),
  },
  // The start opens the run's page (each step in words).
  { header: 'Started', cell: (r) => <Link to={`/automation-runs/${r.id}`} aria-label={`Run of ${r.contact?.name ?? 'no contact'}, started ${new Date(r.started_at).toLocaleString()}`}><Time iso={r.started_at} /></Link> },
  { header: 'Finished or next step', cell: (r) => <Time iso={r.finished_at ?? r.next_at} /> },
  { header: 'Version', cell: runVersion },
  { header: <span className="muted">Actions</span>, cell: (r) => isActive(r.status) && <StopRun run={r} /> },
];

/** The heading row: one element from loading to loaded, so focus stays on it. */
function AutomationHeader({ a }: { a: Automation | undefined }) {
  return (
    <PageHeader id="automation-title" title={a?.name ?? 'Automation'}>
      {a && (
        <div className="automations-page-actions">
          <Link className="button" to={`/automations/${a.id}/build`}>
            Open builder
          </Link>
          <AutomationMoves automation={a} />
          <DeleteAutomation automation={a} />
        </div>
      )}
    </PageHeader>
  );
}

function Summary({ a }: { a: Automation }) {
  return (
    <>
      <p>
        <StatusBadge status={a.status} /> {a.published_version ? `version ${a.published_version} runs` : 'never published'}
        {a.has_unpublished_changes && ' · the draft has unpublished changes'} · trigger: {a.trigger.label || 'none yet'}
      </p>
      <ul className="automations-counters" aria-label="Counters">
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
    </>
  );
}

function Runs({ id }: { id: string }) {
  const list = useListQuery({ filters: ['status'], query: automationRunsQuery(id) });
  return (
    <>
      <h2>Runs</h2>
      <form className="filters card" role="search" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <Select
          label="Run status"
          value={list.filters.status}
          onChange={(v) => list.setFilter('status', v)}
          options={[['', 'Any status'], ...RUN_STATUSES.map((s): [string, string] => [s, RUN_STATUS_WORDS[s]])]}
        />
      </form>
      <ListTable list={list} columns={RUN_COLUMNS} caption="Runs of this automation, newest first" label="Runs" empty="No runs match." />
    </>
  );
}

export default function AutomationPage() {
  const { id = '' } = useParams();
  const q = useQuery(automationQuery(id));
  return (
    <section aria-labelledby="automation-title">
      <p>
        <Link to="/automations">← Automations</Link>
      </p>
      <AutomationHeader a={q.data} />
      <QueryState q={q}>
        {(a) => (
          <>
            <Summary a={a} />
            <Runs id={a.id} />
          </>
        )}
      </QueryState>
    </section>
  );
}
