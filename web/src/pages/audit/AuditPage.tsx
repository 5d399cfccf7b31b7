// Account → Audit log (owners and admins): who changed what and when, newest first, paged. The
// filters live in the URL (?action=…&actor=…), so a filtered view can be bookmarked and reloaded.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Pager, Select, Time, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import type { HubUser } from '../users/types';
import { Detail } from './Detail';
import { AUDIT_ACTIONS, type AuditPage as Page } from './types';
import './audit.css';
import { PageHeader } from '../../components/PageHeader';

export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const action = params.get('action') ?? '';
  const actor = params.get('actor') ?? '';
  const pager = useCursorPager();
  const users = useQuery({ queryKey: ['users'], queryFn: () => api.get<{ data: HubUser[] }>('/hub/api/users') });
  const q = useQuery({
    queryKey: ['audit', action, actor, pager.cursor],
    queryFn: () => api.get<Page>(`/hub/api/audit${qs({ action, actor, cursor: pager.cursor, limit: 50 })}`),
    placeholderData: keepPreviousData,
  });
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
    pager.reset();
  };
  const actors: [string, string][] = [['', 'Anyone'], ['operator', 'The operator (CLI)'], ...(users.data?.data ?? []).map((u): [string, string] => [u.id, u.name ? `${u.name} <${u.email}>` : u.email])];
  if (actor && !actors.some(([id]) => id === actor)) actors.push([actor, 'A removed user']);
  return (
    <>
      <PageHeader title="Audit log" />
      <div className="filters">
        <Select label="Action" value={action} onChange={(v) => setFilter('action', v)} options={[['', 'Every action'], ...AUDIT_ACTIONS.map((a): [string, string] => [a, a])]} />
        <Select label="Actor" value={actor} onChange={(v) => setFilter('actor', v)} options={actors} />
      </div>
      <QueryState q={q} isEmpty={(d) => d.data.length === 0} empty={action || actor ? 'No entries match these filters.' : 'Nothing has been changed yet.'}>
        {(d) => (
          <>
            <table className="audit-table" aria-busy={q.isFetching}>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Action</th>
                  <th scope="col">Object</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {d.data.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <Time iso={e.at} />
                    </td>
                    <td>{e.actor.label}</td>
                    <td>
                      <code>{e.action}</code>
                    </td>
                    <td className="object">
                      {e.object.kind} <code>{e.object.id}</code>
                    </td>
                    <td className="detail">
                      <Detail detail={e.detail} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pager={pager} nextCursor={d.next_cursor} label="Audit log" />
          </>
        )}
      </QueryState>
    </>
  );
}
