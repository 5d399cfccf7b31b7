// A project's sprints, newest first, with their totals: items done of all, points done of all.
import { useQuery } from '@tanstack/react-query';
import { Pager, StatusBadge, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import type { Page, Sprint } from './types';

export function SprintTable({ projectId }: { projectId: string }) {
  const pager = useCursorPager();
  const q = useQuery({
    queryKey: ['work-sprints', projectId, pager.cursor],
    queryFn: () => api.get<Page<Sprint>>(`/hub/api/workmgmt/projects/${projectId}/sprints${qs({ cursor: pager.cursor })}`),
  });
  return (
    <QueryState q={q} isEmpty={(p) => p.data.length === 0 && pager.page === 1} empty="No sprints yet.">
      {(p) => (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Sprint</th>
                <th scope="col">State</th>
                <th scope="col">Dates</th>
                <th scope="col">Items done</th>
                <th scope="col">Points done</th>
              </tr>
            </thead>
            <tbody>
              {p.data.map((s) => (
                <tr key={s.id}>
                  <td>{s.name}</td>
                  <td>
                    <StatusBadge status={s.state} />
                  </td>
                  <td>{s.start_date || s.end_date ? `${s.start_date ?? '…'} – ${s.end_date ?? '…'}` : <span className="muted">—</span>}</td>
                  <td>
                    {s.totals.done} of {s.totals.items}
                  </td>
                  <td>
                    {s.totals.points_done} of {s.totals.points}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager pager={pager} nextCursor={p.next_cursor} label="Sprints" />
        </>
      )}
    </QueryState>
  );
}
