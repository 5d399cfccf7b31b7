// The Automations screen: every automation of the account with its status, the version that runs
// and its counters, filtered by status in the URL query (useListQuery); "New automation" opens the
// builder's first step.
import { Link } from 'react-router';
import { Select, StatusBadge, Time } from '../../components/controls';
import { ListTable, useListQuery, type Column } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { automationListQuery, type Automation } from '../../data/automations';
import { AUTOMATION_STATUSES } from './words';

const never = (what: string) => <span className="muted">{what}</span>;

const COLUMNS: Column<Automation>[] = [
  { header: 'Name', cell: (a) => <Link to={`/automations/${a.id}`}>{a.name}</Link> },
  {
    header: 'Status',
    cell: (a) => (
      <>
        <StatusBadge status={a.status} />
        {a.has_unpublished_changes && <span className="muted"> (unpublished changes)</span>}
      </>
    ),
  },
  { header: 'Version', cell: (a) => a.published_version || never('never published') },
  { header: 'Trigger', cell: (a) => a.trigger.label || never('none yet') },
  { header: 'Enrolled', cell: (a) => a.enrollments.total },
  { header: 'Active', cell: (a) => a.enrollments.active },
  { header: 'Completed', cell: (a) => a.enrollments.completed },
  { header: 'Last run', cell: (a) => <Time iso={a.last_run_at} /> },
];

export default function AutomationsPage() {
  const list = useListQuery({ filters: ['status'], query: automationListQuery });
  return (
    <section aria-labelledby="automations-title">
      <PageHeader id="automations-title" title="Automations">
        <Link className="button" to="/automations/new">
          New automation
        </Link>
      </PageHeader>
      <form className="filters card" role="search" aria-label="Filter automations" onSubmit={(e) => e.preventDefault()}>
        <Select
          label="Status"
          value={list.filters.status}
          onChange={(v) => list.setFilter('status', v)}
          options={[['', 'Any status'], ...AUTOMATION_STATUSES.map((s): [string, string] => [s, s])]}
        />
      </form>
      <ListTable list={list} columns={COLUMNS} caption="Automations, most recently changed first" label="Automations" empty="No automations match." />
    </section>
  );
}
