// A project's sprints, newest first, with their totals: items done of all, points done of all.
import { StatusBadge } from '../../components/controls';
import { ListTable, useListQuery, type Column } from '../../components/list';
import { sprintListQuery, type Sprint } from '../../data/work';

const COLUMNS: Column<Sprint>[] = [
  { header: 'Sprint', cell: (s) => s.name },
  { header: 'State', cell: (s) => <StatusBadge status={s.state} /> },
  { header: 'Dates', cell: (s) => (s.start_date || s.end_date ? `${s.start_date ?? '…'} – ${s.end_date ?? '…'}` : <span className="muted">—</span>) },
  { header: 'Items done', cell: (s) => `${s.totals.done} of ${s.totals.items}` },
  { header: 'Points done', cell: (s) => `${s.totals.points_done} of ${s.totals.points}` },
];

export function SprintTable({ projectId }: { projectId: string }) {
  const list = useListQuery({ filters: [], query: sprintListQuery(projectId) });
  return <ListTable list={list} columns={COLUMNS} caption="Sprints, newest first" label="Sprints" empty="No sprints yet." />;
}
